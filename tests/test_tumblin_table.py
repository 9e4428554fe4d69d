"""Tumblin' Dice at the table: flicks told with the buttons, the board read by the real reader from
rendered boards and checked die by die with the buttons (face, colour, level, a die added or taken
off), the count refused while anything is unsure and warned once about dice not seen, the options
on the set-up screen and in the configuration, undo and resume, and a whole game headless."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.tumblin import GAME, Die, Flick, State, Tally
from firmware.calibration.board_file import LEVELS_NAME
from firmware.config import ConfigError, parse_config
from firmware.core.events import FrameEvent
from firmware.core.game_setup import GameSetup
from firmware.core.table_game import Cursor, Look, Play, Say, Scratch
from firmware.drawing.screens import draw
from firmware.games.tumblin import screens as tumblin_screens
from firmware.games.tumblin import setup
from firmware.games.tumblin.draft import Draft, DraftDie
from firmware.games.tumblin.flicks import ZERO_WARNING, entries
from firmware.games.tumblin.screens import FlickScreen, RoundsScreen, TallyScreen, WaitingScreen
from firmware.games.tumblin.table import TABLE, tally_press
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table.companion import Companion
from golden import watch_words
from hardware.buttons import Press
from hardware.display import dummy_display
from table_helpers import press
from vision.scenes.synthetic_board import render_board

NAMES = ("Ann", "Bob")


def flicked(players: int = 2, stayed: int = 0, **variant) -> State:
    """A round with every die flicked, the first ``stayed`` flicks staying on the launch pad."""
    state = GAME.new_game(players, **variant)
    for flick in range(players * 4):
        state = GAME.apply(state, Flick(stayed=flick < stayed))
    return state


def started(tmp_path: Path, setup_: GameSetup = GameSetup(NAMES, kind="tumblin"), journal: Journal | None = None) -> Companion:
    companion = Companion(dummy_display(), setup_, journal=journal, data_dir=tmp_path)
    for _ in range(companion._menu.start_field + 1):
        press(companion, Press.SELECT)
    assert isinstance(companion.screen, FlickScreen)
    return companion


def show(companion: Companion, image: np.ndarray, frames: int = 8) -> None:
    for _ in range(frames):
        companion.handle(FrameEvent(image))


def board_picture(tmp_path: Path, dice, seed: int = 3, **kwargs):
    """A rendered board with ``dice`` (colour, face) on it, its levels stored as calibrated."""
    image, levels, truth = render_board(dice, np.random.default_rng(seed), **kwargs)
    (tmp_path / LEVELS_NAME).write_text(levels.to_json())
    return image, truth


# --- flicking -------------------------------------------------------------------------------


def test_tumblin_is_on_the_set_up_screen_with_its_options(tmp_path):
    companion = Companion(dummy_display(), GameSetup(NAMES, kind="tumblin"), data_dir=tmp_path)
    rows = dict(companion.screen.rows)
    assert rows == {"Game": "Tumblin' Dice", "Players": "2", "Play to": "4 rounds", "Score": "face x level",
                    "Teams": "no", "Mines": "none", "Cards": "none"}, "the mines' kind only with mines"
    press(companion, Press.SELECT, Press.NEXT, Press.NEXT)  # four players: teams may be chosen
    press(companion, Press.SELECT, Press.NEXT, Press.SELECT, Press.NEXT, Press.SELECT, Press.NEXT)
    shown = dict(companion.screen.rows)
    assert shown["Players"] == "4" and shown["Play to"] == "100 pts" and shown["Score"] == "face + level"
    assert shown["Teams"] == "1+3 v 2+4" and "Mine kind" not in shown
    press(companion, Press.SELECT, Press.NEXT)  # one mine
    assert dict(companion.screen.rows)["Mine kind"] == "pressure" and companion.screen.field == 5, "still on Mines"


def test_roll_is_a_die_that_landed_and_stop_one_that_stayed_on_the_launch_pad(tmp_path):
    companion = started(tmp_path)
    press(companion, Press.ROLL, Press.STOP)
    assert companion.journal.events(companion.game_id) == ["flick", "flick stayed"]
    screen = companion.screen
    assert isinstance(screen, FlickScreen) and screen.state.current == 0 and screen.state.flicked == (1, 1)


def test_select_on_the_flick_screen_does_nothing_its_footer_does_not_offer(tmp_path):
    """The footer offers ROLL (a die landed: on a simulated board it also throws one) and STOP; a
    SELECT there journaled a landed flick without throwing a die, and the count was then refused."""
    companion = started(tmp_path)
    press(companion, Press.SELECT)
    assert companion.journal.events(companion.game_id) == [] and companion.screen.cursor == 0
    press(companion, Press.NEXT, Press.SELECT)  # "stayed", as its footer says
    assert companion.journal.events(companion.game_id) == ["flick stayed"]


def test_next_walks_what_can_be_said_and_select_says_it(tmp_path):
    companion = started(tmp_path, GameSetup(NAMES, kind="tumblin", options={"mines": 2, "cards": "breed"}))
    press(companion, Press.ROLL)  # a die landed: now a mine may go off and a breed card breed
    assert entries(companion.state) == ("landed", "stayed", "standing", "breed red", "mine", "rounds"), "no green landed"
    press(companion, Press.NEXT, Press.NEXT, Press.NEXT)
    assert companion.screen.cursor == 3
    press(companion, Press.SELECT)
    assert companion.journal.events(companion.game_id)[-1] == "breed red"
    press(companion, *[Press.NEXT] * 4, Press.SELECT)
    assert companion.journal.events(companion.game_id)[-1] == "mine"
    press(companion, *[Press.NEXT] * 5, Press.SELECT)
    assert isinstance(companion.screen, RoundsScreen), "rounds: the scores so far"


def test_the_standing_is_read_from_the_board_on_request(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 5), ("green", 2)], seed=11)
    companion = started(tmp_path)
    press(companion, Press.ROLL, Press.ROLL)
    press(companion, Press.NEXT, Press.NEXT, Press.SELECT)  # standing
    show(companion, image)
    assert isinstance(companion.screen, TallyScreen) and not companion.screen.for_tally, "the dice on the board first"
    press(companion, Press.NEXT)
    screen = companion.screen
    assert isinstance(screen, FlickScreen) and screen.standing is not None, "then the points beside the totals"
    draft = companion._scratch
    expected = tuple(
        sum(d.face * d.level for d in draft.dice if d.colour == name and d.level) for name in ("red", "green")
    )
    assert screen.standing == expected and draft.for_tally is False
    press(companion, Press.ROLL)
    assert companion.screen.standing is None, "the next flick changes the board: the standing is gone"


def test_roll_on_the_standing_only_puts_it_away_so_a_simulated_board_throws_no_die(tmp_path):
    """The press that puts the standing away is no flick: the keyboard demo's ROLL there threw a die
    onto the simulated board that no flick journaled (the count then found one die too many)."""
    image, _ = board_picture(tmp_path, [("red", 5), ("green", 2)], seed=11)
    companion = started(tmp_path)
    press(companion, Press.ROLL, Press.ROLL, Press.NEXT, Press.NEXT, Press.SELECT)  # standing
    show(companion, image)
    assert isinstance(companion.screen, TallyScreen) and companion.throw_plan().count == 0
    press(companion, Press.ROLL)
    assert isinstance(companion.screen, FlickScreen) and companion.throw_plan().count == 1, "then ROLL flicks again"


# --- the board read after the last flick ------------------------------------------------------


def round_flicked(companion: Companion) -> None:
    press(companion, *[Press.ROLL] * 8)
    assert isinstance(companion.screen, WaitingScreen)


def test_after_the_last_flick_the_board_is_read_with_face_colour_and_level(tmp_path):
    dice = [("red", 4), ("red", 6), ("green", 3), ("green", 1), ("red", 2)]
    image, truth = board_picture(tmp_path, dice, seed=5, off_board=1)
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    screen = companion.screen
    assert isinstance(screen, TallyScreen) and screen.cursor == 0 and screen.for_tally
    read = sorted((d.colour, d.face, d.level) for d in screen.dice)
    assert read == sorted((t.colour, t.face, t.level) for t in truth if t.on_board)
    on_zero = [r for r in read if r[2] == 0]
    assert len(on_zero) == 2, "the seeded board has two dice on the 0x level"
    press(companion, *[Press.NEXT] * (len(screen.dice) + 1), Press.SELECT)  # count it
    assert companion.screen.status == f"Take 2 dice {ZERO_WARNING}", "take the dice on the 0x level off first"
    press(companion, Press.SELECT, Press.SELECT)  # they were taken off; 3 red unseen: counted again
    scored = [r for r in read if r[2] > 0]
    events = companion.journal.events(companion.game_id)
    assert events[-1] == Tally(tuple(Die(*r) for r in scored)).text()
    assert isinstance(companion.screen, FlickScreen) and companion.state.history[0].scores == TABLE.engine.apply(
        flicked(), Tally(tuple(Die(*r) for r in scored))).history[0].scores


def test_without_calibrated_levels_every_level_is_unsure_and_said_why(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4)], seed=5)
    (tmp_path / LEVELS_NAME).unlink()
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    screen = companion.screen
    assert isinstance(screen, TallyScreen) and [d.level for d in screen.dice] == [None]
    assert screen.status == "board not calibrated" and "not calibrated" in screen.dice[0].doubt


def test_a_damaged_levels_file_is_reported_not_a_crash(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4)], seed=5)
    (tmp_path / LEVELS_NAME).write_text("{ not json")
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    assert companion.screen.status == "levels file unusable" and [d.level for d in companion.screen.dice] == [None]


def test_a_die_across_a_step_is_unsure_until_the_players_say_its_level(tmp_path):
    image, truth = board_picture(tmp_path, [("red", 4), ("green", 5)], seed=8, on_border=1)
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    screen = companion.screen
    unsure = [i for i, d in enumerate(screen.dice) if d.level is None]
    assert len(unsure) == 1 and "border" in screen.dice[unsure[0]].doubt
    press(companion, *[Press.NEXT] * (len(screen.dice) + 1), Press.SELECT)
    assert companion.screen.status == "1 unsure: fix ?s", "never counted while a die is unsure"
    assert companion.journal.events(companion.game_id)[-1] == "flick"


# --- correcting with the buttons (the tally screen's logic) ----------------------------------


def run(state: State, draft: Draft, *presses: Press, cursor: int = 0):
    """Apply presses to the tally screen's logic as the core would; returns (draft, cursor, last action)."""
    action = None
    for one in presses:
        action = tally_press(state, draft, cursor, one)
        if isinstance(action, Cursor):
            cursor = action.index
        elif isinstance(action, Scratch):
            draft, cursor = action.value, action.cursor
    return draft, cursor, action


@pytest.mark.parametrize("colours, dice, rows", [
    (None, [("green", 5)], ("Take green 5 off 0x,", "then press SELECT")),
    (None, [("green", 5), ("red", 2)], ("Take 2 dice off 0x,", "then press SELECT")),
    (["aquamarine", "chartreuse"], [("aquamarine", 5)], ("Take aquamarine 5 off", "0x, then press SELECT")),
])
def test_dice_on_the_0x_level_at_the_count_are_asked_off_in_plain_words_on_two_whole_rows(
    monkeypatch, colours, dice, rows
):
    state = flicked(colours=colours)
    draft = Draft(tuple(DraftDie(colour, face, 0) for colour, face in dice))
    draft, cursor, action = run(state, draft, Press.SELECT, cursor=len(dice) + 1)  # count it
    assert isinstance(action, Scratch) and action.status.endswith(ZERO_WARNING)
    said = watch_words(monkeypatch, tumblin_screens)
    draw(TallyScreen(state, NAMES, draft.dice, cursor, None, (), True, action.status))
    assert tuple(said[-2:]) == rows, "the status: the screen's last two rows"


def test_select_opens_a_die_next_changes_a_field_select_goes_on_and_the_edit_ends_on_the_next_die():
    state = flicked()
    draft = Draft((DraftDie("red", None, 2, doubt="face: blurred"), DraftDie("green", 5, 1)))
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.NEXT, Press.NEXT, Press.NEXT)
    assert draft.editing == "face" and draft.dice[0].face == 3 and draft.dice[0].doubt == ""
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.NEXT, Press.SELECT, Press.NEXT, Press.NEXT, cursor=cursor)
    assert draft.editing == "level" and draft.dice[0].colour == "green" and draft.dice[0].level == 4
    draft, cursor, _ = run(state, draft, Press.SELECT, cursor=cursor)
    assert draft.editing is None and cursor == 1, "done with this die: on to the next"
    assert draft.dice[0].die() == Die("green", 3, 4)


def test_stop_goes_back_a_field_and_on_the_face_leaves_the_die():
    state = flicked()
    draft = Draft((DraftDie("red", 4, 2),))
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.SELECT, Press.STOP)
    assert draft.editing == "face"
    draft, cursor, _ = run(state, draft, Press.STOP, cursor=cursor)
    assert draft.editing is None and draft.dice == (DraftDie("red", 4, 2),)


def test_a_face_past_six_takes_the_die_off_the_reading():
    state = flicked()
    draft = Draft((DraftDie("red", 5, 2), DraftDie("green", 5, 1)))
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.NEXT, Press.NEXT, Press.SELECT, Press.SELECT, Press.SELECT)
    assert draft.dice == (DraftDie("green", 5, 1),) and cursor == 0, "the die is gone; the cursor is on the next"


def test_the_entry_after_the_dice_adds_one_the_camera_missed():
    state = flicked()
    draft = Draft((DraftDie("red", 5, 2),))
    draft, cursor, _ = run(state, draft, Press.NEXT, Press.SELECT)
    assert len(draft.dice) == 2 and draft.editing == "face" and cursor == 1
    assert draft.dice[1] == DraftDie("green", 1, 1, by_hand=True), "the last flicker's colour, face 1, the 1x level"
    draft, cursor, _ = run(state, draft, Press.NEXT, Press.SELECT, Press.NEXT, Press.SELECT, Press.SELECT, cursor=cursor)
    assert draft.dice[1].die() == Die("red", 2, 1) and draft.editing is None


def test_the_multiplier_card_is_a_field_when_the_game_has_multiplier_cards():
    state = flicked(multiplier_cards=2)
    draft = Draft((DraftDie("red", 4, 1),))
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.SELECT, Press.SELECT, Press.SELECT, Press.NEXT)
    assert draft.editing == "card" and draft.dice[0].card == 1
    draft, cursor, action = run(state, draft, Press.SELECT, Press.NEXT, Press.SELECT, Press.SELECT, cursor=cursor)
    assert isinstance(action, Play) and action.move == Tally((Die("red", 4, 1, 1),)), "counted after the unseen warning"


def test_counting_is_refused_while_unsure_or_with_more_dice_of_a_colour_than_landed():
    state = flicked(stayed=5)  # red flicks first: three of red's stayed on the launch pad, one landed
    draft = Draft((DraftDie("red", None, 2), DraftDie("green", 5, 1)))
    assert run(state, draft, Press.STOP, Press.SELECT)[2] == Say("1 unsure: fix ?s")
    draft = Draft((DraftDie("red", 2, 2), DraftDie("red", 5, 1)))
    assert run(state, draft, Press.STOP, Press.SELECT)[2] == Say("2 red, 1 landed")


def test_dice_not_seen_are_warned_of_once_then_the_round_counts():
    state = flicked()
    draft = Draft((DraftDie("red", 2, 2),), off_board=("green",))
    draft, cursor, action = run(state, draft, Press.STOP, Press.SELECT)
    assert isinstance(action, Scratch) and action.status == "6 dice unseen:SELECT" and draft.warned
    _, _, action = run(state, draft, Press.SELECT, cursor=cursor)
    assert action == Play(Tally((Die("red", 2, 2),)))


def test_roll_reads_the_board_again():
    assert run(flicked(), Draft(()), Press.ROLL)[2] == Look()


# --- undo, resume, options --------------------------------------------------------------------


def test_undo_takes_the_last_flick_back_and_the_reading_with_it(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4)], seed=5)
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    assert isinstance(companion.screen, TallyScreen)
    press(companion, Press.UNDO)
    assert isinstance(companion.screen, FlickScreen) and companion._scratch is None
    assert companion.screen.status == "undone: flick"


def test_a_game_resumes_at_the_board_reading_and_reads_the_board_as_it_lies(tmp_path):
    image, _ = board_picture(tmp_path, [("green", 6)], seed=5)
    journal = Journal(tmp_path / "journal.sqlite")
    companion = started(tmp_path, journal=journal)
    round_flicked(companion)
    journal.close()
    journal = Journal(tmp_path / "journal.sqlite")
    again = Companion(dummy_display(), GameSetup(NAMES, kind="tumblin"), journal=journal, data_dir=tmp_path)
    press(again, Press.SELECT)  # the resume screen
    show(again, image)
    assert isinstance(again.screen, TallyScreen) and [d.face for d in again.screen.dice] == [6]
    journal.close()


def test_options_in_the_configuration_are_checked():
    config = parse_config({"game": {"kind": "tumblin", "players": ["Ann", "Bob", "Cy", "Di"], "target": 200,
                                    "scoring": "add", "teams": True, "mines": 3, "mine_kind": "trip",
                                    "cards": "breed+multiplier"}})
    variant = config.game.new_state().variant
    assert (variant.target, variant.scoring.value, variant.teams, variant.mines, variant.mine_kind.value) == (
        200, "add", ((0, 2), (1, 3)), 3, "trip")
    assert (variant.breed_cards, variant.multiplier_cards) == (1, 1)
    assert config.game.describe() == (
        "Tumblin' Dice, to 200 points, face + level, teams, 3 trip mines, 1 breed card, 1 multiplier card")
    for key, value, says in (("target", -5, "a score above 0"), ("scoring", "times", '"multiply" or "add"'),
                             ("cards", "three", "none, breed"), ("palette", {"red": "crimson"}, "2 to 4 colours")):
        with pytest.raises(ConfigError, match=says):
            parse_config({"game": {"kind": "tumblin", key: value}})


def test_the_palette_names_the_seats_colours_and_their_references():
    options = {"palette": {"yellow": "#e0c020", "white": "#f0f0f0", "pink": "#e080a0"}}
    state = GAME.new_game(2, **setup.variant_of(options))
    assert state.variant.colours == ("yellow", "white")
    assert setup.palette_of(options, state.variant.colours).colours == (("yellow", (32, 192, 224)), ("white", (240, 240, 240)))


# --- a whole game -----------------------------------------------------------------------------


def test_the_demo_plays_four_rounds_headless_and_scores_the_board_as_it_lies(tmp_path, capsys):
    from firmware.cli import main

    assert main(["demo", "--game", "tumblin", "--auto", "--seed", "1", "--data", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.strip().splitlines()
    last = printed[-1]
    assert "red 4 landed on 0x: it lies there until the count sets it aside" in printed, "where each flick landed"
    journal = Journal(tmp_path / JOURNAL_NAME)
    record = journal.games()[-1]
    events = journal.events(record.id)
    tallies = [e for e in events if e.startswith("tally")]
    assert len(tallies) >= 4 and record.winner is not None
    assert last.startswith(f"{record.setup.names[record.winner]} wins in round ")
    journal.close()


# --- what the players entered is never lost ------------------------------------------------------


def test_a_reading_coming_after_the_players_began_by_hand_does_not_replace_their_dice(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4)], seed=5)
    companion = started(tmp_path)
    round_flicked(companion)
    press(companion, Press.SELECT, Press.SELECT, Press.NEXT)  # by hand: add a die, face 2
    show(companion, image)
    assert [d.face for d in companion._scratch.dice] == [2] and companion._scratch.editing == "face"


def test_reading_the_board_again_keeps_the_dice_corrected_by_hand(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4), ("green", 2)], seed=5)
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    first = companion._scratch.dice[0]
    press(companion, Press.SELECT, Press.NEXT, Press.SELECT, Press.SELECT, Press.SELECT)  # face + 1
    press(companion, Press.NEXT, Press.SELECT, Press.SELECT, Press.SELECT, Press.SELECT)  # add green 1 on 1x
    press(companion, Press.ROLL)
    show(companion, image)
    dice = companion._scratch.dice
    assert len(dice) == 3 and (dice[0].face, dice[0].by_hand) == (first.face % 6 + 1, True)
    assert any(d.centre is None and d.by_hand for d in dice), "the die added by hand is kept"


def test_stop_on_a_die_just_added_takes_it_back():
    state = flicked()
    draft = Draft((DraftDie("red", 5, 2),))
    draft, cursor, _ = run(state, draft, Press.NEXT, Press.SELECT, Press.STOP)
    assert draft.dice == (DraftDie("red", 5, 2),) and draft.editing is None


def test_a_die_given_another_colour_moves_to_its_row_and_the_cursor_goes_past_it():
    state = flicked()
    draft = Draft((DraftDie("red", 5, 2), DraftDie("red", 3, 1), DraftDie("green", 1, 1)))
    draft, cursor, _ = run(state, draft, Press.SELECT, Press.SELECT, Press.NEXT, Press.SELECT, Press.SELECT)
    assert [d.colour for d in draft.dice] == ["red", "green", "green"] and draft.dice[1].face == 5
    assert cursor == 2, "on the die after it in its new row"


def test_undoing_the_count_gives_its_dice_back_to_check_again(tmp_path):
    image, _ = board_picture(tmp_path, [("red", 4), ("green", 6)], seed=7)  # both below the 0x level
    companion = started(tmp_path)
    round_flicked(companion)
    show(companion, image)
    press(companion, *[Press.NEXT] * 3, Press.SELECT, Press.SELECT)
    counted = companion.state.history[0]
    press(companion, Press.UNDO)
    screen = companion.screen
    assert isinstance(screen, TallyScreen) and sorted(d.face for d in screen.dice) == [4, 6]
    show(companion, np.zeros_like(image))  # the players cleared the board: it is not read again
    press(companion, *[Press.NEXT] * 3, Press.SELECT, Press.SELECT)
    assert companion.state.history[0] == counted


def test_a_set_up_the_rules_refuse_is_said_and_nothing_is_journaled(tmp_path):
    few = GameSetup(("Ann", "Bob", "Cy"), kind="tumblin", options={"palette": {"red": "#c82828", "green": "#289632"}})
    journal = Journal(tmp_path / JOURNAL_NAME)
    companion = Companion(dummy_display(), few, journal=journal, data_dir=tmp_path)
    for _ in range(companion._menu.start_field + 1):
        press(companion, Press.SELECT)
    assert companion.screen.title == "Cannot start" and companion.state is None
    assert journal.games() == []
    journal.close()


def test_a_camera_fault_does_not_hide_what_the_count_says(tmp_path):
    from firmware.core.events import CameraFailed

    companion = started(tmp_path)
    round_flicked(companion)
    companion.handle(CameraFailed("unplugged"))
    assert companion.screen.status == "camera:SELECT=by hand", "nothing else said: the camera's trouble shows"
    press(companion, Press.SELECT)  # the dice by hand: one die, face unknown (a test's shortcut to it)
    companion._scratch = Draft((DraftDie("red", None, 1),))
    press(companion, Press.NEXT, Press.NEXT, Press.SELECT)
    assert companion.screen.status == "1 unsure: fix ?s"


def test_without_a_camera_the_dice_are_entered_by_hand_and_no_standing_is_offered(tmp_path):
    companion = Companion(dummy_display(), GameSetup(NAMES, kind="tumblin"), data_dir=tmp_path, has_camera=False)
    for _ in range(companion._menu.start_field + 1):
        press(companion, Press.SELECT)
    assert "standing" not in companion.screen.entries
    round_flicked(companion)
    assert companion.screen.camera is False
    press(companion, Press.ROLL)
    assert isinstance(companion.screen, TallyScreen) and companion.screen.dice == (), "ROLL, like SELECT: by hand"


def test_the_options_words_count_in_the_right_number():
    """"1 pressure mines", "breed+breed": a count in the wrong number, a configuration's code."""
    assert setup.summary({"mines": 1, "cards": "breed+breed"}) == "4 rounds, 1 pressure mine, 2 breed cards"
