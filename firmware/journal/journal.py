"""The game journal: every committed event of every game, in SQLite, durable before it is shown.

A game is a row in ``games`` (its kind, players, options, how it ended) and its events in
``events``, in order: the game's own move texts (``roll 1-4-5-6``, ``6+10``, ``stop``) and undos,
replayed through that game's engine (a roll also says where its dice were read: by the camera, or
entered by hand); each committed on its own
(WAL, ``synchronous=FULL``), so a power cut loses nothing that was acknowledged. The state is
the replay of the events through the engine (:func:`replay`); there is no second copy.
Journals of older versions are upgraded on opening (their rolls' source unknown, their dice
"dice"), and read as they are by ``history``.

A file that is not a readable journal (SQLite's integrity check fails, or a row makes no sense)
is moved aside untouched and a fresh one started; a journal written by a newer version is
refused, so it is never damaged. The log is checkpointed into the file whenever a turn ends,
so a damaged log can cost at most the turn in progress. One companion at a time: a writable
journal holds ``<journal>.lock``, and a second one is refused while it does; a journal that is a
link, or has a second name, is refused (a second data folder would hold the same journal).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import glob
import itertools
import json
import logging
import os
import secrets
import sqlite3
import stat
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TypeVar

from typing import Any

from engine.game import Game
from firmware.core.game_setup import GameSetup
from firmware.core.table_game import Progress
from firmware.journal import last_event
from firmware.journal.last_event import Lost
from firmware.journal.plain_files import NO_LINK_NO_WAIT, is_regular_or_set_aside
from firmware.journal.rows import (
    ABANDONED,
    FINISHED,
    PLAYING,
    SOURCES,
    DamagedGame,
    DamagedRow,
    GameRecord,
    game_record,
    games_columns,
    read_game,
    read_games,
    source_column,
)

LOG = logging.getLogger("dice_companion")
SCHEMA_VERSION = 4  # 2 added games.bots; 3 the game's kind and options; 4 events.source and games.dice_set
JOURNAL_NAME = "journal.sqlite3"  # in the data folder
UNDO = "undo"
BUSY_TIMEOUT_MS = 5000  # sqlite3's default: how long a statement waits for another connection's lock
CHECKPOINT_WAIT_MS = 250  # a reader (history) may hold the log this long at a turn's end; then the next end tries
_GAMES = """
CREATE TABLE {table} (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,           -- the game: cant-stop, counters...
    names TEXT NOT NULL,          -- JSON list of the players' names, in seat order
    bots TEXT NOT NULL,           -- JSON list of the names of the seats the advisor plays
    options TEXT NOT NULL,        -- JSON object of the game's set-up options
    dice_set TEXT NOT NULL,       -- a short label of the physical dice played with
    started REAL NOT NULL,        -- seconds since the epoch
    ended REAL,
    status TEXT NOT NULL,         -- playing, finished or abandoned
    winner INTEGER,               -- seat of the winner
    turns INTEGER NOT NULL DEFAULT 1
)"""
_SCHEMA = _GAMES.format(table="games") + """;
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,         -- 1, 2, 3... within the game
    event TEXT NOT NULL,          -- a move or roll in the engine's text form, or "undo"
    at REAL NOT NULL,
    source TEXT,                  -- camera or hand: where a roll's dice (or a keep left lying) were read, else NULL
    PRIMARY KEY (game, seq)
);
"""
OnCommit = Callable[[int, int, str], None]
FileState = tuple[object, ...]
Read = TypeVar("Read")


class JournalError(OSError):
    """The journal cannot be used and must not be touched (written by a newer version, or in use
    by another companion)."""


class JournalLocked(JournalError):
    """Another companion holds the journal: nothing of its (the display included) may be touched."""


class EmptyJournal(JournalError):
    """A journal file with nothing in it yet (a companion stopped while creating it): to a reader,
    no game has been played."""


def _refuse_what_is_no_journal(db: sqlite3.Connection, read_only: bool) -> None:
    """A DatabaseError (the file is kept aside) for an SQLite file that is not a journal: another
    program's database, or a journal that lost its games or events table. An empty file is a
    journal not yet created: a writer creates it, a reader is told no game was played."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    missing = sorted({"games", "events"} - tables)
    if tables and missing:
        held = ", ".join(sorted(tables)[:4])
        raise sqlite3.DatabaseError(f"not a journal: it has no {' and no '.join(missing)} table (it holds {held})")
    if not tables and db.execute("PRAGMA user_version").fetchone()[0]:
        raise sqlite3.DatabaseError("not a journal: it has a version but no tables")
    if not tables and read_only:
        raise EmptyJournal("no game has been played here yet (the journal is empty: it was never written to)")


class Journal:
    """The journal file at ``path`` (``:memory:`` keeps it in memory, for tests and the demo).

    ``read_only`` opens an existing journal to look at (``history``): nothing is written, no lock
    is taken, an unreadable file is an error rather than moved aside, and damaged games are
    listed by :meth:`damaged` rather than refused.
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
        self.lost: Lost | None = None  # acknowledged events found missing at start
        self.immutable = False  # read-only and unable to use SQLite's shared memory: the log is not seen
        self.identity: str | None = None  # this journal's own, signing its marks (a writer's)
        self._identity_was_there = False  # False: made at this start (the journal's previous marks carry none)
        self._identity_damaged = False  # replaced at this start: the journal's previous marks cannot be checked
        self._opened_as: FileState | None = None  # the file as an immutable connection found it (see _read)
        in_memory = str(path) == ":memory:"
        self._lock = None if in_memory or read_only else _lock(Path(path))
        # Found empty or missing at start: whatever the mark says was acknowledged went with the file.
        file_lost = not in_memory and not read_only and (not Path(path).is_file() or Path(path).stat().st_size == 0)
        try:
            originals = {} if in_memory or read_only else _read_files(Path(path))  # before SQLite touches them
            try:
                self._db = self._open(read_only)
            except sqlite3.OperationalError as error:  # locked, no permission, no such folder: the file may be fine
                raise JournalError(f"cannot open the journal {path}: {error}") from error
            except sqlite3.DatabaseError as error:  # not a database, a damaged one, or a row that makes no sense
                if in_memory or read_only:
                    raise JournalError(f"the journal {path} is unreadable: {error}") from error
                self.moved_aside = _keep_aside(Path(path), originals)
                LOG.error("journal %s is unreadable (%s); kept as %s, starting a fresh one", path, error, self.moved_aside)
                self._db = self._open(read_only)
            if not read_only:
                self._checkpoint()  # what a crash left in the log goes into the file now
                self._check_last_event(file_lost)
        except BaseException:
            self._unlock()
            raise

    def _check_last_event(self, file_lost: bool) -> None:
        """Whether the last event acknowledged before this start is in the journal (see
        :mod:`last_event`); what is missing is kept in ``lost`` and logged. A journal kept aside
        was announced as a whole; the fresh one owes nothing. A damaged mark is said once and
        removed: what it owed cannot be told, and the next start must not stop on it again."""
        if str(self.path) == ":memory:":
            return
        path = Path(self.path)
        try:
            last = last_event.recalled(path)
            if last is None:
                return
            if self.moved_aside is None and file_lost:
                self._find_kept_aside(path)
            if self.moved_aside is not None:
                last_event.forget(path)
                return
            if not file_lost:  # the journal that signed the mark went with the file: nothing to check it by
                self._refuse_another_journals(last)
            self.lost = last_event.lost_events(self._db, last, file_lost)
        except last_event.DamagedMark as damage:
            LOG.error("journal %s: the mark of the last acknowledged event (%s) is damaged: %s; whether events were "
                      "lost before this start cannot be told; it is removed", path, last_event.marker_path(path), damage)
            _remove_mark(path)
            return
        if self.lost is not None:
            LOG.error("journal %s: %s", path, self.lost.sentence())
            if file_lost:  # said now; the fresh journal owes nothing, so the next start says it no more
                last_event.forget(path)

    def _find_kept_aside(self, path: Path) -> None:
        """``moved_aside``: the journal a start kept aside and was stopped (a kill) before it started the
        fresh one and said so; the games the mark owes are in it, not lost (see :func:`_kept_aside_since_the_mark`)."""
        self.moved_aside = _kept_aside_since_the_mark(path)
        if self.moved_aside is not None:
            LOG.error("journal %s was found empty or missing: the start before this one kept it as %s (it was "
                      "unreadable) and was stopped before it said so; its games are there, a fresh journal starts",
                      path, self.moved_aside.name)

    def _refuse_another_journals(self, last: last_event.LastEvent) -> None:
        """DamagedMark unless the mark was signed by this journal; an unsigned one only when the
        journal had no identity before this start (both written by an earlier version). Any mark
        is believed beside an identity found damaged: what it owes is better told than dropped."""
        if self._identity_damaged:
            return
        if last.journal != self.identity and (last.journal is not None or self._identity_was_there):
            raise last_event.DamagedMark("it was not written for this journal (another journal's, or a crafted one)")

    def _replace_damaged_identity(self, db: sqlite3.Connection) -> None:
        """Drop an identity table that holds no sound identity, said once (see :func:`_identity_damage`)."""
        damage = _identity_damage(db)
        if damage is None:
            return
        LOG.error("journal %s: its identity is damaged (%s): replaced by a new one", self.path, damage)
        db.execute("DROP TABLE identity")
        self._identity_damaged = True

    def _open(self, read_only: bool) -> sqlite3.Connection:
        if not read_only:
            db = sqlite3.connect(str(self.path), BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
            return self._checked(db, read_only)
        if _at_rest(Path(self.path)):  # nothing to miss; SQLite would leave an empty log and shared memory behind
            return self._checked(self._connect_read_only(True), read_only)
        immutable = not _can_share_memory(Path(self.path))
        if immutable and not self.immutable:  # said once, not again when a reading opens it afresh
            LOG.warning("journal %s read as immutable (its folder is not writable by this user): what the "
                        "companion committed since its last turn's end is not seen", self.path)
        self.immutable = immutable
        try:
            return self._checked(self._connect_read_only(self.immutable), read_only)
        except sqlite3.OperationalError as error:
            if self.immutable or "readonly" not in str(error):
                raise
        # A transaction a kill cut short left a rollback journal that SQLite must play back before
        # anyone reads, and a reader may not write: read the file as it lies (the companion's next
        # start plays it back). A reader never writes.
        LOG.warning("journal %s has a transaction cut short that only the companion can roll back: read as it "
                    "lies until the companion starts", self.path)
        self.immutable = True
        return self._checked(self._connect_read_only(True), read_only)

    def _connect_read_only(self, immutable: bool) -> sqlite3.Connection:
        """A read-only connection; ``immutable`` needs no write access at all, at the cost of the
        write-ahead log (the turn in progress) and of any locking against a writer."""
        self._opened_as = _file_state(Path(self.path)) if immutable else None  # taken before: a change meanwhile shows
        uri = f"file:{urllib.parse.quote(str(self.path))}?mode=ro" + ("&immutable=1" if immutable else "")
        return sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)

    def _checked(self, db: sqlite3.Connection, read_only: bool) -> sqlite3.Connection:
        """``db`` once it is known to be a journal this version can use (see :meth:`__init__`)."""
        try:
            _refuse_what_is_no_journal(db, read_only)
            self._refuse_newer(db)
            # quick_check misses broken indexes. Only the writer checks (it moves damage aside): a full
            # check takes a third of a second on a journal of 1,000 games, too long for every page.
            problem = "ok" if read_only else db.execute("PRAGMA integrity_check(1)").fetchone()[0]
            if problem != "ok":
                raise sqlite3.DatabaseError(f"integrity check failed: {problem}")
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
                    elif version < SCHEMA_VERSION:
                        _upgrade(db, version)
                    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                    self._replace_damaged_identity(db)
                    self.identity, self._identity_was_there = _identity(db)
            self._version = self._refuse_newer(db)  # a read-only journal may be of an older version
            damaged = [] if read_only else read_games(db, self._version)[1]  # a reader lists them (damaged())
            if damaged:
                raise DamagedRow(f"game {damaged[0].id}: {damaged[0].why}")
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
                "INSERT INTO games (kind, names, bots, options, dice_set, started, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (setup.kind, json.dumps(list(setup.names)), json.dumps(list(setup.bots)),
                 json.dumps(setup.game_options()), setup.dice_set, self.clock(), PLAYING),
            )
        self._checkpoint()
        return int(cursor.lastrowid)

    def append(self, game: int, event: str, after: Progress, source: str | None = None) -> int:
        """Commit one event of ``game`` with where it leads (whether the game is over, the turns,
        whether a turn ended); returns its sequence number. Nothing is shown before this returns.
        ``source`` says where a roll's dice were read (CAMERA or HAND), for the dice statistics, and
        of a keep worked out from the dice left in the tray, that it was (the page says so)."""
        if source not in (None, *SOURCES):
            raise ValueError(f"source {source!r}: allowed is None or one of {', '.join(SOURCES)}")
        with _transaction(self._db):
            seq = self._db.execute("SELECT coalesce(max(seq), 0) + 1 FROM events WHERE game = ?", (game,)).fetchone()[0]
            now = self.clock()
            self._db.execute(
                "INSERT INTO events (game, seq, event, at, source) VALUES (?, ?, ?, ?, ?)", (game, seq, event, now, source)
            )
            over = after.over
            self._db.execute(
                "UPDATE games SET status = ?, ended = ?, winner = ?, turns = ? WHERE id = ?",
                (FINISHED if over else PLAYING, now if over else None, after.winner, after.turns, game),
            )
        if after.turn_over:
            self._checkpoint()
        self._remember(game, seq, event)
        if self.on_commit is not None:
            try:
                self.on_commit(game, seq, event)
            except Exception:  # an observer's failure must not look like a lost event: it is committed
                LOG.exception("on_commit failed for event %d of game %d", seq, game)
        return seq

    def _remember(self, game: int, seq: int, event: str) -> None:
        """Mark the event as the last acknowledged (before it is shown). It is committed already:
        a failure to write the mark is logged, never raised."""
        if str(self.path) == ":memory:":
            return
        try:
            last_event.remember(Path(self.path), game, seq, event, self.identity)
        except OSError as error:
            LOG.warning("journal: cannot mark event %d of game %d as acknowledged: %s", seq, game, error)

    def abandon(self, game: int) -> None:
        """Give up an unfinished game; it stays in the history as abandoned, ended at its last event."""
        with _transaction(self._db):
            self._db.execute(
                "UPDATE games SET status = ?, ended = coalesce((SELECT max(at) FROM events WHERE game = ?), started) "
                "WHERE id = ? AND status = ?",
                (ABANDONED, game, game, PLAYING),
            )

    def _checkpoint(self) -> None:
        """Copy the write-ahead log into the journal file and empty it, so that damage to the log
        can cost only what was committed since. The events are committed already: a failure here
        is logged, never raised (the caller would take the event for unsaved)."""
        try:
            # FULL copies every frame, waiting only for readers of an older snapshot (a page reading
            # as the move was committed); emptying the log would also wait for readers of the newest,
            # who poll all the time: it is tried without waiting (a log copied in full costs nothing
            # when damaged, only its file stays large until a quiet moment).
            self._db.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")
            busy = self._db.execute("PRAGMA wal_checkpoint(FULL)").fetchone()[0]
            self._db.execute("PRAGMA busy_timeout=0")
            if not busy:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            self._db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        except sqlite3.Error as error:
            LOG.warning("journal checkpoint failed: %s", error)
            return
        if busy:
            LOG.warning("journal checkpoint not finished: a reader held the log; the next turn's end tries again")

    # --- reading --------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        """Every game that makes sense, oldest first (only a read-only journal can hold others)."""
        return self.sound_and_damaged()[0]

    def game(self, game: int) -> GameRecord | None:
        """Game ``game`` if it is there and sound, read from its own rows alone."""
        return self._read(lambda: read_game(self._db, self._version, game))

    def damaged(self) -> list[DamagedGame]:
        """The games whose row or events make no sense (only ever in a read-only journal)."""
        return self.sound_and_damaged()[1]

    def sound_and_damaged(self) -> tuple[list[GameRecord], list[DamagedGame]]:
        """:meth:`games` and :meth:`damaged` in one reading of the journal."""
        return self._read(lambda: read_games(self._db, self._version))

    def events(self, game: int) -> list[str]:
        """The events of ``game`` in order."""
        return [event for event, _ in self.sourced_events(game)]

    def sourced_events(self, game: int) -> list[tuple[str, str | None]]:
        """The events of ``game`` in order, each with where a roll's dice were read (CAMERA, HAND),
        or None (any other event, and every event journaled before sources were kept)."""
        def reading() -> list[tuple[str, str | None]]:
            query = f"SELECT event, {source_column(self._version)} FROM events WHERE game = ? ORDER BY seq"
            return [(event, where) for event, where in self._db.execute(query, (game,))]

        return self._read(reading)

    def live_game(self) -> GameRecord | None:
        """The game being played, else the last one played (None: no game yet), read from its own
        row rather than every game's: the live page asks after every move. A damaged row is
        looked past as :meth:`games` does."""
        return self._read(self._live_game)

    def _live_game(self) -> GameRecord | None:
        columns = games_columns(self._version)
        for which in ("WHERE status = 'playing' ORDER BY id DESC", "ORDER BY id DESC"):
            row = self._db.execute(f"SELECT {columns} FROM games {which} LIMIT 1").fetchone()
            if row is None:
                continue
            try:
                return game_record(row)
            except DamagedRow:
                break
        records = read_games(self._db, self._version)[0]
        return next((r for r in reversed(records) if r.status == PLAYING), records[-1] if records else None)

    def _read(self, reading: Callable[[], Read]) -> Read:
        """What ``reading`` reads. A connection that reads the file as immutable, without locks (see
        :meth:`_open`), may read pages a companion is rewriting, or keep ones it rewrote: when the
        journal changed since the connection opened, it is opened afresh and read again, once. An
        error met meanwhile was the change's, not damage, and is not said."""
        if self._opened_as is None:
            return reading()
        try:
            found = reading()
        except sqlite3.DatabaseError:
            if _file_state(Path(self.path)) == self._opened_as:
                raise
        else:
            if _file_state(Path(self.path)) == self._opened_as:
                return found
        was = self._opened_as
        try:  # the fresh connection first: one that cannot be had leaves the reader as it was, to try again
            fresh = self._open(read_only=True)
        except Exception:
            self._opened_as = was
            raise
        self._db.close()
        self._db = fresh
        return reading()

    def unfinished(self) -> GameRecord | None:
        """The game being played when the companion stopped, if any."""
        playing = [record for record in self.games() if record.status == PLAYING]
        return playing[-1] if playing else None

    def close(self) -> None:
        self._db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the file releases the lock
            self._lock = None


def replay(record: GameRecord, events: Sequence[str]) -> tuple[Any, list[Any]]:
    """The state a game's events lead to through its own engine, and the moves still standing
    (undos removed). Raises EngineError if the events do not replay (a journal edited by hand, say).
    """
    standing = [move for _, move in standing_moves(record, events)]
    return play_through(record.setup.game.engine, record.setup.new_state(), standing), standing


def standing_moves(record: GameRecord, events: Sequence[str]) -> list[tuple[int, Any]]:
    """The moves of a game's events still standing, each with its place in ``events``: an undo
    takes back the latest one standing. EngineError if an event is not a move of the game."""
    engine = record.setup.game.engine
    standing: list[tuple[int, Any]] = []
    for at, event in enumerate(events):
        if event == UNDO:
            if standing:
                standing.pop()
        else:
            standing.append((at, engine.parse_move(event)))
    return standing


def play_through(engine: Game[Any, Any], state: Any, moves: Sequence[Any]) -> Any:
    """``state`` after ``moves``, each checked by the engine."""
    for move in moves:
        state = engine.apply(state, move)
    return state


_UPGRADE = _GAMES.format(table="games_new") + """;
INSERT INTO games_new SELECT {columns} FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games
"""
_SOURCES_ADDED = "ALTER TABLE events ADD COLUMN source TEXT"  # version 4; older rolls' sources are unknown (NULL)


def _upgrade(db: sqlite3.Connection, version: int) -> None:
    """Bring a journal of an older version to this one, rows unchanged in meaning (in the caller's transaction)."""
    for statement in _UPGRADE.format(columns=games_columns(version)).split(";"):
        db.execute(statement)
    db.execute(_SOURCES_ADDED)


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
IDENTITY_BYTES = 16  # written as twice as many hexadecimal digits


def _identity(db: sqlite3.Connection) -> tuple[str, bool]:
    """The journal's own identity (made once, at random: a copied or crafted mark names another),
    and whether it was there before (in the caller's transaction, after :func:`_identity_damage`).
    A table of its own: journals of this version still open in earlier ones."""
    db.execute("CREATE TABLE IF NOT EXISTS identity (id TEXT NOT NULL)")
    found = db.execute("SELECT id FROM identity").fetchone()
    if found is not None:
        return found[0], True
    made = secrets.token_hex(IDENTITY_BYTES)
    db.execute("INSERT INTO identity (id) VALUES (?)", (made,))
    return made, False


def _identity_damage(db: sqlite3.Connection) -> str | None:
    """Why the identity table holds no identity this version made (None: it does, or there is no
    table yet). Its shape and size are checked before it is read: other columns stopped every start,
    and a long one made every mark as long (fsync'd at each move, and too long to be read back)."""
    columns = [(name, kind, not_null) for _, name, kind, not_null, _, _ in db.execute("PRAGMA table_info(identity)")]
    if not columns:
        return None
    if columns != [("id", "TEXT", 1)]:
        return f"its columns are {', '.join(name for name, _, _ in columns)}, not id alone"
    rows, sound = db.execute("SELECT count(*), total(typeof(id) = 'text' AND length(id) = ? AND id NOT GLOB "
                             "'*[^0-9a-f]*') FROM identity", (2 * IDENTITY_BYTES,)).fetchone()
    if rows != 1:
        return f"it holds {rows} identities"
    return None if sound else f"it holds no {2 * IDENTITY_BYTES} hexadecimal digits"


def _at_rest(path: Path) -> bool:
    """Whether no companion has the journal open and nothing was cut short: no log, no shared
    memory, no rollback journal beside it (a companion's clean close removes them). Such a file
    is read as it lies, and the reader leaves the folder as it found it. (A companion that starts
    meanwhile rewrites its pages: what was read then is read again, see :meth:`Journal._read`.)"""
    return not any(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm", "-journal"))


def _file_state(path: Path) -> FileState:
    """What tells that the journal changed: whether it is at rest, and its file's inode, size and
    time of its last change (see :meth:`Journal._read`)."""
    try:
        found = os.stat(path)
    except OSError:
        return (_at_rest(path),)
    return _at_rest(path), found.st_ino, found.st_size, found.st_mtime_ns


def _can_share_memory(path: Path) -> bool:
    """Whether a reader can use SQLite's shared memory beside the journal (``-shm``, which it
    creates in the journal's folder): without it, only an immutable read works."""
    shared = Path(f"{path}-shm")
    if shared.exists():
        return os.access(shared, os.R_OK | os.W_OK)
    return os.access(path.parent, os.W_OK)


def _lock(path: Path) -> IO[bytes]:
    """Hold ``<journal>.lock`` for as long as the journal is open for writing: two companions on
    one data folder would interleave their moves into one game. The kernel drops the lock
    when the process ends, however it ends. Only a regular file is locked (see :mod:`plain_files`),
    and only a journal with no other name (:func:`_refuse_links`)."""
    _refuse_links(path)
    lock_path = Path(f"{path}.lock")
    try:
        is_regular_or_set_aside(lock_path, "the journal's lock")
        lock = os.fdopen(os.open(lock_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | NO_LINK_NO_WAIT, 0o666), "ab")
    except OSError as error:
        raise JournalError(f"cannot open the journal {path}: cannot create {lock_path.name} ({error.strerror})") from error
    try:
        if not stat.S_ISREG(os.fstat(lock.fileno()).st_mode):  # one put there since it was set aside
            raise OSError(errno.EINVAL, "not a regular file")
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        lock.close()
        if isinstance(error, BlockingIOError):
            raise JournalLocked(f"another Dice Companion is running on the journal {path} (it holds "
                                f"{lock_path.name}): stop it first, or give this one another data folder") from None
        raise JournalError(f"cannot open the journal {path}: cannot lock {lock_path.name} ({error.strerror})") from error
    return lock


def _refuse_links(path: Path) -> None:
    """A JournalError, in one line, for a journal that is a link or has a second name (a hard link):
    the lock lies beside the name, so a second data folder naming the same journal would let a
    second companion write into the game being played (SQLite's log, also beside the name, would
    even part its commits)."""
    try:
        found = os.lstat(path)
    except OSError:  # none yet, or not to be seen: opening it says what is wrong
        return
    if stat.S_ISLNK(found.st_mode):
        raise JournalError(f"the journal {path} is a symbolic link (to {os.readlink(path)}): a companion writes only "
                           "a journal that lies in its data folder; give it the folder the journal lies in")
    if found.st_nlink > 1:
        raise JournalError(f"the journal {path} has {found.st_nlink} names (hard links): another data folder may hold "
                           "it too; remove the other names, or copy it to a file of its own")


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


def _kept_aside_since_the_mark(path: Path) -> Path | None:
    """The newest journal kept aside by :func:`_keep_aside` since the mark of the last acknowledged
    event was written, if any: the events the mark owes went into it (every start after keeping a
    journal aside forgets the mark, and every event acknowledged after writes it anew)."""
    marked = last_event.marker_path(path).stat().st_mtime_ns
    kept = [(found.stat().st_mtime_ns, found) for found in path.parent.glob(f"{glob.escape(path.name)}.unreadable-*")
            if not found.name.endswith(WAL_SUFFIXES[1:])]
    since = [(when, found) for when, found in kept if when >= marked]
    return max(since)[1] if since else None


def _remove_mark(journal: Path) -> None:
    """Remove a damaged mark, whatever it is (a folder in its place is moved aside instead)."""
    mark = last_event.marker_path(journal)
    try:
        mark.unlink()
    except IsADirectoryError:
        os.replace(mark, mark.with_name(f"{mark.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}"))
    except FileNotFoundError:
        pass
