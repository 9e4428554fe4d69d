"""Yacht players for demos, benchmarks and tests: random, greedy and the optimal advisor.

A bot answers every decision the engine asks for (phase CHOOSE): which dice to keep or which box
to score; its answer is always one of ``legal_moves(state)``. Bots never roll: whoever runs them
tells the engine the roll (:func:`play` does so from a seeded generator).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.dice import Roll
from engine.keeps import DICE, Keep
from engine.yacht.advisor import Advisor
from engine.yacht.boxes import SMALL_RUNS, Box, points_for
from engine.yacht.moves import Move, Score
from engine.yacht.rules import MAX_ROLLS, apply, dice_due, legal_moves, new_game
from engine.yacht.state import Phase, State

MADE = frozenset({Box.YACHT, Box.LARGE_STRAIGHT, Box.FULL_HOUSE})
"""Boxes the greedy bot scores as soon as they are its best: rolling on cannot score them higher."""


class Bot(Protocol):
    """A player: one legal move for every decision the engine asks of the current player."""

    name: str

    def choose(self, state: State) -> Move:
        """One of ``legal_moves(state)`` (phase CHOOSE)."""
        ...


@dataclass
class RandomBot:
    """Any legal keep or score, drawn from ``rng``."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    name: str = "random"

    def choose(self, state: State) -> Move:
        return self.rng.choice(legal_moves(state))


def best_score_now(state: State) -> Score:
    """The legal box where the dice score most now (ties: the first on the card)."""
    scores = [m for m in legal_moves(state) if isinstance(m, Score)]
    return max(scores, key=lambda m: points_for(state.card, m.box, state.dice))


def run_to_keep(dice: tuple[int, ...]) -> tuple[int, ...] | None:
    """One die of each face of a four-long run among the dice (the highest run), else None."""
    runs = [run for run in SMALL_RUNS if run <= set(dice)]
    return tuple(sorted(max(runs, key=max))) if runs else None


def largest_group(dice: tuple[int, ...]) -> tuple[int, ...]:
    """The dice of the largest group of equal faces (ties: the higher face), at most four."""
    counts = Counter(dice)
    face = max(counts, key=lambda f: (counts[f], f))
    return (face,) * min(counts[face], DICE - 1)


@dataclass(frozen=True)
class GreedyBot:
    """Scores the box that scores most now; until then keeps toward it.

    After the third roll, or when the best box is a Yacht, a large straight or a full house
    (:data:`MADE`) that scores (not a 0 taken while rolls are left), it scores the best box. Otherwise it keeps a four-long run while the large
    straight is open, scores a small straight at once when it is not, and else keeps its largest
    group of equal faces.
    """

    name: str = "greedy"

    def choose(self, state: State) -> Move:
        best = best_score_now(state)
        if state.rolls >= MAX_ROLLS or (best.box in MADE and points_for(state.card, best.box, state.dice) > 0):
            return best
        run = run_to_keep(state.dice)
        if run is not None and state.card[Box.LARGE_STRAIGHT.index] is None:
            return Keep(run)
        if best.box is Box.SMALL_STRAIGHT:
            return best
        return Keep(largest_group(state.dice))


OptimalBot = Advisor
"""The optimal solitaire player: it maximises its own expected final score, whatever the others have."""


def throw(rng: random.Random, count: int) -> Roll:
    """``count`` fair dice from ``rng``."""
    return Roll(tuple(rng.randint(1, 6) for _ in range(count)))


def play(bots: Sequence[Bot], rng: random.Random) -> State:
    """A whole game, bot ``i`` in seat ``i``, the dice thrown from ``rng``; the final state."""
    state = new_game(len(bots))
    while state.phase is not Phase.OVER:
        due = dice_due(state)
        state = apply(state, throw(rng, due) if due else bots[state.current].choose(state))
    return state
