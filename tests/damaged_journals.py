"""Journals made to hurt: real games journaled, the power cut mid-turn, then one kind of damage.

Each damage is what a flipped bit, a torn write or a bad SD card can leave: rows that make no
sense (names that are not JSON, a winner who is not a player, a word for a time, an event
stored as a blob, an event missing), an index that no longer matches its table, a flipped or
truncated journal file or write-ahead log, a scribbled header.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine.cant_stop import GAME, Variant
from engine.cant_stop.bots import RandomBot
from firmware.core.game_setup import GameSetup
from firmware.games.cant_stop.selfplay import play
from firmware.journal.journal import JOURNAL_NAME, Journal
from table_helpers import progress

Event = tuple[int, int, str]  # game, seq, event text
LOG_DAMAGES = ("log-bit-flip", "log-truncated")  # they may cost the turn in progress, by design


@dataclass
class Crashed:
    """A journal as a power cut left it, and what was acknowledged before the cut."""

    folder: Path
    acked: list[Event] = field(default_factory=list)
    at_turn_end: int = 0  # how many of ``acked`` were committed by the last event that ended a turn

    @property
    def path(self) -> Path:
        return self.folder / JOURNAL_NAME


def crashed_journal(folder: Path, rng: random.Random, finished: int = 2) -> Crashed:
    """``finished`` whole games and one cut off mid-turn, journaled by the real Journal, then
    copied as they lie on disk while it is still open: what a power cut leaves."""
    folder.mkdir(parents=True, exist_ok=True)
    clock = iter(range(1_700_000_000, 1_800_000_000, 7))
    live = folder / "live"
    live.mkdir()
    crashed = Crashed(folder / "crashed")
    journal = Journal(live / JOURNAL_NAME, clock=lambda: float(next(clock)))
    for number in range(finished + 1):
        game = journal.start_game(GameSetup(("Ann", "Bob")))
        steps = list(play((RandomBot(rng), RandomBot(rng)), rng, Variant()))
        if number == finished:  # cut off mid-turn: a choice made, the turn not yet over
            steps = steps[: rng.choice([i for i, step in enumerate(steps) if not progress(step.after).turn_over]) + 1]
        for step in steps:
            seq = journal.append(game, GAME.move_text(step.event), progress(step.after))
            crashed.acked.append((game, seq, GAME.move_text(step.event)))
            if progress(step.after).turn_over:
                crashed.at_turn_end = len(crashed.acked)
    crashed.folder.mkdir()
    for suffix in ("", "-wal", ".last"):  # the journal, its log, the mark of the last event acknowledged
        if (live / f"{JOURNAL_NAME}{suffix}").is_file():
            shutil.copyfile(live / f"{JOURNAL_NAME}{suffix}", crashed.folder / f"{JOURNAL_NAME}{suffix}")
    journal.close()
    shutil.rmtree(live)
    return crashed


def journal_files(path: Path) -> dict[str, bytes]:
    """The journal's bytes and its log's, as found (an empty log, as a reader leaves one, holds nothing)."""
    found = {suffix: part.read_bytes() for suffix in ("", "-wal") if (part := Path(f"{path}{suffix}")).is_file()}
    return {suffix: data for suffix, data in found.items() if data or not suffix}


def _sql(table: str, statement: str) -> Callable[[Path, random.Random], None]:
    """Damage made by one SQL statement on a row of ``table`` picked by ``rng`` (its rowid is ``:pick``)."""

    def damage(path: Path, rng: random.Random) -> None:
        db = sqlite3.connect(path)
        rowids = [row[0] for row in db.execute(f"SELECT rowid FROM {table}")]
        db.execute(statement, {"pick": rng.choice(rowids)})
        db.commit()
        db.close()

    return damage


def _fold_log(path: Path) -> None:
    """Checkpoint the log into the file, so damage to the file's bytes hits the latest pages."""
    sqlite3.connect(path).close()


def break_index(path: Path, rng: random.Random | None = None) -> None:
    """Point the last entry of the events' primary-key index at another row: the table and the
    b-tree stay well formed, so ``quick_check`` finds nothing; ``integrity_check`` does."""
    _fold_log(path)
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    page = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_events_1'").fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    while data[(page - 1) * page_size] == 0x02:  # an interior index page: follow its right-most child
        page = int.from_bytes(data[(page - 1) * page_size + 8 : (page - 1) * page_size + 12], "big")
    start = (page - 1) * page_size
    assert data[start] == 0x0A, "a leaf index page"
    cells = int.from_bytes(data[start + 3 : start + 5], "big")
    cell = start + int.from_bytes(data[start + 8 + 2 * (cells - 1) : start + 10 + 2 * (cells - 1)], "big")
    payload = data[cell]
    assert payload < 0x80, "a short cell"
    data[cell + payload] ^= 1  # the last byte of the record: the rowid the entry points at
    path.write_bytes(bytes(data))


def _flip(suffix: str) -> Callable[[Path, random.Random], None]:
    def damage(path: Path, rng: random.Random) -> None:
        part = Path(f"{path}{suffix}")
        data = bytearray(part.read_bytes())
        if data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        part.write_bytes(bytes(data))

    return damage


def _truncate(suffix: str) -> Callable[[Path, random.Random], None]:
    def damage(path: Path, rng: random.Random) -> None:
        part = Path(f"{path}{suffix}")
        data = part.read_bytes()
        part.write_bytes(data[: rng.randrange(len(data))] if data else b"")

    return damage


def _scribble_header(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    data[:100] = bytes(rng.randrange(256) for _ in range(100))
    path.write_bytes(bytes(data))


def _fold_then(damage: Callable[[Path, random.Random], None]) -> Callable[[Path, random.Random], None]:
    def folded(path: Path, rng: random.Random) -> None:
        _fold_log(path)
        damage(path, rng)

    return folded


DAMAGES: dict[str, Callable[[Path, random.Random], None]] = {
    "names-not-json": _sql("games", "UPDATE games SET names = substr(names, 2) WHERE rowid = :pick"),
    "bots-not-a-list": _sql("games", "UPDATE games SET bots = '{\"Ann\": 1}' WHERE rowid = :pick"),
    "winner-out-of-range": _sql("games", "UPDATE games SET winner = 5, status = 'finished' WHERE rowid = :pick"),
    "time-not-a-time": _sql("games", "UPDATE games SET started = 'yesterday' WHERE rowid = :pick"),
    "event-as-blob": _sql("events", "UPDATE events SET event = CAST(event AS BLOB) WHERE rowid = :pick"),
    "event-missing": _sql("events", "DELETE FROM events WHERE rowid = :pick"),
    "index-broken": break_index,
    "file-bit-flip": _fold_then(_flip("")),
    "file-truncated": _fold_then(_truncate("")),
    "header-scribbled": _scribble_header,
    "log-bit-flip": _flip("-wal"),
    "log-truncated": _truncate("-wal"),
}
