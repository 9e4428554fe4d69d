"""``bench-advisor``: the bots in solitaire and against each other, and how long they think.

Solitaire is the published measure (Glenn & Aloi 2009): the mean number of turns a bot needs to
claim three columns alone. Two-player games are played in both seatings with the same dice
seeds. Decisions are timed one by one (choose a split, decide whether to stop).
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.cant_stop import Advance, State
from engine.cant_stop.advisor import Advisor
from engine.cant_stop.bots import Bot, RandomBot
from engine.cant_stop.rule28 import Rule28
from firmware.bench.progress import progress
from firmware.bench.stats import Z_95, Duel, timing
from firmware.games.cant_stop.selfplay import play, solitaire_turns

@dataclass
class TimedBot:
    """A bot whose every decision is timed (milliseconds), splits and stops apart."""

    bot: Bot
    choose_ms: list[float] = field(default_factory=list)
    stop_ms: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.bot.name

    @property
    def times_ms(self) -> list[float]:
        return self.choose_ms + self.stop_ms

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        started = time.perf_counter()
        choice = self.bot.choose(state, options)
        self.choose_ms.append((time.perf_counter() - started) * 1000)
        return choice

    def should_stop(self, state: State) -> bool:
        started = time.perf_counter()
        stop = self.bot.should_stop(state)
        self.stop_ms.append((time.perf_counter() - started) * 1000)
        return stop


@dataclass(frozen=True)
class Solitaire:
    name: str
    mean_turns: float
    half_width: float  # of the 95 % confidence interval


def solitaire(bot: TimedBot, games: int, seed: int) -> Solitaire:
    rng = random.Random(seed)
    turns = [solitaire_turns(bot, rng) for _ in progress(range(games), f"{bot.name} solitaire")]
    spread = statistics.stdev(turns) if len(turns) > 1 else 0.0
    return Solitaire(bot.name, statistics.mean(turns), Z_95 * spread / len(turns) ** 0.5)


def win_share(first: TimedBot, second: TimedBot, games: int, seed: int) -> float:
    """The share of ``games`` the first seat wins, dice seeded per game."""
    wins = 0
    for game in progress(range(games), f"{first.name} vs {second.name}"):
        *_, last = play((first, second), random.Random(seed * 100_003 + game))
        wins += last.after.winner == 0
    return wins / games


def bench_lines(games: int, seed: int) -> Iterator[str]:
    """The report; its last line names the strongest bot (fewest solitaire turns)."""
    bots = [TimedBot(RandomBot(random.Random(seed))), TimedBot(Rule28()), TimedBot(Advisor())]
    yield f"solitaire: mean turns to claim 3 columns, 95% confidence interval, {games} games each"
    results = {}
    for bot in bots:
        results[bot.name] = solitaire(bot, games, seed)
        yield f"  {bot.name:<8} {results[bot.name].mean_turns:6.2f} +- {results[bot.name].half_width:.2f}"
    yield f"2-player win rates, {games} games in each seating, the same dice seeds in both"
    duels: dict[tuple[str, str], Duel] = {}
    for a, b in itertools.combinations(bots, 2):
        duel = Duel(a.name, b.name, win_share(a, b, games, seed), 1 - win_share(b, a, games, seed), games)
        duels[(a.name, b.name)] = duel
        yield duel.line()
    yield "ms per decision:"
    for bot in bots:
        yield f"  {bot.name:<8} split: {timing(bot.choose_ms)}; stop: {timing(bot.stop_ms)}"
    speeds = {bot.name: statistics.median(bot.times_ms) for bot in bots}
    best = min(results.values(), key=lambda r: r.mean_turns).name
    versus = 0.5 if best == "rule28" else _overall(duels, best, "rule28")
    yield (
        f"best: {best} solitaire-turns {results[best].mean_turns:.2f} vs-rule28 {100 * versus:.1f}% "
        f"ms-per-decision {speeds[best]:.1f}"
    )


def _overall(duels: dict[tuple[str, str], Duel], name: str, other: str) -> float:
    """``name``'s overall win share against ``other``, whichever way round they were played."""
    if (name, other) in duels:
        return duels[(name, other)].a_overall
    return 1 - duels[(other, name)].a_overall
