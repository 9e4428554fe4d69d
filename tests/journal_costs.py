"""What the journal's safety costs: the checks at start on 1,000 games, the checkpoint per turn.

    .venv/bin/python tests/journal_costs.py --games 1000 --seed 1

Figures are medians of a few runs on a warm file cache, on the machine it runs on.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __name__ == "__main__":  # run as a script: the project on the path
    sys.path.insert(0, str(Path(__file__).parents[1]))

from engine.cant_stop import GAME, Variant
from engine.cant_stop.bots import OddsBot, SteadyBot
import firmware.games  # noqa: F401  (lists the games in the core's catalogue, as the commands do)
from firmware.core.game_setup import GameSetup
from firmware.games.cant_stop.selfplay import play
from firmware.journal.journal import JOURNAL_NAME, SCHEMA_VERSION, Journal
from firmware.journal.rows import read_games
from table_helpers import progress

RUNS = 5


def journal_of(games: int, rng: random.Random, path: Path) -> int:
    """A journal of ``games`` finished bot games, written in one transaction; its event count."""
    Journal(path).close()
    db = sqlite3.connect(path)
    events = 0
    with db:
        for game in range(1, games + 1):
            steps = list(play((SteadyBot(), OddsBot()), rng, Variant()))
            db.execute(
                "INSERT INTO games (id, kind, names, bots, options, dice_set, started, ended, status, winner, turns) "
                "VALUES (?, 'cant-stop', ?, '[]', '{}', 'dice', ?, ?, 'finished', ?, ?)",
                (game, json.dumps(["Ann", "Bob"]), game * 1000.0, game * 1000.0 + 900, steps[-1].after.winner,
                 steps[-1].after.turn),
            )
            db.executemany(
                "INSERT INTO events (game, seq, event, at) VALUES (?, ?, ?, ?)",
                ((game, seq, GAME.move_text(step.event), game * 1000.0 + seq) for seq, step in enumerate(steps, 1)),
            )
            events += len(steps)
    db.close()
    return events


def median_ms(action: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def start_costs(path: Path) -> list[str]:
    """The checks a companion runs at start, each alone, and the whole opening."""
    db = sqlite3.connect(path)
    lines = [
        f"quick_check {median_ms(lambda: db.execute('PRAGMA quick_check').fetchall()):.0f} ms",
        f"integrity_check {median_ms(lambda: db.execute('PRAGMA integrity_check(1)').fetchall()):.0f} ms",
        f"rows that make no sense {median_ms(lambda: read_games(db, SCHEMA_VERSION)):.0f} ms",
    ]
    db.close()
    lines.append(f"whole start (lock, checks, checkpoint) {median_ms(lambda: Journal(path).close()):.0f} ms")
    lines.append(f"history's opening (read-only) {median_ms(lambda: Journal(path, read_only=True).close()):.0f} ms")
    return lines


def checkpoint_costs(folder: Path, rng: random.Random, games: int = 5) -> list[str]:
    """Commits and checkpoints timed through the real Journal, in bot games."""
    commit_ms: list[float] = []
    turn_end_ms: list[float] = []
    journal = Journal(folder / "turns.sqlite3")
    for _ in range(games):
        game = journal.start_game(GameSetup(("Ann", "Bob")))
        for step in play((SteadyBot(), OddsBot()), rng, Variant()):
            start = time.perf_counter()
            journal.append(game, GAME.move_text(step.event), progress(step.after))
            (turn_end_ms if progress(step.after).turn_over else commit_ms).append((time.perf_counter() - start) * 1000)
    journal.close()
    extra = statistics.median(turn_end_ms) - statistics.median(commit_ms)
    return [
        f"commit of an event mid-turn: median {statistics.median(commit_ms):.2f} ms ({len(commit_ms)} events)",
        f"commit + checkpoint at a turn's end: median {statistics.median(turn_end_ms):.2f} ms, "
        f"p95 {statistics.quantiles(turn_end_ms, n=20)[-1]:.2f} ms ({len(turn_end_ms)} turns); "
        f"the checkpoint adds {extra:.2f} ms a turn, {extra * len(turn_end_ms) / (len(commit_ms) + len(turn_end_ms)):.2f} ms an event",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description="Time the journal's checks at start and its checkpoint per turn.")
    parser.add_argument("--games", type=int, default=1000, help="finished games in the journal checked at start")
    parser.add_argument("--seed", type=int, default=1, help="picks the dice of the bot games")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="journal-costs-", dir=Path.home()) as scratch:
        path = Path(scratch) / JOURNAL_NAME
        events = journal_of(args.games, rng, path)
        print(f"journal of {args.games} games, {events} events, {path.stat().st_size / 1e6:.1f} MB")
        for line in [*start_costs(path), *checkpoint_costs(Path(scratch), rng)]:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
