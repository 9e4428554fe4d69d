"""Counters to the Top's ``bench-advisor``: the advisor against the greedy and the random bot, and how long it thinks.

Two-player games are played in both seatings with the same dice seeds in both (game ``i`` throws
from ``random.Random(seed * 100_003 + i)``), through the engine's public contract: the engine
never rolls, so the dice due (``dice_due``) come from that generator. Every decision is timed.
The last line is a contract other tools read:
``best: advisor vs-greedy NN.N% +- N.N ms-per-decision N.N`` (win rate over both seatings, the
half-width of its 95 % confidence interval, the median milliseconds per decision).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.counters import Move, Phase, State
from engine.counters.advisor import Advisor
from engine.counters.bots import Bot, GreedyBot, RandomBot, play
from firmware.bench import stats as bench_stats
from firmware.bench.progress import progress
from firmware.bench.stats import Duel, percentile, timing


@dataclass
class TimedBot(bench_stats.TimedBot):
    """A timed bot that also keeps apart its decisions after a turn's first throw."""

    first_ms: list[float] = field(default_factory=list)  # after a turn's first throw: the advisor plans the turn

    def choose(self, state: State) -> Move:
        move = super().choose(state)
        if state.phase is Phase.CHOOSE and state.throws == 1:
            self.first_ms.append(self.times_ms[-1])
        return move


def win_share(first: Bot, second: Bot, games: int, seed: int) -> float:
    """The share of ``games`` the first seat wins, dice seeded per game."""
    wins = 0
    for game in progress(range(games), f"{first.name} vs {second.name}"):
        wins += play((first, second), random.Random(seed * 100_003 + game)).winner == 0
    return wins / games


def duel(a: Bot, b: Bot, games: int, seed: int) -> Duel:
    return Duel(a.name, b.name, win_share(a, b, games, seed), 1 - win_share(b, a, games, seed), games)


def bench_lines(games: int, seed: int) -> Iterator[str]:
    """The report, line by line; the last one is the contract line (see the module docstring)."""
    advisor = TimedBot(Advisor())
    greedy = TimedBot(GreedyBot())
    rand = TimedBot(RandomBot(random.Random(seed)))
    yield f"Counters to the Top, 2 players: {games} games in each seating, the same dice seeds in both"
    versus_greedy = duel(advisor, greedy, games, seed)
    yield versus_greedy.line()
    yield duel(advisor, rand, games, seed).line()
    yield duel(greedy, rand, games, seed).line()
    yield "ms per decision:"
    yield f"  {advisor.name:<8} {timing(advisor.times_ms)}"
    yield f"  {advisor.name:<8} after a turn's first throw: {timing(advisor.first_ms)}"
    yield f"  {greedy.name:<8} {timing(greedy.times_ms)}"
    yield (
        f"best: advisor vs-greedy {100 * versus_greedy.a_overall:.1f}% +- {100 * versus_greedy.half_width:.1f} "
        f"ms-per-decision {percentile(advisor.times_ms, 0.5):.1f}"
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in each seating (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed for the dice and the random bot (default 1)")
    args = parser.parse_args()
    for text in bench_lines(args.games, args.seed):
        print(text, flush=True)
