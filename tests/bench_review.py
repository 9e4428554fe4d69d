"""How long the review of a game takes (issue 54: 2 s or less for a 4-player Yacht game and a
30-turn Can't Stop game on the development machine, a Pi's core being about four times slower),
and that the advisor's own games give nothing away.

    .venv/bin/python tests/bench_review.py [--seed 1] [--repeat 3]

Games are played by bots on seeded dice and journaled as the companion journals them; each review
is timed from the journal (read, replayed, every decision valued and graded), the fastest of
``--repeat``, after the Yacht advisor's table is read (once per process, timed apart).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import firmware.games  # noqa: E402,F401  (lists the games)
from engine.cant_stop.advisor import Advisor as CantStopAdvisor  # noqa: E402
from engine.cant_stop.rule28 import Rule28  # noqa: E402
from engine.columns.bots import GreedyBot as ColumnsGreedy, SearchBot  # noqa: E402
from engine.counters.advisor import Advisor as CountersAdvisor  # noqa: E402
from engine.counters.bots import GreedyBot as CountersGreedy  # noqa: E402
from engine.dice import Roll  # noqa: E402
from engine.yacht.advisor import Advisor as YachtAdvisor  # noqa: E402
from engine.yacht.bots import GreedyBot as YachtGreedy, RandomBot as YachtRandom  # noqa: E402
from firmware.core.catalogue import table_game  # noqa: E402
from firmware.games.cant_stop.selfplay import play as cant_stop_play  # noqa: E402
from firmware.games.yacht.advisor_table import advisor_table  # noqa: E402
from firmware.journal.journal import JOURNAL_NAME, Journal  # noqa: E402
from firmware.review.game_review import GameReview, journaled_review  # noqa: E402
from test_review import journaled  # noqa: E402


def seats_game(kind: str, seats: list[Callable[[Any], Any]], rng: random.Random) -> list[tuple[str, str | None]]:
    """A whole game, seat ``i`` decided by ``seats[i]``, dice from ``rng``, as journal events."""
    engine = table_game(kind).engine
    state, events = engine.new_game(len(seats)), []
    while not table_game(kind).progress(state).over:
        due = engine.dice_due(state)
        move = Roll(tuple(rng.randint(1, 6) for _ in range(due))) if due else seats[engine.current_player(state)](state)
        events.append((engine.move_text(move), "camera" if due else None))
        state = engine.apply(state, move)
    return events


def cant_stop_game(bots: tuple[Any, ...], rng: random.Random) -> tuple[list[tuple[str, str | None]], int]:
    steps = list(cant_stop_play(bots, rng))
    events = [(step.event.text(), "camera" if isinstance(step.event, Roll) else None) for step in steps]
    return events, steps[-1].after.turn


def timed(path: Path, game: int, repeat: int) -> tuple[GameReview, float]:
    best = float("inf")
    for _ in range(repeat):
        journal = Journal(path, read_only=True)
        started = time.perf_counter()
        review = journaled_review(journal, game)
        best = min(best, time.perf_counter() - started)
        journal.close()
    return review, best


def given(review: GameReview) -> str:
    return ", ".join(f"{p.name} {p.given_away:.1f}" for p in review.totals())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    started = time.perf_counter()
    table = advisor_table()
    print(f"yacht advisor's table read and checked in {time.perf_counter() - started:.2f} s (once per process)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / JOURNAL_NAME
        rng = random.Random(args.seed)
        optimal = YachtAdvisor(table)
        line_up = [optimal.choose, YachtGreedy().choose, YachtRandom(random.Random(args.seed)).choose, optimal.choose]
        events = seats_game("yacht", line_up, rng)
        game = journaled(path, "yacht", ("Ann", "Bob", "Cy", "Di"), events)
        review, took = timed(path, game, args.repeat)
        print(f"yacht 4 players (advisor, greedy, random, advisor) {len(events)} events {len(review.decisions)} decisions: "
              f"review {took:.2f} s; given away: {given(review)} points")
        events = seats_game("yacht", [optimal.choose] * 4, rng)
        game = journaled(path, "yacht", ("Ann", "Bob", "Cy", "Di"), events)
        review, took = timed(path, game, args.repeat)
        print(f"yacht 4 advisors {len(events)} events {len(review.decisions)} decisions: review {took:.2f} s; "
              f"given away: {given(review)} points (target 0.0 each)")
        turns, events, tries = 0, [], 0
        while turns < 30:  # the first seeded game of at least 30 turns
            tries += 1
            events, turns = cant_stop_game((CantStopAdvisor(), Rule28(), CantStopAdvisor(), Rule28()), rng)
        game = journaled(path, "cant-stop", ("Ann", "Bob", "Cy", "Di"), events)
        review, took = timed(path, game, args.repeat)
        print(f"cant-stop 4 players (advisor, rule28, advisor, rule28) {turns} turns {len(events)} events "
              f"{len(review.decisions)} decisions: review {took:.2f} s; given away: {given(review)} % chance to win")
        counters = CountersAdvisor()
        events = seats_game("counters", [counters.choose, CountersGreedy().choose], rng)
        game = journaled(path, "counters", ("Ann", "Bob"), events)
        review, took = timed(path, game, args.repeat)
        print(f"counters 2 players (advisor, greedy) {len(events)} events {len(review.decisions)} decisions: "
              f"review {took:.2f} s; given away: {given(review)} % chance to win")
        events = seats_game("columns", [SearchBot().choose, ColumnsGreedy().choose], rng)
        game = journaled(path, "columns", ("Ann", "Bob"), events)
        review, took = timed(path, game, args.repeat)
        print(f"columns 2 players (search, greedy) {len(events)} events {len(review.decisions)} decisions: "
              f"review {took:.2f} s; given away: {given(review)} roundels")


if __name__ == "__main__":
    main()
