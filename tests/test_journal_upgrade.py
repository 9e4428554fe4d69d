"""Journals of older versions are upgraded on opening, resume where they stopped, and are read as
they are by ``history``: versions 1 and 2 (Can't Stop only, before the game's kind was recorded) and
version 3 (before a roll's source and the dice set were)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.journal.dice_stats import rolls
from firmware.journal.journal import SCHEMA_VERSION, UNDO, Journal, replay
from firmware.table.companion import Companion
from hardware.display import dummy_display
from table_helpers import NAMES, progress

V2_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, names TEXT NOT NULL, bots TEXT NOT NULL, rule TEXT NOT NULL,
 columns_to_win INTEGER NOT NULL, started REAL NOT NULL, ended REAL, status TEXT NOT NULL, winner INTEGER,
 turns INTEGER NOT NULL DEFAULT 1)"""
EVENTS = """CREATE TABLE events (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, event TEXT NOT NULL,
 at REAL NOT NULL, PRIMARY KEY (game, seq))"""
V3_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, names TEXT NOT NULL, bots TEXT NOT NULL,
 options TEXT NOT NULL, started REAL NOT NULL, ended REAL, status TEXT NOT NULL, winner INTEGER,
 turns INTEGER NOT NULL DEFAULT 1)"""
MOVES = ("roll 1-4-5-6", "6+10", "roll 2-2-3-3")


def old_journal(path: Path, version: int) -> None:
    """A journal as version 1 or 2 wrote it: a finished game and one left playing, jumping to 4 columns."""
    db = sqlite3.connect(path)
    db.execute(V2_GAMES if version == 2 else V2_GAMES.replace(" bots TEXT NOT NULL,", ""))
    db.execute(EVENTS)
    bots = ", bots" if version == 2 else ""
    values = ", '[]'" if version == 2 else ""
    db.execute(f"INSERT INTO games (names{bots}, rule, columns_to_win, started, ended, status, winner, turns) "
               f"VALUES ('[\"Ann\", \"Bob\"]'{values}, 'standard', 3, 1000, 1100, 'abandoned', NULL, 1)")
    db.execute(f"INSERT INTO games (names{bots}, rule, columns_to_win, started, status, turns) "
               f"VALUES ('[\"Ann\", \"Bob\"]'{values}, 'jumping', 4, 2000, 'playing', 1)")
    for seq, move in enumerate(MOVES, start=1):
        db.execute("INSERT INTO events VALUES (2, ?, ?, ?)", (seq, move, 2000 + seq))
    db.execute(f"PRAGMA user_version={version}")
    db.commit()
    db.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_old_journal_is_upgraded_and_its_game_resumes(tmp_path, version):
    path = tmp_path / "journal.sqlite3"
    old_journal(path, version)
    companion = Companion(dummy_display(), journal=Journal(path))
    assert companion.setup is not None and companion.setup.kind == "cant-stop" and companion.names == NAMES
    assert companion.state.variant.jumping and companion.state.variant.columns_to_win == 4
    assert companion.journal.events(2) == list(MOVES) and companion.state.dice is not None
    companion.journal.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert db.execute("SELECT kind, options FROM games ORDER BY id").fetchall() == [
        ("cant-stop", '{"rule":"standard","columns_to_win":3}'), ("cant-stop", '{"rule":"jumping","columns_to_win":4}'),
    ]
    db.close()


def test_history_reads_an_old_journal_without_changing_it(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    old_journal(path, 2)
    before = path.read_bytes()
    assert main(["history", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "== Can't Stop (cant-stop): 1 game"
    assert " Ann, Bob  Can't Stop, standard rules, 3 columns to win  abandoned " in lines[1]
    assert path.read_bytes() == before


def v3_journal(path: Path) -> None:
    """A journal as version 3 wrote it: a game abandoned and one left playing, neither saying
    where its rolls were read nor with which dice."""
    db = sqlite3.connect(path)
    db.execute(V3_GAMES)
    db.execute(EVENTS)
    for game, status in ((1, "abandoned"), (2, "playing")):
        db.execute("INSERT INTO games VALUES (?, 'cant-stop', '[\"Ann\", \"Bob\"]', '[]', "
                   "'{\"rule\": \"jumping\", \"columns_to_win\": 4}', 1000, NULL, ?, NULL, 1)", (game, status))
        for seq, move in enumerate(MOVES, start=1):
            db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, move, 1000 + seq))
    db.execute("PRAGMA user_version=3")
    db.commit()
    db.close()


def test_a_version_3_journal_is_upgraded_its_rolls_of_unknown_source_and_plain_dice(tmp_path):
    path = tmp_path / "journal.sqlite3"
    v3_journal(path)
    journal = Journal(path)
    assert [record.setup.dice_set for record in journal.games()] == ["dice", "dice"]
    assert journal.sourced_events(1) == [(move, None) for move in MOVES]
    record = journal.unfinished()
    played = [*MOVES, UNDO, "roll 2-2-3-3"]  # the last roll misread; read again by hand
    journal.append(2, UNDO, progress(replay(record, played[:4])[0]))
    journal.append(2, "roll 2-2-3-3", progress(replay(record, played)[0]), source="hand")
    journal.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 4
    assert db.execute("SELECT dice_set FROM games").fetchall() == [("dice",), ("dice",)]
    assert db.execute("SELECT seq, source FROM events WHERE game = 2").fetchall() == [
        (1, None), (2, None), (3, None), (4, None), (5, "hand"),
    ]
    db.close()


def test_a_version_3_journal_is_read_as_it_is(tmp_path):
    path = tmp_path / "journal.sqlite3"
    v3_journal(path)
    before = path.read_bytes()
    journal = Journal(path, read_only=True)
    assert journal.damaged() == [] and [record.setup.dice_set for record in journal.games()] == ["dice", "dice"]
    assert journal.sourced_events(2) == [(move, None) for move in MOVES] and journal.events(2) == list(MOVES)
    assert [(r.game, r.source, r.dice_set, r.dice) for r in rolls(journal)] == [
        (game, "unknown", "dice", dice) for game in (1, 2) for dice in ((1, 4, 5, 6), (2, 2, 3, 3))
    ]
    journal.close()
    assert path.read_bytes() == before
