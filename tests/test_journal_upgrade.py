"""Journals written before the game kind was recorded (versions 1 and 2, Can't Stop only) are
upgraded on opening, resume where they stopped, and are read as they are by ``history``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.companion import Companion
from firmware.journal import SCHEMA_VERSION, Journal
from hardware.display import dummy_display
from table_helpers import NAMES

V2_GAMES = """CREATE TABLE games (id INTEGER PRIMARY KEY, names TEXT NOT NULL, bots TEXT NOT NULL, rule TEXT NOT NULL,
 columns_to_win INTEGER NOT NULL, started REAL NOT NULL, ended REAL, status TEXT NOT NULL, winner INTEGER,
 turns INTEGER NOT NULL DEFAULT 1)"""
EVENTS = """CREATE TABLE events (game INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, event TEXT NOT NULL,
 at REAL NOT NULL, PRIMARY KEY (game, seq))"""
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
    assert lines[0] == "== Can't Stop (cant-stop): 1 games"
    assert " Ann, Bob  cant-stop standard to 3  abandoned " in lines[1]
    assert path.read_bytes() == before
