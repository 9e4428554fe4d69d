"""The game journal: every committed event of every game, in SQLite, durable before it is shown.

A game is a row in ``games`` (players, rules, how it ended) and its events in ``events``, in
order: rolls (``roll 1-4-5-6``), choices (``6+10``), stops and undos, each committed on its own
(WAL, ``synchronous=FULL``), so a power cut loses nothing that was acknowledged. The state is
the replay of the events through the engine (:func:`replay`); there is no second copy.

A file that is not a readable journal is moved aside untouched and a fresh one started; a
journal written by a newer version is refused, so it is never damaged.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.cant_stop import GAME, Move, State
from engine.dice import Roll
from firmware.game_setup import GameSetup

LOG = logging.getLogger("dice_companion")
SCHEMA_VERSION = 2  # 2 added games.bots
JOURNAL_NAME = "journal.sqlite3"  # in the data folder
UNDO = "undo"
PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    names TEXT NOT NULL,          -- JSON list of the players' names, in seat order
    bots TEXT NOT NULL,           -- JSON list of the names of the seats the advisor plays
    rule TEXT NOT NULL,
    columns_to_win INTEGER NOT NULL,
    started REAL NOT NULL,        -- seconds since the epoch
    ended REAL,
    status TEXT NOT NULL,         -- playing, finished or abandoned
    winner INTEGER,               -- seat of the winner
    turns INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,         -- 1, 2, 3... within the game
    event TEXT NOT NULL,          -- a move or roll in the engine's text form, or "undo"
    at REAL NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
OnCommit = Callable[[int, int, str], None]


class JournalError(OSError):
    """The journal cannot be used and must not be touched (written by a newer version)."""


@dataclass(frozen=True)
class GameRecord:
    """One game as the journal keeps it."""

    id: int
    setup: GameSetup
    started: float
    ended: float | None
    status: str
    winner: int | None
    turns: int

    @property
    def players(self) -> int:
        return len(self.setup.names)

    @property
    def duration_s(self) -> float | None:
        return None if self.ended is None else self.ended - self.started


class Journal:
    """The journal file at ``path`` (``:memory:`` keeps it in memory, for tests and the demo).

    ``read_only`` opens an existing journal to look at (``history``): nothing is written, and an
    unreadable file is an error rather than moved aside.
    """

    def __init__(
        self,
        path: Path | str,
        clock: Callable[[], float] = time.time,
        on_commit: OnCommit | None = None,
        read_only: bool = False,
    ) -> None:
        self.path = path
        self.clock = clock
        self.on_commit = on_commit
        self.moved_aside: Path | None = None  # where an unreadable journal found at start was kept
        in_memory = str(path) == ":memory:"
        originals = {} if in_memory or read_only else _read_files(Path(path))  # before SQLite touches them
        try:
            self._db = self._open(read_only)
        except sqlite3.OperationalError as error:  # locked, no permission, no such folder: the file may be fine
            raise JournalError(f"cannot open the journal {path}: {error}") from error
        except sqlite3.DatabaseError as error:  # not a database, or a damaged one
            if in_memory or read_only:
                raise JournalError(f"the journal {path} is unreadable: {error}") from error
            self.moved_aside = _keep_aside(Path(path), originals)
            LOG.error("journal %s is unreadable (%s); kept as %s, starting a fresh one", path, error, self.moved_aside)
            self._db = self._open(read_only)

    def _open(self, read_only: bool) -> sqlite3.Connection:
        if read_only:
            db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
        else:
            db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        try:
            self._refuse_newer(db)
            if db.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise sqlite3.DatabaseError("integrity check failed")
            if not read_only:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                with _transaction(db):  # another process may be creating it at this very moment
                    version = self._refuse_newer(db)
                    if version == 0:
                        if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                            raise sqlite3.DatabaseError("a database that is not a journal")
                        for statement in _SCHEMA.split(";"):
                            if statement.strip():
                                db.execute(statement)
                    elif version == 1:
                        db.execute("ALTER TABLE games ADD COLUMN bots TEXT NOT NULL DEFAULT '[]'")
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._bots_column = "bots" if self._refuse_newer(db) >= 2 else "'[]'"  # version 1 had no bots
            db.execute(f"SELECT id, names, {self._bots_column}, rule, columns_to_win, started, ended, status, winner, turns "
                       "FROM games LIMIT 1")
            db.execute("SELECT game, seq, event, at FROM events LIMIT 1")
        except BaseException:
            db.close()
            raise
        return db

    def _refuse_newer(self, db: sqlite3.Connection) -> int:
        """The journal's version; a JournalError if a newer program wrote it."""
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path} was written by a newer Dice Companion (journal version {version}; this one "
                f"reads up to {SCHEMA_VERSION}): upgrade it, or move the file aside to start a new journal"
            )
        return int(version)

    # --- writing --------------------------------------------------------------------------

    def start_game(self, setup: GameSetup) -> int:
        """A new game; returns its id."""
        with _transaction(self._db):
            cursor = self._db.execute(
                "INSERT INTO games (names, bots, rule, columns_to_win, started, status) VALUES (?, ?, ?, ?, ?, ?)",
                (json.dumps(list(setup.names)), json.dumps(list(setup.bots)), setup.rule, setup.columns_to_win,
                 self.clock(), PLAYING),
            )
        return int(cursor.lastrowid)

    def append(self, game: int, event: str, after: State) -> int:
        """Commit one event of ``game`` with the state it leads to (which says whether the game
        is over); returns its sequence number. Nothing is shown before this returns."""
        with _transaction(self._db):
            seq = self._db.execute("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game = ?", (game,)).fetchone()[0]
            now = self.clock()
            self._db.execute("INSERT INTO events (game, seq, event, at) VALUES (?, ?, ?, ?)", (game, seq, event, now))
            over = after.winner is not None
            self._db.execute(
                "UPDATE games SET status = ?, ended = ?, winner = ?, turns = ? WHERE id = ?",
                (FINISHED if over else PLAYING, now if over else None, after.winner, after.turn, game),
            )
        if self.on_commit is not None:
            try:
                self.on_commit(game, seq, event)
            except Exception:  # an observer's failure must not look like a lost event: it is committed
                LOG.exception("on_commit failed for event %d of game %d", seq, game)
        return seq

    def abandon(self, game: int) -> None:
        """Give up an unfinished game; it stays in the history as abandoned, ended at its last event."""
        with _transaction(self._db):
            self._db.execute(
                "UPDATE games SET status = ?, ended = coalesce((SELECT max(at) FROM events WHERE game = ?), started) "
                "WHERE id = ? AND status = ?",
                (ABANDONED, game, game, PLAYING),
            )

    # --- reading --------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        """Every game, oldest first."""
        rows = self._db.execute(
            f"SELECT id, names, {self._bots_column}, rule, columns_to_win, started, ended, status, winner, turns "
            "FROM games ORDER BY id"
        ).fetchall()
        return [
            GameRecord(
                row[0], GameSetup(tuple(json.loads(row[1])), row[3], row[4], tuple(json.loads(row[2]))), *row[5:]
            )
            for row in rows
        ]

    def events(self, game: int) -> list[str]:
        """The events of ``game`` in order."""
        return [row[0] for row in self._db.execute("SELECT event FROM events WHERE game = ? ORDER BY seq", (game,))]

    def unfinished(self) -> GameRecord | None:
        """The game being played when the companion stopped, if any."""
        playing = [record for record in self.games() if record.status == PLAYING]
        return playing[-1] if playing else None

    def close(self) -> None:
        self._db.close()


def replay(record: GameRecord, events: Sequence[str]) -> tuple[State, list[Move | Roll]]:
    """The state a game's events lead to, and the moves still standing (undos removed).

    Raises EngineError if the events do not replay (a journal edited by hand, say).
    """
    standing: list[Move | Roll] = []
    for event in events:
        if event == UNDO:
            if standing:
                standing.pop()
        else:
            standing.append(GAME.parse_move(event))
    return play_through(GAME.new_game(record.players, **vars(record.setup.variant())), standing), standing


def play_through(state: State, moves: Sequence[Move | Roll]) -> State:
    """``state`` after ``moves``, each checked by the engine."""
    for move in moves:
        state = GAME.apply(state, move)
    return state


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """Commit what the block writes, all of it or (on an error) none of it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


WAL_SUFFIXES = ("", "-wal", "-shm")


def _read_files(path: Path) -> dict[str, bytes]:
    """The journal's bytes and its WAL files', read before opening: checking a damaged file
    lets SQLite write to it, and what is kept aside must be exactly what was found."""
    return {suffix: part.read_bytes() for suffix in WAL_SUFFIXES if (part := Path(str(path) + suffix)).is_file()}


def _keep_aside(path: Path, originals: dict[str, bytes]) -> Path:
    """Write the unreadable journal (and its WAL files) as found to ``<name>.unreadable-<time>``,
    and remove it so a fresh journal can start."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.unreadable-{stamp}")
    for number in itertools.count(2):
        if not aside.exists():
            break
        aside = path.with_name(f"{path.name}.unreadable-{stamp}-{number}")
    for suffix, content in originals.items():
        Path(str(aside) + suffix).write_bytes(content)
    for suffix in WAL_SUFFIXES:
        Path(str(path) + suffix).unlink(missing_ok=True)
    return aside
