"""What every game's ``bench-advisor`` reports alike: win shares over both seatings with their
confidence interval, and decision times."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

Z_95 = 1.96


@dataclass(frozen=True)
class Duel:
    """Bot ``a`` against bot ``b``, the same number of games in each seating."""

    a: str
    b: str
    a_first: float  # a's win share moving first
    a_second: float  # a's win share moving second

    games: int  # in each seating

    @property
    def a_overall(self) -> float:
        return (self.a_first + self.a_second) / 2

    @property
    def half_width(self) -> float:
        """Half the width of the 95 % Wilson score interval of ``a_overall``: unlike the normal
        approximation it is not 0 at 0 % or 100 % (400 of 400 games won says 99.0 % to 100 %, not
        exactly 100 %)."""
        n, p, z = 2 * self.games, self.a_overall, Z_95
        return z * ((p * (1 - p) + z * z / (4 * n)) / n) ** 0.5 / (1 + z * z / n)

    def line(self) -> str:
        """The report's line for this duel."""
        return (
            f"  {self.a} vs {self.b}: {self.a} wins {100 * self.a_first:.1f}% moving first, "
            f"{100 * self.a_second:.1f}% moving second, "
            f"{100 * self.a_overall:.1f}% +- {100 * self.half_width:.1f} overall"
        )


def percentile(times_ms: list[float], share: float) -> float:
    """The time below which ``share`` of the decisions fall (nearest rank)."""
    ordered = sorted(times_ms)
    return ordered[int(share * (len(ordered) - 1))]


def timing(times_ms: list[float]) -> str:
    """Median, 95th percentile and slowest of a list of milliseconds, and how many there were."""
    return (
        f"median {percentile(times_ms, 0.5):.2f} p95 {percentile(times_ms, 0.95):.2f} "
        f"max {max(times_ms):.2f} ({len(times_ms)} decisions)"
    )


@dataclass
class TimedBot:
    """A bot that answers ``choose(state)``, each decision timed into ``times_ms`` (which several
    bots of one kind may share)."""

    bot: Any
    times_ms: list[float] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, state: Any) -> Any:
        started = time.perf_counter()
        move = self.bot.choose(state)
        self.times_ms.append((time.perf_counter() - started) * 1000)
        return move
