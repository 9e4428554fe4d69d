"""Columns' ``bench-advisor``: the search bot against the greedy and the random bot, and how long
it thinks.

Columns has no dice, so what makes the games of a match differ is the bots' draws among equal
moves: game ``i`` seeds every bot with ``random.Random(seed * 100_003 + i)`` (the second seat
with ``+ 1``), the same in both seatings. A draw counts as a game not won. Every decision of the
search bot is timed. The last line is a contract other tools read:
``best: search vs-greedy NN.N% +- N.N ms-per-decision N.N`` (win rate over both seatings, the
half-width of its 95 % confidence interval, the median milliseconds per decision).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.columns.board import GRID
from engine.columns.bots import Bot, GreedyBot, RandomBot, SearchBot, play
from firmware.bench.progress import progress
from firmware.bench.stats import Duel, TimedBot, percentile, timing

MakeBot = Callable[[random.Random], Bot]


@dataclass
class Timed:
    """Makes bots whose every decision is timed into one list, in milliseconds."""

    make: MakeBot
    name: str
    times_ms: list[float] = field(default_factory=list)

    def __call__(self, rng: random.Random) -> Bot:
        return TimedBot(self.make(rng), self.times_ms)


@dataclass(frozen=True)
class Seating:
    won: float  # the first seat's share of wins
    drawn: int


def seating(first: Timed, second: Timed, games: int, seed: int) -> Seating:
    """``games`` games with ``first`` moving first."""
    wins = draws = 0
    for game in progress(range(games), f"{first.name} vs {second.name}"):
        game_seed = seed * 100_003 + game
        final = play((first(random.Random(game_seed)), second(random.Random(game_seed + 1))))
        wins += final.winner == 0
        draws += final.winner is None
    return Seating(wins / games, draws)


def duel(a: Timed, b: Timed, games: int, seed: int) -> tuple[Duel, int]:
    """``a`` against ``b`` in both seatings, and how many games were drawn."""
    first, second = seating(a, b, games, seed), seating(b, a, games, seed)
    return Duel(a.name, b.name, first.won, 1 - second.won - second.drawn / games, games), first.drawn + second.drawn


def bench_lines(games: int, seed: int) -> Iterator[str]:
    """The report, line by line; the last one is the contract line (see the module docstring)."""
    search = Timed(lambda rng: SearchBot(rng), "search")
    greedy = Timed(lambda rng: GreedyBot(rng), "greedy")
    rand = Timed(lambda rng: RandomBot(rng), "random")
    yield (
        f"Columns on the {GRID.title} (the default board): {games} games in each seating, "
        "the bots' draws seeded alike in both; a draw is not a win"
    )
    versus_greedy, draws = duel(search, greedy, games, seed)  # first: its figures come as soon as they are known
    yield f"{versus_greedy.line()}; {draws} drawn"
    for a, b in ((search, rand), (greedy, rand)):
        result, draws = duel(a, b, games, seed)
        yield f"{result.line()}; {draws} drawn"
    yield "ms per decision:"
    yield f"  {search.name:<8} {timing(search.times_ms)}"
    yield f"  {greedy.name:<8} {timing(greedy.times_ms)}"
    yield (
        f"best: search vs-greedy {100 * versus_greedy.a_overall:.1f}% +- {100 * versus_greedy.half_width:.1f} "
        f"ms-per-decision {percentile(search.times_ms, 0.5):.1f}"
    )
