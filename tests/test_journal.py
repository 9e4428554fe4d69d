"""The SQLite journal: events committed in order, replayed with undos, bad files kept aside."""

from __future__ import annotations

import sqlite3

import pytest

from engine.cant_stop import GAME, Phase
from engine.errors import EngineError
from firmware.core.game_setup import GameSetup
from firmware.journal.journal import ABANDONED, FINISHED, UNDO, Journal, JournalError, replay
from table_helpers import NAMES, progress, state_after

JOURNALED = GameSetup(NAMES, options=GameSetup(NAMES).game_options())  # the journal keeps every option of the game


def journal_with(path, *events: str) -> tuple[Journal, int]:
    """A game of Can't Stop journaled with ``events``; the game before it, if left unfinished, is
    abandoned first, as at the table (only the last game can be unfinished)."""
    journal = Journal(path)
    if (unfinished := journal.unfinished()) is not None:
        journal.abandon(unfinished.id)
    game = journal.start_game(GameSetup(NAMES))
    played: list[str] = []
    for event in events:
        played.append(event)
        record = journal.unfinished() or journal.games()[-1]
        journal.append(game, event, progress(replay(record, played)[0]))
    return journal, game


def test_events_are_kept_in_order_and_the_state_is_their_replay(tmp_path):
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6", "6+10", "stop")
    journal.close()
    again = Journal(tmp_path / "j.sqlite3")
    record = again.unfinished()
    assert record is not None and record.id == game and record.setup == JOURNALED
    assert again.events(game) == ["roll 1-4-5-6", "6+10", "stop"]
    assert replay(record, again.events(game))[0] == state_after("roll 1-4-5-6", "6+10", "stop")
    assert record.turns == 2


def test_undo_events_remove_the_moves_before_them_across_turns(tmp_path):
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6", "6+10", "stop", UNDO, UNDO)
    state, standing = replay(journal.unfinished(), journal.events(game))
    assert state == state_after("roll 1-4-5-6") and state.phase is Phase.CHOOSE
    assert [GAME.move_text(m) for m in standing] == ["roll 1-4-5-6"]


def test_a_won_game_is_finished_with_its_winner(tmp_path):
    moves = ("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1",
             "roll 6-6-6-6", "12+12", "roll 6-6-6-6", "12", "stop", "roll 1-1-1-1",
             "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3", "stop")
    journal, game = journal_with(tmp_path / "j.sqlite3", *moves)
    record = journal.games()[0]
    assert record.status == FINISHED and record.winner == 0 and record.ended is not None
    assert journal.unfinished() is None


def test_abandoning_keeps_the_game_in_the_history(tmp_path):
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6")
    journal.abandon(game)
    assert journal.unfinished() is None and journal.games()[0].status == ABANDONED
    assert journal.events(game) == ["roll 1-4-5-6"]


def test_an_unreadable_file_is_kept_aside_untouched_and_a_fresh_journal_started(tmp_path):
    path = tmp_path / "journal.sqlite3"
    garbage = b"this is not a database, whatever it once was" * 50
    path.write_bytes(garbage)
    journal = Journal(path)
    assert journal.moved_aside is not None and journal.moved_aside.read_bytes() == garbage
    assert journal.moved_aside.name.startswith("journal.sqlite3.unreadable-")
    assert journal.games() == [] and journal.start_game(GameSetup(NAMES)) == 1


def test_another_programs_database_is_kept_aside_too(tmp_path):
    path = tmp_path / "journal.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE photos (name TEXT)")
    other.commit()
    other.close()
    journal = Journal(path)
    assert journal.moved_aside is not None and journal.games() == []


def test_a_journal_from_a_newer_version_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    newer = sqlite3.connect(path)
    newer.execute("PRAGMA user_version=7")
    newer.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="written by a newer Dice Companion .journal version 7"):
        Journal(path)
    assert path.read_bytes() == before and not list(tmp_path.glob("*.unreadable-*"))


def test_a_journal_that_cannot_be_opened_is_not_taken_for_a_damaged_one(tmp_path):
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(tmp_path / "no such folder" / "journal.sqlite3")


def test_a_hand_edited_journal_that_does_not_replay_is_an_engine_error(tmp_path):
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6")
    journal._db.execute("INSERT INTO events (game, seq, event, at) VALUES (?, 2, 'stop', 0)", (game,))  # a move the rules refuse
    with pytest.raises(EngineError):
        replay(journal.unfinished(), journal.events(game))


def test_a_damaged_journal_with_its_wal_is_kept_aside_byte_for_byte(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with(path, "roll 1-4-5-6")[0].close()
    content = bytearray(path.read_bytes())
    content[:16] = b"scribbled over!!"  # the header: no longer a database
    path.write_bytes(bytes(content))
    wal = tmp_path / "journal.sqlite3-wal"
    wal.write_bytes(b"a write-ahead log left by a crash" * 40)
    found = {"": path.read_bytes(), "-wal": wal.read_bytes()}
    fresh = Journal(path)
    assert fresh.moved_aside is not None
    for suffix, data in found.items():
        assert (tmp_path / f"{fresh.moved_aside.name}{suffix}").read_bytes() == data, "kept exactly as found"
    assert fresh.games() == []


def test_the_history_opens_a_journal_read_only_and_never_moves_it(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"not a journal at all" * 20)
    with pytest.raises(JournalError, match="is unreadable"):
        Journal(path, read_only=True)
    assert path.read_bytes() == b"not a journal at all" * 20


def test_a_journal_of_the_first_version_is_brought_up_to_date(tmp_path):
    path = tmp_path / "journal.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE games (id INTEGER PRIMARY KEY, names TEXT NOT NULL, rule TEXT NOT NULL, "
        "columns_to_win INTEGER NOT NULL, started REAL NOT NULL, ended REAL, status TEXT NOT NULL, winner INTEGER, "
        "turns INTEGER NOT NULL DEFAULT 1);"
        "CREATE TABLE events (game INTEGER NOT NULL, seq INTEGER NOT NULL, event TEXT NOT NULL, at REAL NOT NULL, "
        "PRIMARY KEY (game, seq));"
        "INSERT INTO games VALUES (1, '[\"Ann\", \"Bob\"]', 'standard', 3, 0, NULL, 'playing', NULL, 1);"
        "INSERT INTO events VALUES (1, 1, 'roll 1-4-5-6', 0);"
        "PRAGMA user_version=1;"
    )
    old.close()
    looking = Journal(path, read_only=True)  # history may see it first: it must not need the upgrade
    assert looking.games()[0].setup == JOURNALED
    looking.close()
    journal = Journal(path)
    record = journal.unfinished()
    assert record.setup == JOURNALED and journal.events(1) == ["roll 1-4-5-6"]
    assert journal.moved_aside is None


def test_the_log_is_emptied_into_the_file_when_a_turn_ends(tmp_path):
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6", "6+10")
    wal = tmp_path / "j.sqlite3-wal"
    assert wal.stat().st_size > 0, "mid-turn, the turn's events are in the log"
    journal.append(game, "stop", progress(state_after("roll 1-4-5-6", "6+10", "stop")))
    assert wal.stat().st_size == 0, "checkpointed: damage to the log can cost only the next turn"


def test_a_reader_holding_the_log_delays_the_end_of_a_turn_only_a_moment(tmp_path, monkeypatch, caplog):
    """The end of a turn gives up on emptying the log while a reader holds it (the next end tries
    again): with a statement's lock wait made an hour, waiting for the reader would be a hang."""
    from firmware.journal import journal as journal_module

    monkeypatch.setattr(journal_module, "BUSY_TIMEOUT_MS", 3_600_000)
    journal, game = journal_with(tmp_path / "j.sqlite3", "roll 1-4-5-6", "6+10")
    reader = sqlite3.connect(f"file:{tmp_path / 'j.sqlite3'}?mode=ro", uri=True, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM events").fetchall()  # history, say, in the middle of reading
    journal.append(game, "stop", progress(state_after("roll 1-4-5-6", "6+10", "stop")))
    assert "journal checkpoint not finished: a reader held the log; the next turn's end tries again" in caplog.messages
    reader.close()
    assert journal.events(game)[-1] == "stop"


def test_a_game_keeps_its_dice_set_and_each_roll_its_source(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.start_game(GameSetup(NAMES, dice_set="red casino"))
    journal.append(game, "roll 1-4-5-6", progress(state_after("roll 1-4-5-6")), source="camera")
    journal.append(game, "6+10", progress(state_after("roll 1-4-5-6", "6+10")))
    with pytest.raises(ValueError, match="source 'guess': allowed is None or one of camera, hand"):
        journal.append(game, "roll 1-1-1-1", progress(state_after("roll 1-4-5-6", "6+10", "roll 1-1-1-1")), source="guess")
    journal.close()
    again = Journal(tmp_path / "j.sqlite3", read_only=True)
    assert again.games()[0].setup.dice_set == "red casino"
    assert again.sourced_events(game) == [("roll 1-4-5-6", "camera"), ("6+10", None)]


@pytest.mark.parametrize("label", ["", " red", "red casino dice, set 2", "red\tcasino"])
def test_a_dice_set_that_is_no_label_is_refused(label):
    with pytest.raises(ValueError, match="allowed is a short label of the dice played with, 1 to 20 printable"):
        GameSetup(NAMES, dice_set=label)
