"""Columns players for bot seats, demos, benchmarks and tests.

Each bot's ``choose(state)`` returns one of ``legal_moves(state)`` for the player to move; bots
never change a state. :class:`SearchBot` is the one to seat against people.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, Union

import numpy as np

from engine.columns.moves import Placement
from engine.columns.rules import legal_moves, new_game, place
from engine.columns.search import WEIGHTS, Search, Weights, ordered
from engine.columns.state import TOP, State, score

Generator = Union[random.Random, np.random.Generator]
"""A seeded source of draws: Python's ``random.Random`` or numpy's ``Generator``."""


class Bot(Protocol):
    """A player: one legal placement whenever it is its turn."""

    name: str

    def choose(self, state: State) -> Placement:
        """One of ``legal_moves(state)``."""
        ...


def draw(rng: Generator, count: int) -> int:
    """An index below ``count`` from either kind of generator."""
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(count))
    return rng.randrange(count)


def shuffled(rng: Generator, moves: Sequence[Placement]) -> list[Placement]:
    """``moves`` in an order drawn from ``rng`` (a Fisher-Yates shuffle through :func:`draw`)."""
    order = list(moves)
    for i in range(len(order) - 1, 0, -1):
        j = draw(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def score_lead(state: State, player: int) -> tuple[int, ...]:
    """``player``'s lead in roundels level by level from level 5 down: compared as the rules rank."""
    rows = score(state)
    mine, yours = rows[player], rows[1 - player]
    return tuple(mine[level] - yours[level] for level in range(TOP, -1, -1))


@dataclass
class RandomBot:
    """Any legal placement, drawn from ``rng``."""

    rng: Generator = field(default_factory=lambda: random.Random(0))
    name: str = "random"

    def choose(self, state: State) -> Placement:
        moves = legal_moves(state)
        return moves[draw(self.rng, len(moves))]


@dataclass
class GreedyBot:
    """The placement leading the score most right after it (level 5, then level 4, ... as the rules
    rank a tie), ties drawn from ``rng``: it caps whenever it can and never looks at the reply."""

    rng: Generator = field(default_factory=lambda: random.Random(0))
    name: str = "greedy"

    def choose(self, state: State) -> Placement:
        me = state.current
        return max(shuffled(self.rng, legal_moves(state)), key=lambda m: score_lead(place(state, m), me))


@dataclass
class SearchBot:
    """Alpha-beta over the next plies with a static evaluation of the race to level 5.

    ``nodes`` bounds the states one decision visits, so a decision is the same on every machine and
    every run (2500: the 3x4 grid offers a third more placements than the row it was first tuned
    on, 4000 then; 2500 keeps a decision near 45 ms on one core of this machine and still wins
    every game against the greedy bot); equal moves are put in an order drawn from ``rng``, so a
    seed picks one game among equals.
    """

    rng: Generator = field(default_factory=lambda: random.Random(0))
    nodes: int = 2500
    max_depth: int = 8
    weights: Weights = WEIGHTS
    name: str = "search"

    def choose(self, state: State) -> Placement:
        moves = ordered(state, tuple(shuffled(self.rng, legal_moves(state))))
        return Search(self.nodes, self.max_depth, self.weights).best(state, moves)


def play(bots: Sequence[Bot], state: State | None = None) -> State:
    """A whole game from ``state`` (a new one by default), bot ``i`` in seat ``i``; the final state."""
    state = state or new_game(len(bots))
    while not state.over:
        state = place(state, bots[state.current].choose(state))
    return state
