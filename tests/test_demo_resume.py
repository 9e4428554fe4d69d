"""A demo on a data folder that holds an unfinished game: the game resumes as it was set up (its
players and its kind, whatever --players and --game ask), says so in one line, and goes on with
fresh throws on a simulated table rebuilt from the journal."""

from __future__ import annotations

import io

import pytest
from waiting import within_hang_s

from engine.tumblin import GAME as TUMBLIN
from firmware.core.autoplay import AutoPlayers
from firmware.core.catalogue import kinds, table_game
from firmware.core.events import ButtonEvent
from firmware.core.game_setup import GameSetup
from firmware.games.tumblin.flicks import lying
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table.companion import Companion
from firmware.table.start import resumed_setup, play_demo
from hardware.buttons import Press
from hardware.camera import Toss
from hardware.display import dummy_display


def unfinished(folder, setup: GameSetup, *moves: str) -> None:
    """A journal in ``folder`` whose last game, set up so, stopped after ``moves``."""
    journal = Journal(folder / JOURNAL_NAME)
    game = journal.start_game(setup)
    state = setup.new_state()
    for move in moves:
        state = setup.game.engine.apply(state, setup.game.engine.parse_move(move))
        journal.append(game, move, setup.game.progress(state))
    journal.close()


def test_a_game_of_three_resumes_with_its_three_seats_though_the_demo_asks_for_two(tmp_path):
    three = GameSetup(("Advisor", "Rule28", "Steady"), bots=("Rule28", "Steady"), kind="cant-stop")
    unfinished(tmp_path, three, "roll 1-2-3-5")
    out = io.StringIO()
    outcome = play_demo(GameSetup(("You", "Advisor"), bots=("Advisor",), kind="cant-stop"), 6, True, out=out,
                        data=tmp_path)
    assert outcome.over and outcome.winner in three.names
    first = out.getvalue().splitlines()[0]
    assert first == ("resuming the unfinished game of Can't Stop (Advisor, Rule28, Steady) journaled here: "
                     "it is played out first, as it was set up")


def test_another_game_kind_resumes_on_its_own_simulated_table(tmp_path):
    unfinished(tmp_path, GameSetup(("Ann", "Bob"), kind="tumblin"), "flick", "flick")
    out = io.StringIO()
    outcome = play_demo(GameSetup(kind="columns"), 6, True, out=out, data=tmp_path)
    assert outcome.over and "resuming the unfinished game of Tumblin' Dice (Ann, Bob)" in out.getvalue()
    assert "board not calibrated" not in out.getvalue()
    records = Journal(tmp_path / JOURNAL_NAME).games()
    assert [(r.setup.kind, r.status) for r in records] == [("tumblin", "finished")]


def test_aresumed_setup_demo_throws_afresh_instead_of_repeating_the_journaled_throws(tmp_path):
    """The simulated dice of a new game come from --seed; a resumed game's from the seed and the
    moves journaled, so they do not throw the seed's first throws again (nor those of another stop)."""
    setup = GameSetup(("Advisor", "Rule28"), bots=("Rule28",), kind="cant-stop")
    journal = Journal(tmp_path / "new.sqlite3")
    assert resumed_setup(journal, setup, 5, io.StringIO()) == (setup, 5, False)
    seeds = set()
    for moves in (("roll 1-2-3-5",), ("roll 1-2-3-5", "3+8")):
        folder = tmp_path / str(len(moves))
        folder.mkdir()
        unfinished(folder, setup, *moves)
        played, seed, resumed = resumed_setup(Journal(folder / JOURNAL_NAME), setup, 5, io.StringIO())
        assert played == setup and resumed
        seeds.add(seed)
    assert len(seeds) == 2 and 5 not in seeds


def test_aresumed_setup_tumblin_round_puts_the_dice_that_landed_back_on_the_board():
    state = TUMBLIN.new_game(2)
    for move in ("flick", "flick", "flick stayed", "flick"):
        state = TUMBLIN.apply(state, TUMBLIN.parse_move(move))
    assert lying(state) == (Toss(1, colour="red", new_round=True), Toss(2, colour="green"))
    assert lying(TUMBLIN.new_game(2)) == ()


def test_a_game_that_no_longer_replays_is_abandoned_and_the_demo_plays_the_game_asked_for(tmp_path):
    """It crashed in restore_table once (an AssertionError), for every game; the next start was clean."""
    import sqlite3

    unfinished(tmp_path, GameSetup(("Ann", "Bob"), kind="tumblin"), "flick", "flick")
    db = sqlite3.connect(tmp_path / JOURNAL_NAME)
    db.execute("UPDATE events SET event = 'tally red 9@9' WHERE seq = 2")
    db.commit()
    db.close()
    out = io.StringIO()
    outcome = play_demo(GameSetup(kind="columns"), 6, True, out=out, data=tmp_path)
    assert outcome.over and "resuming" not in out.getvalue()
    records = Journal(tmp_path / JOURNAL_NAME, read_only=True).games()
    assert [(r.setup.kind, r.status) for r in records] == [("tumblin", "abandoned"), ("columns", "finished")]


def test_a_resumed_tumblin_round_lays_the_landed_dice_back_where_they_lay(tmp_path):
    """They were flicked anew: red 16 / green 14 before Ctrl-C, 5 / 28 after."""
    from firmware.table.start import SIMULATED_BOARD, remember_board, restore_table
    from hardware.board_camera import SyntheticBoardCamera

    setup = GameSetup(("Ann", "Bob"), kind="tumblin")
    unfinished(tmp_path, setup, "flick", "flick")  # red's first die and green's landed
    before = SyntheticBoardCamera(3)
    before.toss(Toss(1, colour="red", new_round=True))
    before.toss(Toss(1, colour="green"))
    remember_board(tmp_path, 1, before.truth)
    companion = Companion(dummy_display(), setup, journal=Journal(tmp_path / JOURNAL_NAME))
    after = SyntheticBoardCamera(4)
    restore_table(companion, after, tmp_path)
    assert after.truth == before.truth, "as they lay"
    remember_board(tmp_path, 7, before.truth)  # another game's board: not this one's
    anew = SyntheticBoardCamera(4)
    restore_table(companion, anew, tmp_path)
    assert anew.truth != before.truth and sorted(d.colour for d in anew.truth) == ["green", "red"]
    (tmp_path / SIMULATED_BOARD).write_text("{damaged")
    restore_table(companion, SyntheticBoardCamera(4), tmp_path)  # thrown anew, no traceback
    companion.journal.close()


LEFT_IN_THE_ADVISORS_TURN = {  # a game set up at the keyboard (you against the advisor), left in its seat's turn
    "cant-stop": ("roll 2-3-4-5", "5+9", "stop", "roll 2-4-5-6", "6+11", "roll 4-4-5-6", "8+11", "roll 2-2-2-6", "8",
                  "roll 1-4-5-6", "11"),  # runners out: the advisor rolls on, the demo's Rule28 at that seat would stop
    "counters": ("handicap 2", "roll 1-1-1-2-3", "keep 2-3", "roll 2-3-5", "keep 2-3-3-5", "roll 1", "take pair 3",
                 "roll 4-4-5-6-6", "keep 6-6", "roll 3-4-5"),  # after its second throw
    "yacht": ("roll 1-1-1-2-3", "keep 1-1-3", "roll 3-6", "score full-house", "roll 1-2-5-5-5", "keep 5-5-5",
              "roll 2-6"),  # after its second roll
    "columns": ("R B4",),  # to place
}


@pytest.mark.parametrize("kind", [kind for kind in kinds() if table_game(kind).advised])
def test_a_game_left_in_the_advisors_turn_is_played_out_by_the_bots(kind, tmp_path):
    """The bots at the buttons only throw for a seat the companion plays: Can't Stop's stopped on the
    runners screen for ever (its bot pressed STOP, the table said "Advisor decides", nobody rolled)."""
    setup = GameSetup(("You", "Advisor"), bots=("Advisor",), hints=True, kind=kind)
    unfinished(tmp_path, setup, *LEFT_IN_THE_ADVISORS_TURN[kind])
    out = io.StringIO()
    outcome = within_hang_s(lambda: play_demo(GameSetup(table_game(kind).autoplayer(2, 1).names, kind=kind), 1, True,
                                              out=out, data=tmp_path))
    assert "stopped:" not in out.getvalue()
    assert outcome.over
    journal = Journal(tmp_path / JOURNAL_NAME, read_only=True)
    assert [(r.setup.names, r.setup.bots, r.status) for r in journal.games()] == [(setup.names, setup.bots, "finished")]
    journal.close()


def test_on_the_advisors_runners_screen_the_bots_throw_its_dice_where_their_own_bot_would_stop(tmp_path):
    setup = GameSetup(("You", "Advisor"), bots=("Advisor",), hints=True, kind="cant-stop")
    unfinished(tmp_path, setup, *LEFT_IN_THE_ADVISORS_TURN["cant-stop"])
    companion = Companion(dummy_display(), setup, journal=Journal(tmp_path / JOURNAL_NAME))
    companion.handle(ButtonEvent(Press.SELECT))  # past the resume screen
    pressed, thrown = [], []
    seats = table_game("cant-stop").autoplayer(2, 1)  # Rule28 at the advisor's seat would stop
    toss = lambda done: thrown.append(done) or ()  # noqa: E731  # the tray's dice are not looked at
    AutoPlayers(seats, pressed.append, toss, host=companion).on_screen(companion.screen)
    assert (pressed, thrown) == ([Press.ROLL], [Toss(4)])
    companion.journal.close()
