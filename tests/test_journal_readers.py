"""A reader (history, the page) opened on a journal at rest reads it as immutable, without locks: a
companion that starts meanwhile rewrites its pages. What such a reader reads while the journal
changes is read again, so that it is never stale, and never said to be damaged for that."""

from __future__ import annotations

import sqlite3

import pytest

from test_journal import journal_with
from test_journal_damage import WIN, two_won_games
from test_journal_upgrade import MOVES, old_journal

from firmware.journal.journal import Journal


def test_a_reader_held_over_a_journal_at_rest_reads_what_a_companion_journals_after_it_opened(tmp_path):
    """Issue 51: the reader kept reading the journal as it was when it opened, for ever."""
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    reader = Journal(path, read_only=True)
    assert len(reader.games()) == 2
    companion, game = journal_with(path, *WIN[:3])
    assert [record.id for record in reader.games()] == [1, 2, game] and reader.events(game) == list(WIN[:3])
    companion.close()  # at rest again, but not as the reader found it
    companion, _ = journal_with(path, *WIN)
    companion.close()
    assert len(reader.games()) == 4 and reader.live_game() is not None and reader.live_game().id == 4
    reader.close()


def test_pages_rewritten_under_a_reader_are_never_said_to_be_damage(tmp_path):
    """Issue 51: a companion that starts upgrades and checkpoints the journal a reader holds; the
    reader read its new pages through its old ones: "database disk image is malformed". (Here the
    reader keeps no page in memory, so that it meets every rewritten one.)"""
    path = tmp_path / "journal.sqlite3"
    old_journal(path, 2)
    reader = Journal(path, read_only=True)
    reader._db.execute("PRAGMA cache_size=0")
    assert [record.id for record in reader.games()] == [1, 2]
    companion = Journal(path)  # upgrades the games table and checkpoints it into the file
    companion.abandon(2)
    companion.start_game(companion.games()[0].setup)
    assert [record.status for record in reader.games()] == ["abandoned", "abandoned", "playing"]
    assert reader.events(2) == list(MOVES)
    companion.close()
    reader.close()


def test_a_reader_that_cannot_reopen_a_changed_journal_fails_that_reading_only(tmp_path, monkeypatch):
    """Review of issue 51: the old connection was closed before the fresh one was had, so one reopen
    that failed (a companion's journal, not at rest, locked as it was checked) left the reader with a
    closed connection and no state to compare: every later reading failed."""
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    reader = Journal(path, read_only=True)
    companion, game = journal_with(path, *WIN[:3])  # held open: the journal is not at rest
    checking = Journal._checked

    def locked(self, db, read_only):
        monkeypatch.setattr(Journal, "_checked", checking)  # once
        db.close()
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(Journal, "_checked", locked)
    with pytest.raises(sqlite3.OperationalError):
        reader.games()
    assert [record.id for record in reader.games()] == [1, 2, game]
    companion.close()
    reader.close()
