"""The last event the companion acknowledged, kept beside the journal in a small fsync'd file, so
that a start can tell whether everything it acknowledged is still there.

SQLite recovers from a damaged or deleted write-ahead log without a word: the commits still in
the log are simply gone (at most the turn in progress: the log is checkpointed at each turn's
end). ``<journal>.last`` holds the game, the number and a digest of the last acknowledged event,
written and fsync'd before the event is shown; at start the journal must hold that event, or
the events from the first missing one up to it were lost, and the companion says so.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from firmware.core.regular_file import NotRegularFile, read_regular
from firmware.journal.plain_files import NO_LINK_NO_WAIT, is_regular_or_set_aside

SUFFIX = ".last"
MOST_BYTES = 512  # a mark is about 90 bytes: more is no mark, and is never read whole
LARGEST = 2**62  # game and event numbers beyond this are no mark's (SQLite's integers end at 2**63 - 1)


class DamagedMark(ValueError):
    """The mark is there but is no mark this companion wrote: what it owed cannot be told."""


@dataclass(frozen=True)
class LastEvent:
    """Game ``game``'s event number ``seq``, with a digest of its text."""

    game: int
    seq: int
    digest: str
    journal: str | None = None  # the identity of the journal it was written for (None: by an earlier version)


LOG_LOST = "log"  # the write-ahead log was damaged or deleted: the last commits went with it
FILE_LOST = "file"  # the journal file was found empty or missing: every game in it went with it


@dataclass(frozen=True)
class Lost:
    """Acknowledged events missing from the journal: game ``game``'s events ``first`` to ``last``,
    lost with the write-ahead log or with the whole journal file (``cause``), and the earlier games
    the journal no longer holds (``earlier_games``)."""

    game: int
    first: int
    last: int
    cause: str = LOG_LOST
    earlier_games: int = 0

    @property
    def events(self) -> str:
        return f"event {self.first}" if self.first == self.last else f"events {self.first} to {self.last}"

    def sentence(self) -> str:
        verb = "was" if self.first == self.last else "were"
        if self.cause == FILE_LOST:
            earlier = {0: "", 1: ", and 1 earlier game with it"}.get(self.earlier_games,
                                                                    f", and {self.earlier_games} earlier games with it")
            return (f"game {self.game}'s {self.events} {verb} acknowledged but the journal file was found empty or "
                    f"missing{earlier}: a fresh journal starts")
        return (f"game {self.game}'s {self.events} {verb} acknowledged but {'is' if verb == 'was' else 'are'} not in "
                "the journal (its write-ahead log was damaged or deleted): play goes on from the event before")


def digest(game: int, seq: int, event: str) -> str:
    return hashlib.sha256(f"{game}\n{seq}\n{event}".encode()).hexdigest()[:16]


def marker_path(journal: Path) -> Path:
    return Path(f"{journal}{SUFFIX}")


def remember(journal: Path, game: int, seq: int, event: str, identity: str | None = None) -> None:
    """Write the marker of the event just committed (before the event is shown), signed with the
    journal's ``identity``: as a new file, fsync'd, renamed over the old one, the folder fsync'd, so
    a crash at any moment leaves either the old mark or the new one whole, never an empty or torn one."""
    body = {"game": game, "seq": seq, "digest": digest(game, seq, event)}
    if identity is not None:
        body["journal"] = identity
    text = json.dumps({**body, "check": _check(body)})
    final = marker_path(journal)
    fresh = final.with_name(final.name + ".new")
    _clear(fresh)
    handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_LINK_NO_WAIT, 0o644)  # made afresh
    with os.fdopen(handle, "w", encoding="utf-8") as marker:
        marker.write(text + "\n")
        marker.flush()
        os.fsync(marker.fileno())
    os.replace(fresh, final)
    folder = os.open(final.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def _clear(path: Path) -> None:
    """Nothing at ``path`` once this returns: a regular file is what a stop left of a mark being
    written and goes without a word; anything else is set aside (see :mod:`plain_files`)."""
    if is_regular_or_set_aside(path, "the last-event mark"):
        path.unlink()


def forget(journal: Path) -> None:
    """Remove the marker (a fresh journal has acknowledged nothing)."""
    marker_path(journal).unlink(missing_ok=True)


def recalled(journal: Path) -> LastEvent | None:
    """The marker's event; None when there is none. DamagedMark when the file there is no mark
    (empty, torn, too long, another kind of file, numbers out of range): at most MOST_BYTES of a
    regular file are read, and nothing else is opened for reading (a FIFO would hang the start)."""
    try:
        raw = read_regular(marker_path(journal), MOST_BYTES)
    except FileNotFoundError:
        return None
    except NotRegularFile as error:
        raise DamagedMark(str(error)) from None
    except OSError as error:
        raise DamagedMark(f"it cannot be read ({error.strerror})") from None
    try:
        data = json.loads(raw.decode("utf-8"))
        body = {key: data[key] for key in ("game", "seq", "digest")}
        body.update({"journal": data["journal"]} if "journal" in data else {})
    except (UnicodeDecodeError, ValueError, KeyError, TypeError) as error:
        raise DamagedMark(f"it is not a mark ({type(error).__name__})") from None
    game, seq, check = body["game"], body["seq"], body["digest"]
    if not all(type(n) is int and 1 <= n <= LARGEST for n in (game, seq)) or not isinstance(check, str):
        raise DamagedMark("its numbers are out of range")
    if not isinstance(body.get("journal", ""), str):
        raise DamagedMark("its journal is not named")
    if data.get("check") != _check(body):
        raise DamagedMark("its check does not match")
    return LastEvent(game, seq, check, body.get("journal"))


def lost_events(db: sqlite3.Connection, last: LastEvent, file_lost: bool = False) -> Lost | None:
    """The acknowledged events of the marker's game missing from the journal ``db``, if any;
    ``file_lost``: the journal file was found empty or missing at start. DamagedMark when the mark
    names a game this journal never held (a mark of another journal, or a crafted one)."""
    if file_lost:
        return Lost(last.game, 1, last.seq, FILE_LOST, last.game - 1)
    newest = db.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]
    if last.game <= newest and db.execute("SELECT 1 FROM games WHERE id = ?", (last.game,)).fetchone() is None:
        raise DamagedMark(f"it names game {last.game}, which this journal never held")
    found = db.execute("SELECT event FROM events WHERE game = ? AND seq = ?", (last.game, last.seq)).fetchone()
    if found is not None:  # there, or another event written over its number
        return None if digest(last.game, last.seq, found[0]) == last.digest else Lost(last.game, last.seq, last.seq)
    kept = db.execute("SELECT coalesce(max(seq), 0) FROM events WHERE game = ? AND seq < ?", (last.game, last.seq))
    return Lost(last.game, kept.fetchone()[0] + 1, last.seq)


def _check(body: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:8]
