"""Simple Can't Stop players, for demos, benchmarks and tests.

A bot answers the two decisions the rules leave to a player: which split to use, and
whether to stop. It never sees or throws dice; whoever runs it tells the engine the roll.
The random bot draws from a generator it is given, so its games repeat with the seed.
The benchmark strategies are in :mod:`engine.cant_stop.rule28` and :mod:`engine.cant_stop.advisor`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from engine.cant_stop.board import HEIGHTS
from engine.cant_stop.moves import Advance
from engine.cant_stop.odds import bust_probability
from engine.cant_stop.state import State


class Bot(Protocol):
    """A player's two decisions."""

    name: str

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        """One of ``options`` (the legal splits of the pending roll)."""
        ...

    def should_stop(self, state: State) -> bool:
        """Whether to bank now rather than roll again (asked only when stopping is legal)."""
        ...


def spaces_gained(state: State) -> int:
    """How many spaces the current player's runners have climbed this turn."""
    return sum(space - state.saved_space(state.current, column) for column, space in state.runners)


def stopping_wins(state: State) -> bool:
    """Whether banking now would claim enough columns to win."""
    tops = sum(space == HEIGHTS[column] for column, space in state.runners)
    return len(state.claimed_by(state.current)) + tops >= state.variant.columns_to_win


def _split_value(state: State, option: Advance) -> float:
    """Prefer climbing with runners already out, and short columns (fewer spaces to the top)."""
    value = 0.0
    for column in option.columns:
        value += 1.0 / HEIGHTS[column]
        if state.runner_space(column) is None:
            value -= 0.05
    return value


def _best_split(state: State, options: tuple[Advance, ...]) -> Advance:
    return max(options, key=lambda option: (_split_value(state, option), option))


@dataclass(frozen=True)
class SteadyBot:
    """Banks once all runners are out and it has climbed ``target`` spaces this turn."""

    target: int = 5
    name: str = "steady"

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        return _best_split(state, options)

    def should_stop(self, state: State) -> bool:
        if stopping_wins(state):
            return True
        return len(state.runners) == 3 and spaces_gained(state) >= self.target


@dataclass(frozen=True)
class OddsBot:
    """Banks when the exact bust odds of the next roll reach ``limit`` or a runner tops out."""

    limit: Fraction = Fraction(1, 4)
    name: str = "odds"

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        return _best_split(state, options)

    def should_stop(self, state: State) -> bool:
        if stopping_wins(state) or any(state.is_at_top(column) for column, _ in state.runners):
            return True
        return bust_probability(state) >= self.limit and spaces_gained(state) >= 2


@dataclass
class RandomBot:
    """Any legal split; stops with probability ``stop_chance`` whenever it may (and always when that wins)."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    stop_chance: float = 0.5
    name: str = "random"

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        return self.rng.choice(options)

    def should_stop(self, state: State) -> bool:
        return stopping_wins(state) or self.rng.random() < self.stop_chance
