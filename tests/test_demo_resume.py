"""A demo on a data folder that holds an unfinished game: the game resumes as it was set up (its
players and its kind, whatever --players and --game ask), says so in one line, and goes on with
fresh throws on a simulated table rebuilt from the journal."""

from __future__ import annotations

import io

from engine.tumblin import GAME as TUMBLIN
from firmware.core.game_setup import GameSetup
from firmware.games.tumblin.flicks import lying
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table.start import resumed_setup, play_demo
from hardware.camera import Toss


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
    from firmware.table.companion import Companion
    from firmware.table.start import SIMULATED_BOARD, remember_board, restore_table
    from hardware.board_camera import SyntheticBoardCamera
    from hardware.display import dummy_display

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
