"""Get Your Counters to the Top at the table: the game chosen on the set-up screen, the handicap,
five dice read after every throw (kept ones stay in the tray), options from a list, undo, resume,
dice by hand, and its screens against their reference PNGs (tests/golden/counters-*.png)."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from engine.counters import GAME, Keep, Phase, State, Take
from firmware.drawing.screens import ManualEntryScreen, NoticeScreen, draw
from firmware.games.counters.choices import listed
from firmware.games.counters.labels import move_label
from firmware.games.counters.screens import (
    BoardScreen,
    BotHandicapScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
)
from firmware.core.game_setup import GameSetup
from firmware.journal.journal import Journal
from firmware.table.companion import Companion
from counters_positions import plain_board, position
from golden import assert_matches_golden, watch_for_cut_text
from firmware.games.counters import screens as counters_screens
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from table_helpers import NAMES, press, recorded_demo, show_frames, start_game

LONG_NAMES = ("Margaret", "Benedikt", "Caroline", "Dominika")


def counters_state(*moves: str, players: int = 2) -> State:
    state = GAME.new_game(players)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state


def started(journal: Journal | None = None) -> Companion:
    """A two-player game of Counters chosen on the set-up screen, Bob's handicap in column 2."""
    companion = Companion(dummy_display(), GameSetup(NAMES, kind="counters"), journal=journal)
    if companion.state is None:
        press(companion, Press.SELECT, Press.SELECT, Press.SELECT)
        assert isinstance(companion.screen, MovesScreen) and companion.state.phase is Phase.HANDICAP
        press(companion, Press.NEXT, Press.SELECT)  # the second entry: column 2
    return companion


@pytest.fixture
def tray() -> SyntheticCamera:
    return SyntheticCamera(seed=5)


def test_the_set_up_screen_offers_the_game_and_starts_with_the_handicap():
    companion = Companion(dummy_display(), GameSetup(NAMES))
    press(companion, Press.NEXT)
    assert companion.screen.rows == (("Game", "Counters to Top"), ("Players", "2"))
    companion = started()
    assert companion.state.positions[1] == (0, 1, 0, 0, 0, 0, 0)
    assert isinstance(companion.screen, ThrowScreen) and companion.journal.games()[0].setup.kind == "counters"


def test_the_last_game_played_is_offered_first(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    started(journal)
    journal.close()
    again = Companion(dummy_display(), GameSetup(NAMES), journal=Journal(tmp_path / "j.sqlite3"))
    press(again, Press.SELECT, Press.STOP)  # play on, then abandon? no: the resume screen keeps it
    assert again.setup is not None and again.setup.kind == "counters"


def test_a_rethrow_keeps_what_stayed_in_the_tray_and_counts_the_throws(tray):
    companion = started()
    tray.place((2, 2, 4, 4, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert isinstance(companion.screen, DiceScreen) and companion.state.throws == 1
    assert companion.screen.best_now == "2P 2+4"
    tray.throw(1, keep=(2, 2, 4, 4))
    show_frames(companion, tray)  # not asked: a rethrow is read only when ROLL asks
    assert companion.state.throws == 1
    tray.place((2, 2, 4, 4, 4))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert companion.journal.events(1)[-2:] == ["keep 2-2-4-4", "roll 4"] and companion.state.throws == 2


def test_a_declared_keep_needs_those_dice_in_the_tray(tray):
    companion = started()
    tray.place((3, 3, 3, 5, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    keep = listed(companion.state).index(Keep((3, 3, 3)))
    press(companion, Press.SELECT, *(Press.NEXT,) * keep, Press.SELECT)
    assert isinstance(companion.screen, ThrowScreen) and companion.state.kept == (3, 3, 3)
    tray.place((1, 2, 3, 4, 6))  # a kept 3 was thrown too
    show_frames(companion, tray)
    assert isinstance(companion.screen, NoticeScreen) and companion.screen.title == "Dice do not fit"
    assert companion.state.kept == (3, 3, 3) and companion.state.throws == 1
    press(companion, Press.SELECT)
    tray.place((3, 3, 3, 3, 1))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert companion.state.dice == (1, 3, 3, 3, 3) and companion.journal.events(1)[-1] == "roll 1-3"


def test_an_option_is_taken_from_the_list_and_the_turn_passes(tray):
    companion = started()
    tray.place((2, 2, 2, 4, 4))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, MovesScreen) and companion.screen.cursor == 0
    assert isinstance(companion.screen.moves[0], Take) and companion.screen.moves[0].option.text() == "full-house 2+4"
    press(companion, Press.STOP)
    assert isinstance(companion.screen, DiceScreen)
    press(companion, Press.SELECT, Press.SELECT)
    assert companion.state.positions[0] == (0, 2, 0, 1, 0, 0, 0) and companion.state.current == 1
    assert isinstance(companion.screen, TurnOverScreen) and companion.screen.took == "FH 2+4"


def test_undo_steps_back_across_the_derived_keep(tray):
    companion = started()
    tray.place((2, 2, 4, 4, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    tray.place((2, 2, 4, 4, 4))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    press(companion, Press.UNDO)
    assert companion.state.phase is Phase.THROW and companion.state.kept == (2, 2, 4, 4)
    press(companion, Press.UNDO)
    assert companion.state.dice == (2, 2, 4, 4, 6) and companion.state.throws == 1


def test_five_dice_by_hand():
    companion = Companion(dummy_display(), GameSetup(NAMES, kind="counters"), has_camera=False)
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT, Press.SELECT)
    press(companion, Press.ROLL)
    assert companion.screen == ManualEntryScreen("Ann", (1, 1, 1, 1, 1), 0)
    for value in (6, 6, 5, 5, 5):
        press(companion, *(Press.NEXT,) * (value - 1), Press.SELECT)
    assert companion.state.dice == (5, 5, 5, 6, 6)


def test_a_game_resumes_with_its_kind_and_board(tmp_path, tray):
    first = started(Journal(tmp_path / "j.sqlite3"))
    tray.place((1, 1, 5, 5, 5))
    press(first, Press.ROLL)
    show_frames(first, tray)
    first.journal.close()
    second = Companion(dummy_display(), GameSetup(NAMES), journal=Journal(tmp_path / "j.sqlite3"))
    assert second.setup.kind == "counters" and second.state == first.state
    assert second.screen.doing == "Ann: after throw 1"
    press(second, Press.SELECT)
    assert isinstance(second.screen, DiceScreen)


MID = counters_state("handicap 2", "roll 2-2-4-4-6", "take two-pairs 2+4", "roll 3-3-3-5-6", "take triple 3",
                     "roll 1-1-1-1-5", "take four 1")
DICE = counters_state("handicap 2", "roll 2-2-4-4-6")
FOUR = counters_state("handicap 2", "handicap 1-3", "handicap 4-5-S", players=4)
THREE = counters_state("handicap 2", "handicap 1-5", players=3)
KEEP_4 = listed(DICE).index(Keep((2, 4, 4, 6)))
WILD = position(board=plain_board(**{"4": {"blue_stars": [3]}}), squares={0: {"4": 3}}, dice=(2, 2, 3, 3, 3))
ROCKETS = GAME.apply(position(board=plain_board(**{"4": {"rockets": [2]}, "6": {"rockets": [1]}}), dice=(4, 4, 4, 6, 6)),
                     GAME.parse_move("take full-house 4+6"))
WON = State(MID.board, ((7, 8, 9, 9, 8, 1, 0), (0, 1, 0, 0, 0, 0, 0)), phase=Phase.OVER, turn=31, winner=0)

SCREENS = {
    "throw": ThrowScreen(counters_state("handicap 2"), NAMES),
    "throw-kept": ThrowScreen(counters_state("handicap 2", "roll 2-2-4-4-6", "keep 2-2"), NAMES),
    "dice": DiceScreen(DICE, NAMES, "2P 2+4", "keep 2244", (("FH", 0.31), ("2P", 0.9))),
    "dice-wild": DiceScreen(WILD, NAMES, "FH 3>1+2", wild="wild: 3s to col 1"),  # without hints
    "moves": MovesScreen(DICE, NAMES, listed(DICE), 2, 0),
    "moves-keep": MovesScreen(DICE, NAMES, listed(DICE), KEEP_4, KEEP_4),  # a keep of four, starred
    "moves-wild": MovesScreen(WILD, NAMES, listed(WILD), 1, 0),  # a wild card said in words under the list
    "rockets": MovesScreen(ROCKETS, NAMES, listed(ROCKETS), 1),  # the first of two rocket squares
    "handicap": MovesScreen(counters_state(players=4), LONG_NAMES, listed(counters_state(players=4)), 0),
    "turn-over": TurnOverScreen(MID, NAMES, 0, "4K 1", (0,)),
    "board": BoardScreen(MID, NAMES),
    "bot-handicap": BotHandicapScreen(THREE, ("You", "Advisor", "Advisor2"), ((1, "col 2"), (2, "cols 1 5"))),
    "bot-handicap-three": BotHandicapScreen(FOUR, LONG_NAMES, ((1, "col 2"), (2, "cols 1 3"), (3, "cols 4 5 S"))),
    "board-four": BoardScreen(FOUR, LONG_NAMES),
    "winner": WinnerScreen(WON, NAMES),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_reference(name, update_golden):
    assert_matches_golden(draw(SCREENS[name]), f"counters-{name}", update_golden)


@pytest.mark.parametrize("names", [LONG_NAMES, ("Großmann", "Straßner", "Ærøskøb", "Ĳsbrand")])
def test_names_of_eight_letters_fit_every_screen(monkeypatch, names):
    """The board's legend draws names in the 3x5 font: "Großmann" lost its last letter there."""
    cut = watch_for_cut_text(monkeypatch, counters_screens)
    state = counters_state("handicap 2", "handicap 1-3", "handicap 4-5-S", "roll 2-2-2-4-4", players=4)
    for screen in (
        BoardScreen(state, names), ThrowScreen(FOUR, names), DiceScreen(state, LONG_NAMES, "FH 2+4", "keep 2 2 2", (("FH", 0.5),)),
        MovesScreen(state, LONG_NAMES, listed(state), 3, 1), TurnOverScreen(FOUR, LONG_NAMES, 3, "FH 3>1+2>4", (0, 6)),
        WinnerScreen(State(WON.board, (WON.positions[0],) * 4, phase=Phase.OVER, turn=9, winner=3), LONG_NAMES),
    ):
        draw(screen)
    assert cut == []


def thrown_with_hints(tray) -> Companion:
    """A game of Counters with hints, past the handicap, its first throw 2 2 4 4 6 read."""
    companion = Companion(dummy_display(), GameSetup(NAMES, hints=True, kind="counters"))
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT, Press.NEXT, Press.SELECT)
    tray.place((2, 2, 4, 4, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    return companion


def test_hints_show_the_advisors_tip_with_short_kinds(tray):
    screen = thrown_with_hints(tray).screen
    assert isinstance(screen, DiceScreen) and screen.tip
    assert all(name in ("pair", "3K", "4K", "5K", "2P", "FH", "sm", "big") and 0 <= p <= 1 for name, p in screen.chances)


def test_with_hints_the_list_of_choices_opens_on_the_advisors_pick(tray):
    """As in Can't Stop and Columns: no NEXT presses to reach what the advisor would do."""
    from firmware.games.counters.table import _advised

    companion = thrown_with_hints(tray)
    press(companion, Press.SELECT)  # from the dice to the list
    screen = companion.screen
    assert isinstance(screen, MovesScreen) and screen.moves[screen.cursor] == _advised(companion.state)
    assert screen.cursor == screen.advice and screen.moves == listed(companion.state), "options by squares, then keeps"


def test_demo_auto_plays_a_whole_game_of_counters_headless(capsys, tmp_path):
    last, frames = recorded_demo("counters", 2, tmp_path, capsys)
    assert last == "Advisor wins in round 15 (29 turns)" and frames > 100, "every screen is printed"


def test_the_tip_shows_only_whole_chances():
    """It was cut mid-figure: "TIP KEEP 2 2 3K 32% 4K 21% 2P 16"."""
    from firmware.drawing.tiny_font import tiny_width
    from firmware.games.counters.screens import tip_line

    line = tip_line("keep 22", (("3K", 0.32), ("4K", 0.21), ("2P", 0.16), ("FH", 0.05)))
    assert line == "tip keep 22 odds 3K 32% 4K 21%" and tiny_width(line) <= 127  # a third would not fit whole
    longer = tip_line("keep 2244", (("3K", 0.32), ("4K", 0.21), ("2P", 0.28), ("pair", 0.9)))
    assert longer.endswith("%") and tiny_width(longer) <= 127


def test_a_bot_s_handicap_before_anyone_threw_is_called_a_handicap():
    """"Advisor (B) / up 2 / Next: You (A)" before a die was thrown left players puzzled."""
    companion = Companion(dummy_display(), GameSetup(("You", "Advisor"), bots=("Advisor",), kind="counters"))
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT)  # the game, its players, start
    screen = companion.screen
    assert isinstance(screen, BotHandicapScreen) and [bot for bot, _ in screen.moved] == [1], screen
    assert screen.moved[0][1].startswith("col ")


@pytest.mark.parametrize("names", [("You", "Advisor", "Advisor2"), LONG_NAMES])
def test_each_bot_s_handicap_is_one_line_under_its_own_name(monkeypatch, names):
    """With three players both bots' handicaps were put under the first bot's name, on one line
    cut from the left ("Advisor (B) / up 2, handicap: up 1", Advisor2's "1-5" never named)."""
    cut = watch_for_cut_text(monkeypatch, counters_screens)
    companion = Companion(dummy_display(), GameSetup(names, bots=names[1:], kind="counters"))
    start_game(companion)
    screen = companion.screen
    assert isinstance(screen, BotHandicapScreen) and [bot for bot, _ in screen.moved] == list(range(1, len(names)))
    handicaps = [GAME.parse_move(event) for event in companion.journal.events(1)]
    assert [columns for _, columns in screen.moved] == [move_label(move) for move in handicaps]
    draw(screen)
    assert cut == []


def test_a_bot_at_the_buttons_walks_each_rocket_list_once_straight_to_its_choice():
    """``demo --seed 3`` showed Greedy walk the rocket list twice (screens 151-163): two rockets
    were due (its full house's triple and pair each landed on one) and the two lists looked alike."""
    from firmware.core.table_game import View
    from firmware.games.counters.autoplay import CountersSeats
    from firmware.games.counters.table import TABLE

    seats = CountersSeats.demo(2, seed=3)
    board = plain_board(**{"4": {"rockets": [2]}, "6": {"rockets": [1]}})
    state = GAME.apply(position(board=board, current=1, dice=(4, 4, 4, 6, 6)), GAME.parse_move("take full-house 4+6"))
    lists = []
    while state.phase is Phase.ROCKET:
        screen = TABLE.screen(state, View(NAMES))
        choice = seats.bots[state.current].choose(state)
        assert seats.presses_for(screen).presses == (*(Press.NEXT,) * listed(state).index(choice), Press.SELECT)
        lists.append(draw(screen))
        state = GAME.apply(state, choice)
    assert len(lists) == 2 and ImageChops.difference(*lists).getbbox() is not None, "the second list looks like the first"


def test_bots_at_the_buttons_of_a_hinted_seat_make_the_move_they_chose(tray):
    """A game journaled with hints (the keyboard demo) and resumed by ``demo --auto`` has bots at the
    buttons of the hinted seat, where the list opens on the advisor's pick: they walked the list
    as if it did not, and made another move than they chose."""
    from engine.counters.bots import GreedyBot
    from firmware.games.counters.autoplay import CountersSeats

    companion = thrown_with_hints(tray)
    seats = CountersSeats((GreedyBot(), GreedyBot()), NAMES)
    chosen = seats.bots[0].choose(companion.state)
    press(companion, *seats.presses_for(companion.screen).presses)  # from the dice to the list
    assert isinstance(companion.screen, MovesScreen) and companion.screen.moves[0] != chosen, "the order matters"
    press(companion, *seats.presses_for(companion.screen).presses)
    assert companion.journal.events(1)[-1] == str(chosen)


def test_a_missing_board_file_is_said_in_one_plain_line(tmp_path):
    """It said the path and the errno twice: "... {path}: [Errno 2] No such file or directory: '{path}'"."""
    from engine.counters.board import BoardError
    from firmware.games.counters.setup import OPTIONS

    with pytest.raises(BoardError) as refused:
        OPTIONS[0].parse("gone.toml", tmp_path)
    assert str(refused.value) == f"cannot read the board file {tmp_path / 'gone.toml'}: no such file or directory"
    with pytest.raises(BoardError, match=r"board file .*: it is a folder$"):
        OPTIONS[0].parse(".", tmp_path)
