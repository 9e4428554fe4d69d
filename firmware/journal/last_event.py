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

SUFFIX = ".last"


@dataclass(frozen=True)
class LastEvent:
    """Game ``game``'s event number ``seq``, with a digest of its text."""

    game: int
    seq: int
    digest: str


@dataclass(frozen=True)
class Lost:
    """Acknowledged events missing from the journal: game ``game``'s events ``first`` to ``last``."""

    game: int
    first: int
    last: int

    def sentence(self) -> str:
        events = f"event {self.first}" if self.first == self.last else f"events {self.first} to {self.last}"
        return (f"game {self.game}'s {events} were acknowledged but are not in the journal "
                "(its write-ahead log was damaged or deleted): play goes on from the event before")


def digest(game: int, seq: int, event: str) -> str:
    return hashlib.sha256(f"{game}\n{seq}\n{event}".encode()).hexdigest()[:16]


def marker_path(journal: Path) -> Path:
    return Path(f"{journal}{SUFFIX}")


def remember(journal: Path, game: int, seq: int, event: str) -> None:
    """Write the marker of the event just committed and fsync it (before the event is shown)."""
    body = {"game": game, "seq": seq, "digest": digest(game, seq, event)}
    text = json.dumps({**body, "check": _check(body)})
    with open(marker_path(journal), "w", encoding="utf-8") as marker:
        marker.write(text + "\n")
        marker.flush()
        os.fsync(marker.fileno())


def forget(journal: Path) -> None:
    """Remove the marker (a fresh journal has acknowledged nothing)."""
    marker_path(journal).unlink(missing_ok=True)


def recalled(journal: Path) -> LastEvent | None:
    """The marker's event; None when there is none, or when it was torn by a crash while written
    (its check fails: the event it was being written for was not yet shown, so nothing is owed)."""
    try:
        data = json.loads(marker_path(journal).read_text(encoding="utf-8"))
        body = {key: data[key] for key in ("game", "seq", "digest")}
        if data.get("check") != _check(body):
            return None
        return LastEvent(int(body["game"]), int(body["seq"]), str(body["digest"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def lost_events(db: sqlite3.Connection, last: LastEvent) -> Lost | None:
    """The acknowledged events of the marker's game missing from the journal ``db``, if any."""
    found = db.execute("SELECT event FROM events WHERE game = ? AND seq = ?", (last.game, last.seq)).fetchone()
    if found is not None:  # there, or another event written over its number
        return None if digest(last.game, last.seq, found[0]) == last.digest else Lost(last.game, last.seq, last.seq)
    kept = db.execute("SELECT coalesce(max(seq), 0) FROM events WHERE game = ? AND seq < ?", (last.game, last.seq))
    return Lost(last.game, kept.fetchone()[0] + 1, last.seq)


def _check(body: dict[str, object]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:8]
