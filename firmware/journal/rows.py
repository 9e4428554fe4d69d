"""The journal's rows read as values, and the rows that make no sense found out.

A flipped bit can leave a row SQLite reads happily (a names value that is not JSON, a winner
who is not a player, a timestamp that is a word, an event stored as a blob, a missing event):
such a row is damage, to be kept aside like an unreadable file, never a crash at start.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace

from engine.errors import EngineError
from firmware.core.catalogue import UnknownGameError
from firmware.core.game_setup import DICE_SET_ALLOWED, GameSetup, is_dice_set

PLAYING, FINISHED, ABANDONED = "playing", "finished", "abandoned"
CAMERA, HAND = "camera", "hand"  # where a roll's dice were read: events.source
SOURCES = (CAMERA, HAND)
LEGACY_DICE_SET = GameSetup.dice_set  # the dice of games journaled before version 4: the default label
LAST_TIME = 253_402_300_800.0  # 10000-01-01, in seconds since the epoch
LEGACY_KIND = "cant-stop"  # journals before version 3 held only Can't Stop games, its two options as columns
LEGACY_OPTIONS = "json_object('rule', rule, 'columns_to_win', columns_to_win)"
# Event rows that make no sense, as (game, why); what append writes never matches.
# Each kind of damage an event can show, asked apart: a reader's statement holds the log only while
# it runs, and a turn's end waits for the readers of an older snapshot (one statement of four scans
# held it past its wait when pages polled a journal of 1,000 games)
_BAD_EVENTS = (
    "SELECT game, 'event ' || quote(seq) || ' is not a numbered text with a time' FROM events"
    " WHERE typeof(game) != 'integer' OR typeof(seq) != 'integer' OR seq < 1 OR typeof(event) != 'text'"
    " OR typeof(at) NOT IN ('real', 'integer') OR at < 0 OR at >= {last_time}",
    "SELECT game, 'event ' || quote(seq) || ' has an unknown source ' || quote({source}) FROM events"
    " WHERE {source} IS NOT NULL AND {source} NOT IN ({sources})",
    "SELECT game, 'events of a game that is not in the journal' FROM events WHERE game NOT IN (SELECT id FROM games)",
    "SELECT game, 'events missing: ' || count(*) || ' numbered up to ' || max(seq) FROM events"
    " GROUP BY game HAVING count(*) != max(seq)",
)


class DamagedRow(sqlite3.DatabaseError):
    """A row that makes no sense: the journal is damaged."""


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


@dataclass(frozen=True)
class DamagedGame:
    """A game whose row or events make no sense, and why."""

    id: object
    why: str


def games_columns(version: int) -> str:
    """The ``games`` columns as :func:`game_record` reads them, in a journal of ``version`` (1 had no
    bots, 2 no kind and options, 3 no dice set)."""
    if version >= 4:
        return "id, kind, names, bots, options, dice_set, started, ended, status, winner, turns"
    if version == 3:
        return f"id, kind, names, bots, options, '{LEGACY_DICE_SET}', started, ended, status, winner, turns"
    bots = "bots" if version == 2 else "'[]'"
    return f"id, '{LEGACY_KIND}', names, {bots}, {LEGACY_OPTIONS}, '{LEGACY_DICE_SET}', started, ended, status, winner, turns"


def source_column(version: int) -> str:
    """``events.source`` as a query reads it in a journal of ``version`` (before 4, none was kept)."""
    return "source" if version >= 4 else "NULL"


def game_record(row: tuple[object, ...]) -> GameRecord:
    """The game in a ``games`` row (columns as :func:`games_columns`); DamagedRow if it makes no sense."""
    game, kind, names, bots, options, dice_set, started, ended, status, winner, turns = row
    players = _names(names, "names")
    seats = _names(bots, "bots")
    if not set(seats) <= set(players):
        raise DamagedRow(f"bots {bots!r} are not some of the players {players}")
    if not is_dice_set(dice_set):
        raise DamagedRow(f"dice_set {dice_set!r} is not {DICE_SET_ALLOWED}")
    stored = _options(options)
    setup = GameSetup(players, seats, kind=kind, options=stored, dice_set=dice_set)  # type: ignore[arg-type]  # checked next
    try:
        unknown = sorted(set(setup.options) - {option.key for option in setup.game.options})
        if unknown:
            raise DamagedRow(f"options {options!r}: {unknown[0]!r} is not an option of {kind}")
        older = {o.key: o.legacy for o in setup.game.options if o.legacy is not None and o.key not in stored}
        setup = replace(setup, options={**older, **setup.options})  # played before the option existed: as then
        setup.check()
    except (EngineError, UnknownGameError) as error:
        raise DamagedRow(str(error)) from None
    if not _is_time(started) or not (ended is None or _is_time(ended)):
        raise DamagedRow(f"started {started!r} or ended {ended!r} is not a time")
    if status not in (PLAYING, FINISHED, ABANDONED):
        raise DamagedRow(f"status {status!r} is not {PLAYING}, {FINISHED} or {ABANDONED}")
    is_seat = type(winner) is int and 0 <= winner < len(players)  # type: ignore[operator]
    if winner is not None and (not is_seat or status != FINISHED):
        raise DamagedRow(f"winner {winner!r} does not fit a {status} game of {len(players)} players")
    if winner is None and status == FINISHED and not setup.game.draws:
        raise DamagedRow(f"a finished game of {kind} has no winner, and {kind} cannot be drawn")
    if type(turns) is not int or turns < 1:
        raise DamagedRow(f"turns {turns!r} is not a count of turns")
    return GameRecord(game, setup, started, ended, status, winner, turns)  # type: ignore[arg-type]  # checked above


def read_games(db: sqlite3.Connection, version: int) -> tuple[list[GameRecord], list[DamagedGame]]:
    """Every game of a journal of ``version``, oldest first: those that make sense, and the damaged
    ones (row or events)."""
    known = ", ".join(f"'{source}'" for source in SOURCES)
    bad_events: dict[object, str] = {}
    for query in _BAD_EVENTS:  # the last kind found in a game names it, as when they were one UNION ALL
        bad_events.update(db.execute(query.format(last_time=LAST_TIME, source=source_column(version), sources=known)))
    sound: list[GameRecord] = []
    damaged = [DamagedGame(game, why) for game, why in bad_events.items()]
    rows = db.execute(f"SELECT {games_columns(version)} FROM games ORDER BY id").fetchall()  # then let go
    for row in rows:  # checked with the read over: a reader must not hold the log while it works
        try:
            record = game_record(row)
        except DamagedRow as error:
            damaged.append(DamagedGame(row[0], str(error)))
            continue
        if record.id not in bad_events:
            sound.append(record)
    firsts = dict(db.execute("SELECT game, event FROM events WHERE seq = 1").fetchall())
    for record in [r for r in sound if isinstance(firsts.get(r.id), str)]:
        why = _misfit(record, firsts[record.id])
        if why:
            damaged.append(DamagedGame(record.id, why))
            sound.remove(record)
    playing = [record for record in sound if record.status == PLAYING]
    for record in playing[:-1]:  # the companion plays one game at a time: a start ends the one before
        damaged.append(DamagedGame(record.id, f"marked as being played, as is game {playing[-1].id}: "
                                              "only the last game can be unfinished"))
        sound.remove(record)
    return sound, damaged


def read_game(db: sqlite3.Connection, version: int, game: int) -> GameRecord | None:
    """One sound game of a journal of ``version`` read from its own rows (the page's ``/games/N``:
    every game's events are not read for one); None when there is no such game or it is damaged,
    by the same rules as :func:`read_games`. A number no SQLite integer can hold is no game."""
    if not -(2**63) <= game < 2**63:
        return None
    row = db.execute(f"SELECT {games_columns(version)} FROM games WHERE id = ?", (game,)).fetchone()
    if row is None:
        return None
    known = ", ".join(f"'{source}'" for source in SOURCES)
    for query in _BAD_EVENTS:
        mine = f"SELECT 1 FROM ({query.format(last_time=LAST_TIME, source=source_column(version), sources=known)}) " \
               "WHERE game = ? LIMIT 1"
        if db.execute(mine, (game,)).fetchone() is not None:
            return None
    try:
        record = game_record(row)
    except DamagedRow:
        return None
    first = db.execute("SELECT event FROM events WHERE game = ? AND seq = 1", (game,)).fetchone()
    if first is not None and isinstance(first[0], str) and _misfit(record, first[0]):
        return None
    if record.status == PLAYING and db.execute(
            "SELECT 1 FROM games WHERE status = ? AND id > ? LIMIT 1", (PLAYING, game)).fetchone() is not None:
        return None
    return record


def _misfit(record: GameRecord, first: str) -> str:
    """Why the game's first event cannot open a game of its kind ("": it can): a row whose kind
    was changed reads as sound, but its events belong to another game. One move is replayed per
    game, so the check stays cheap on a journal of 1,000 games."""
    engine = record.setup.game.engine
    try:
        engine.apply(record.setup.new_state(), engine.parse_move(first))
    except EngineError as error:
        return f"its first event {first!r} cannot open a game of {record.setup.kind} ({error}): its kind does not fit its events"
    return ""


def _names(text: object, column: str) -> tuple[str, ...]:
    """A JSON list of names, as stored in ``games.names`` and ``games.bots``."""
    try:
        names = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):  # not JSON, or nested past any sense
        names = None
    if not isinstance(names, list) or not all(isinstance(name, str) and name for name in names):
        raise DamagedRow(f"{column} {text!r} is not a JSON list of names")
    return tuple(names)


def _options(text: object) -> dict[str, object]:
    """A JSON object of set-up options, as stored in ``games.options``."""
    try:
        options = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        options = None
    if not isinstance(options, dict):
        raise DamagedRow(f"options {text!r} is not a JSON object of set-up options")
    return options


def _is_time(value: object) -> bool:
    """Seconds since the epoch, from 1970 to the end of year 9999 (what ``time.localtime`` shows)."""
    return type(value) in (int, float) and 0 <= value < LAST_TIME  # type: ignore[operator]
