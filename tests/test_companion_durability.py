"""Never lose a game: resume after a restart, undo across turns, dice by hand, journal faults."""

from __future__ import annotations

import io

import sqlite3
import sys

import pytest

from engine.cant_stop import GAME, Phase
from firmware.cli import main
from firmware.core.events import CameraFailed
from firmware.core.game_setup import GameSetup
from firmware.core.statuses import CAMERA_TROUBLE
from firmware.drawing.screens import BadReadScreen, ManualEntryScreen, NoticeScreen, SetupScreen
from firmware.games.cant_stop.screens import ChoiceScreen, RollScreen
from firmware.journal.journal import ABANDONED, SCHEMA_VERSION, UNDO, Journal
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from table_helpers import NAMES, play, press, resume_screen, show_frames, start_game, state_after


@pytest.fixture
def tray() -> SyntheticCamera:
    return SyntheticCamera(seed=8)


def companion_on(path, **options) -> Companion:
    return Companion(dummy_display(), GameSetup(NAMES), journal=Journal(path), **options)


def test_a_restarted_companion_resumes_the_game_exactly_where_it_stood(tmp_path):
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    play(first, "roll 1-4-5-6", "6+10", "stop", "roll 2-2-3-3")
    before = first.state
    first.journal.close()  # as if the power went
    second = companion_on(tmp_path / "j.sqlite3")
    assert second.state == before and second.names == NAMES
    assert second.screen == resume_screen(before, NAMES)
    press(second, Press.SELECT)
    assert isinstance(second.screen, ChoiceScreen) and second.state.phase is Phase.CHOOSE


def test_the_players_may_abandon_the_resumed_game_and_it_stays_in_the_history(tmp_path):
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    play(first, "roll 1-4-5-6", "6+10")
    first.journal.close()
    second = companion_on(tmp_path / "j.sqlite3")
    press(second, Press.STOP)
    assert second.screen == resume_screen(second.state, NAMES, confirming=True), "one stray STOP only asks"
    press(second, Press.NEXT)
    assert second.screen == resume_screen(second.state, NAMES)
    press(second, Press.STOP, Press.STOP)
    assert isinstance(second.screen, SetupScreen) and second.state is None
    assert second.journal.games()[0].status == ABANDONED
    start_game(second)
    assert second.state == GAME.new_game(2) and len(second.journal.games()) == 2


def test_undo_steps_back_across_the_turn_boundary_and_is_journaled(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10", "stop")
    assert companion.state.current == 1
    press(companion, Press.UNDO)
    assert companion.state == state_after("roll 1-4-5-6", "6+10") and companion.screen.status == "undone: stop"
    press(companion, Press.UNDO)
    assert companion.state == state_after("roll 1-4-5-6") and isinstance(companion.screen, ChoiceScreen)
    press(companion, Press.UNDO, Press.UNDO)
    assert companion.state == GAME.new_game(2) and companion.screen.status == "nothing to undo"
    events = companion.journal.events(companion.game_id)
    assert events == ["roll 1-4-5-6", "6+10", "stop", UNDO, UNDO, UNDO]
    companion.journal.close()
    assert companion_on(tmp_path / "j.sqlite3").state == GAME.new_game(2), "the undos survive a restart"


def test_a_misread_roll_is_undone_and_the_same_dice_may_be_read_again(tmp_path, tray):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    tray.place((2, 3, 4, 5))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert companion.state.dice.dice == (2, 3, 4, 5)
    press(companion, Press.UNDO, Press.ROLL)  # "that is not what we rolled": undo, look again
    show_frames(companion, tray)
    assert companion.state.phase is Phase.CHOOSE and companion.state.dice.dice == (2, 3, 4, 5)


def test_dice_entered_by_hand_make_the_roll(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    press(companion, Press.SELECT)
    assert companion.screen == ManualEntryScreen(NAMES[companion.state.current], (1, 1, 1, 1), 0)
    press(companion, Press.NEXT, Press.NEXT, Press.SELECT)  # first die 3
    press(companion, Press.NEXT, Press.NEXT, Press.NEXT, Press.NEXT, Press.NEXT, Press.NEXT)  # 1 -> 6 -> 1 again
    press(companion, Press.NEXT, Press.NEXT, Press.SELECT)  # second die 3
    press(companion, Press.STOP)  # back to the second die
    assert companion.screen.index == 1 and companion.screen.values == (3, 3, 1, 1)
    press(companion, Press.SELECT, Press.NEXT, Press.NEXT, Press.NEXT, Press.SELECT, Press.SELECT)
    assert companion.state.dice.dice == (1, 3, 3, 4) and isinstance(companion.screen, ChoiceScreen)
    assert companion.journal.events(companion.game_id) == ["roll 1-3-3-4"]


def test_stop_on_the_first_die_cancels_the_entry(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    press(companion, Press.SELECT, Press.STOP)
    assert isinstance(companion.screen, RollScreen) and companion.state == GAME.new_game(2)


def test_without_a_camera_roll_opens_the_dice_entry(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3", has_camera=False)
    start_game(companion)
    press(companion, Press.ROLL)
    assert isinstance(companion.screen, ManualEntryScreen)


def test_a_bad_read_can_be_entered_by_hand(tmp_path, tray):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    tray.place((2, 5, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert isinstance(companion.screen, BadReadScreen)
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, ManualEntryScreen)


def test_a_failed_commit_is_rolled_back_and_the_next_move_can_be_saved(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    play(companion, "roll 1-4-5-6")
    db = companion.journal._db
    db.execute("CREATE TABLE guard (n INTEGER)")
    db.execute("CREATE TRIGGER refuse BEFORE INSERT ON events WHEN (SELECT count(*) FROM guard) = 0 "
               "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
    press(companion, Press.SELECT)
    assert not db.in_transaction, "a failed write leaves no transaction open"
    db.execute("INSERT INTO guard VALUES (1)")
    press(companion, Press.SELECT)
    assert companion.journal.events(companion.game_id) == ["roll 1-4-5-6", "5+11"]


def test_a_move_the_journal_cannot_save_does_not_happen(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    play(companion, "roll 1-4-5-6")
    companion.journal._db.execute("CREATE TRIGGER full BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    press(companion, Press.SELECT)
    assert companion.state == state_after("roll 1-4-5-6") and companion.screen.status == "NOT SAVED: try again"
    companion.journal._db.execute("DROP TRIGGER full")
    press(companion, Press.SELECT)
    assert companion.state == state_after("roll 1-4-5-6", "5+11")


def test_an_unreadable_journal_is_announced_and_a_fresh_one_used(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"\x00garbage" * 100)
    companion = companion_on(path)
    assert isinstance(companion.screen, NoticeScreen) and companion.screen.title == "Journal damaged"
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, SetupScreen)
    start_game(companion)
    assert companion.journal.games()[0].id == 1


def test_a_saved_game_that_does_not_replay_is_abandoned_with_a_message(tmp_path):
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    play(first, "roll 1-4-5-6")
    first.journal._db.execute("INSERT INTO events (game, seq, event, at) VALUES (1, 2, 'stop', 0)")
    first.journal.close()
    second = companion_on(tmp_path / "j.sqlite3")
    assert isinstance(second.screen, NoticeScreen) and second.screen.title == "Saved game broken"
    assert second.journal.games()[0].status == ABANDONED


def test_history_prints_games_and_each_players_record(tmp_path, capsys):
    companion = companion_on(tmp_path / "journal.sqlite3")
    start_game(companion)
    play(companion, "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1",
         "roll 6-6-6-6", "12+12", "roll 6-6-6-6", "12", "stop", "roll 1-1-1-1",
         "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3", "stop")
    press(companion, Press.SELECT)
    start_game(companion)
    companion.journal.abandon(companion.game_id)
    companion.journal.close()
    assert main(["history", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "== Can't Stop (cant-stop): 2 games"
    assert " Ann, Bob  Can't Stop, standard rules, 3 columns to win  finished  winner Ann  turns 5 " in lines[1]
    assert " abandoned  winner - " in lines[2]
    assert lines[3].split() == ["player", "games", "won", "abandoned", "win-rate"]
    assert lines[4].split() == ["Ann", "2", "1", "1", "100.0%"]
    assert lines[5].split() == ["Bob", "2", "0", "1", "0.0%"]


def test_history_without_a_journal_says_so(tmp_path, capsys):
    assert main(["history", "--data", str(tmp_path)]) == 2
    assert "no journal at" in capsys.readouterr().err


def test_a_newer_journal_stops_the_companion_with_a_message(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)  # keyboard buttons need a terminal
    Journal(tmp_path / "journal.sqlite3").close()
    newer = sqlite3.connect(tmp_path / "journal.sqlite3")
    newer.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    newer.close()
    config = tmp_path / "table.toml"
    config.write_text(
        f'[display]\ntype = "dummy"\n[camera]\nbackend = "none"\n[buttons]\nsource = "keyboard"\n[data]\ndir = "{tmp_path}"\n'
    )
    assert main(["run", "--config", str(config)]) == 2
    assert "written by a newer Dice Companion" in capsys.readouterr().err


def test_run_with_keyboard_buttons_and_no_terminal_says_so_and_fails(tmp_path, capsys, monkeypatch):
    """Under systemd there is no terminal: the keyboard would read end of input at once and quit
    with status 0, a silent restart loop."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    config = tmp_path / "table.toml"
    config.write_text(
        f'[display]\ntype = "dummy"\n[camera]\nbackend = "none"\n[buttons]\nsource = "keyboard"\n[data]\ndir = "{tmp_path}"\n'
    )
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and 'buttons.source = "keyboard"' in err and "needs a terminal" in err


def test_a_failing_camera_offers_the_dice_entry(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    companion.handle(CameraFailed("no USB camera at /dev/video0 (unplugged, or used by another program?)"))
    assert companion.screen.status == CAMERA_TROUBLE
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, ManualEntryScreen)


def test_after_a_resume_the_dice_lying_there_are_read_only_once_thrown(tmp_path, tray):
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    tray.place((1, 1, 1, 1))
    play(first, "roll 2-2-2-2", "4+4", "roll 3-3-3-3", "6+6", "roll 4-4-4-4", "8+8")
    press(first, Press.ROLL)
    show_frames(first, tray)
    assert first.state.current == 1, "Ann busted on 1-1-1-1"
    first.journal.close()
    second = companion_on(tmp_path / "j.sqlite3")
    assert second.screen == resume_screen(second.state, NAMES)
    press(second, Press.SELECT, Press.ROLL)
    show_frames(second, tray)  # Ann's bust dice still lie there: not Bob's roll
    assert second.state.phase is Phase.ROLL and second.screen.status == "throw the dice first"
    tray.place((1, 2, 3, 4))
    show_frames(second, tray)
    assert second.state.dice.dice == (1, 2, 3, 4) and second.state.current == 1
    assert second.screen.status == "", "the request was answered: it is not carried onto the next screen"


def test_after_a_resume_dice_thrown_before_roll_is_pressed_are_read_without_a_word(tmp_path, tray):
    """The demo throws and then presses ROLL, and a player at the table does the same: the press
    arrives before the camera's frames of the throw, which must not be answered "throw the dice first"."""
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    play(first, "roll 2-2-2-2", "4+4")
    first.journal.close()
    second = companion_on(tmp_path / "j.sqlite3")
    press(second, Press.SELECT)
    tray.place((1, 2, 3, 4))  # thrown; no frame of it seen yet
    press(second, Press.ROLL)
    assert second.screen.status == "reading dice..."
    show_frames(second, tray)
    assert second.state.dice.dice == (1, 2, 3, 4) and second.screen.status == ""


def test_undoing_a_choice_does_not_let_the_old_dice_count_again(tmp_path, tray):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    tray.place((2, 3, 4, 5))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    press(companion, Press.SELECT, Press.UNDO, Press.SELECT, Press.ROLL)
    show_frames(companion, tray)
    assert companion.state.phase is Phase.ROLL and companion.screen.status == "throw the dice first"


def test_undo_after_the_winning_stop_reopens_the_game(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    play(companion, "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1",
         "roll 6-6-6-6", "12+12", "roll 6-6-6-6", "12", "stop", "roll 1-1-1-1",
         "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3", "stop")
    assert companion.journal.games()[0].status == "finished"
    press(companion, Press.UNDO)
    assert companion.state.winner is None and isinstance(companion.screen, RollScreen)
    assert companion.journal.games()[0].status == "playing" and companion.journal.games()[0].winner is None


def test_undo_during_the_dice_entry_leaves_the_entry_only(tmp_path):
    companion = companion_on(tmp_path / "j.sqlite3")
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10")
    press(companion, Press.SELECT, Press.NEXT, Press.UNDO)
    assert isinstance(companion.screen, RollScreen) and companion.state == state_after("roll 1-4-5-6", "6+10")


def test_a_game_resumed_after_a_claim_shows_the_claim_made(tmp_path):
    first = companion_on(tmp_path / "j.sqlite3")
    start_game(first)
    play(first, "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop")
    first.journal.close()
    second = companion_on(tmp_path / "j.sqlite3")
    assert second.state.claimed_by(0) == (2,) and second.state.current == 1
    assert second.screen == resume_screen(second.state, NAMES)


def test_the_dice_lesson_with_keyboard_buttons_and_no_terminal_says_so_and_fails(tmp_path, capsys, monkeypatch):
    """It exited 0 without a word, as run once did."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    config = tmp_path / "table.toml"
    config.write_text(
        f'[display]\ntype = "dummy"\n[camera]\nbackend = "synthetic"\n[buttons]\nsource = "keyboard"\n[data]\ndir = "{tmp_path}"\n'
    )
    assert main(["calibrate", "--dice", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a terminal" in err


def test_the_dice_lesson_and_forgetting_together_are_refused_in_one_line(tmp_path, capsys):
    """It silently only forgot."""
    (tmp_path / "dice-examples.npz").write_bytes(b"kept")
    assert main(["calibrate", "--dice", "--forget", "--config", str(tmp_path / "none.toml")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "run --forget, then --dice" in err
    assert (tmp_path / "dice-examples.npz").read_bytes() == b"kept"
