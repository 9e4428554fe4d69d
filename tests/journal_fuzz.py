"""The journal fuzz: damaged journals met by ``history`` and by a starting companion.

For each journal: real games journaled and the power cut mid-turn, one damage from
:data:`damaged_journals.DAMAGES` (each in turn, the spot picked by the seed), then ``history``
(read-only: it must leave the files as they were) and a companion starting on it. Nothing may
raise but a clear refusal, and nothing may be lost: a journal kept aside must be byte for byte
what was found, and one opened in place must still hold every event the damaged file held.
Events the damage itself destroyed are counted apart; after damage to the log they must all
belong to the turn in progress.

    .venv/bin/python tests/journal_fuzz.py --journals 100 --seed 1
"""

from __future__ import annotations

import argparse
import random
import shutil
import sqlite3
import sys
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":  # run as a script: the project and these helpers on the path
    sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]

from damaged_journals import DAMAGES, LOG_DAMAGES, Crashed, Event, crashed_journal, journal_files

import firmware.games  # noqa: F401  (lists the games in the core's catalogue, as the commands do)
from firmware.core.game_setup import GameSetup
from firmware.journal.history import history_lines
from firmware.journal.journal import Journal, JournalError
from firmware.table.companion import Companion
from hardware.display import dummy_display


@dataclass
class FuzzFigures:
    """What the fuzz counted."""

    journals: int = 0
    acked: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)  # kept-aside, in-place, refused
    by_damage: dict[str, Counter[str]] = field(default_factory=dict)
    history: Counter[str] = field(default_factory=Counter)  # read, damaged-games, refused
    held: int = 0  # events the damaged files of the journals opened in place still held
    lost: list[str] = field(default_factory=list)  # events, bytes or files that did not survive: must stay empty
    destroyed_in_turn: int = 0  # acknowledged events the damage itself took, in the turn in progress
    destroyed_earlier: int = 0  # ... before it (only damage SQLite cannot see inside the file)
    tracebacks: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        """The report; the last line says whether the promise held."""
        return [
            f"journals {self.journals} acknowledged-events {self.acked}",
            *(f"  {name}: {', '.join(f'{k} {v}' for k, v in sorted(c.items()))}" for name, c in self.by_damage.items()),
            "start: " + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items())),
            "history: " + ", ".join(f"{k} {v}" for k, v in sorted(self.history.items())),
            f"in place: events the damaged files held {self.held}; destroyed by the damage itself: "
            f"{self.destroyed_in_turn} in the turn in progress, {self.destroyed_earlier} before it",
            *(f"lost: {what}" for what in self.lost),
            *(f"traceback:\n{text}" for text in self.tracebacks),
            f"tracebacks {len(self.tracebacks)} lost {len(self.lost)}",
        ]


def fuzz(journals: int, seed: int, scratch: Path, finished: int = 2) -> FuzzFigures:
    """Damage ``journals`` journals (``finished`` whole games and one cut off each) and start on them."""
    figures = FuzzFigures()
    names = list(DAMAGES)
    for number in range(journals):
        rng = random.Random(seed * 100_003 + number)
        damage = names[number % len(names)]
        crashed = crashed_journal(scratch / str(number), rng, finished)
        figures.journals += 1
        figures.acked += len(crashed.acked)
        try:
            outcome = _one(crashed, damage, rng, figures)
        except Exception:  # the fuzz's finding: nothing may escape as a traceback
            figures.tracebacks.append(f"{damage} (journal {number}): {traceback.format_exc()}")
            outcome = "traceback"
        figures.outcomes[outcome] += 1
        figures.by_damage.setdefault(damage, Counter())[outcome] += 1
        shutil.rmtree(scratch / str(number))
    return figures


def _one(crashed: Crashed, damage: str, rng: random.Random, figures: FuzzFigures) -> str:
    """Damage one journal, look at it with ``history``, start a companion on it; the outcome."""
    DAMAGES[damage](crashed.path, rng)
    found = journal_files(crashed.path)
    held = _events_held(found, crashed.folder.parent / "copy")
    _history(crashed.path, figures)
    if journal_files(crashed.path) != found:
        figures.lost.append(f"{damage}: history changed the journal's files")
    try:
        journal = Journal(crashed.path)
    except JournalError:  # e.g. a flip made it look written by a newer version: refused, left alone
        if journal_files(crashed.path) != found:
            figures.lost.append(f"{damage}: a refused journal was changed")
        return "refused"
    try:
        Companion(dummy_display(), GameSetup(), journal=journal)
        if journal.moved_aside is not None:
            if journal_files(journal.moved_aside) != found:
                figures.lost.append(f"{damage}: not kept aside byte for byte")
            return "kept-aside"
        now = {(record.id, seq, event) for record in journal.games() for seq, event in enumerate(journal.events(record.id), 1)}
    finally:
        journal.close()
    figures.held += len(held)
    figures.lost += [f"{damage}: event {event} was in the damaged file" for event in sorted(held - now)]
    for index, event in enumerate(crashed.acked):
        if event not in held:
            if index < crashed.at_turn_end and damage in LOG_DAMAGES:
                figures.lost.append(f"{damage}: event {event} of an ended turn went with the log")
            elif index < crashed.at_turn_end:
                figures.destroyed_earlier += 1
            else:
                figures.destroyed_in_turn += 1
    return "in-place"


def _events_held(found: dict[str, bytes], folder: Path) -> set[Event]:
    """The events a plain reading of the damaged files finds (on a copy: reading may write)."""
    folder.mkdir()
    try:
        for suffix, data in found.items():
            (folder / f"j{suffix}").write_bytes(data)
        db = sqlite3.connect(folder / "j")
        try:
            return {row for row in db.execute("SELECT game, seq, event FROM events") if isinstance(row[2], str)}
        except sqlite3.DatabaseError:
            return set()
        finally:
            db.close()
    finally:
        shutil.rmtree(folder)


def _history(path: Path, figures: FuzzFigures) -> None:
    """``history`` on the damaged journal: lines, or a clear refusal of an unreadable file."""
    try:
        journal = Journal(path, read_only=True)
    except JournalError:
        figures.history["refused"] += 1
        return
    try:
        lines = list(history_lines(journal))
    finally:
        journal.close()
    figures.history["read"] += 1
    figures.history["damaged-games"] += sum(" damaged: " in line for line in lines)


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description="Damage journals and start on them; count tracebacks and losses.")
    parser.add_argument("--journals", type=int, default=100, help="how many damaged journals (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="picks the games, the dice and the damaged spots")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="journal-fuzz-") as scratch:
        figures = fuzz(args.journals, args.seed, Path(scratch))
    for line in figures.lines():
        print(line)
    return 1 if figures.tracebacks or figures.lost else 0


if __name__ == "__main__":
    sys.exit(main())
