"""Simple Get Your Counters to the Top players, for demos, benchmarks and tests.

A bot answers every decision the engine asks for: the handicap (phase HANDICAP), which dice to
keep or which option to take (CHOOSE), and where a rocket's square goes (ROCKET); its answer is
always one of ``legal_moves(state)``. Bots never throw dice: whoever runs them tells the engine
the roll (:func:`play` does so from a seeded generator). The strongest player, deciding by exact
expectation, is :class:`engine.counters.advisor.Advisor`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from engine.counters.moves import DICE, PASS, Handicap, Keep, Move, Rocket, Take
from engine.counters.options import Kind, Option
from engine.counters.rules import MAX_THROWS, apply, dice_due, handicap_columns, legal_moves, new_game
from engine.counters.state import Phase, State, has_wild_card
from engine.counters.variant import Variant
from engine.dice import Roll

GREEDY_STOPS = frozenset({Kind.FIVE, Kind.FOUR, Kind.FULL_HOUSE, Kind.SMALL, Kind.BIG})
"""Kinds the greedy bot takes as soon as it sees them, rather than throwing again."""


class Bot(Protocol):
    """A player: one legal move for every decision the engine asks of the current player."""

    name: str

    def choose(self, state: State) -> Move:
        """One of ``legal_moves(state)`` (phase HANDICAP, CHOOSE or ROCKET)."""
        ...


def squares_moved(state: State, option: Option) -> int:
    """Squares the option would move the current player's counters; squares past a top are lost."""
    row = state.positions[state.current]
    return sum(min(group.squares, state.board[group.column].top - row[group.column]) for group in option.groups)


def squares_to_space(state: State, column: int) -> int:
    """How far the current player's counter in ``column`` stands below space (0 once in space)."""
    return max(0, state.board[column].space_from - state.square(state.current, column))


def nearest_space(state: State, columns: Sequence[int]) -> list[int]:
    """``columns`` with the counters nearest space first (those already in space last), ties by column."""
    return sorted(columns, key=lambda c: (squares_to_space(state, c) == 0, squares_to_space(state, c), c))


def sensible_handicap(state: State) -> Handicap:
    """The handicap moving the counters nearest space (the Straight column first on an empty board),
    in columns no earlier player's handicap took."""
    free = [column for column in range(len(state.board.columns)) if column not in handicap_columns(state)]
    return Handicap(tuple(nearest_space(state, free)[: state.current]))


def sensible_rocket(state: State) -> Rocket:
    """The rocket square for the counter nearest space (or, all being there, any below its top)."""
    moves = legal_moves(state)
    best = nearest_space(state, [m.column for m in moves if isinstance(m, Rocket)])[0]
    return Rocket(best)


def sensible_extra(state: State) -> Handicap | Rocket | None:
    """The simple bots' handicap or rocket square (nearest space); None in the other phases."""
    if state.phase is Phase.HANDICAP:
        return sensible_handicap(state)
    if state.phase is Phase.ROCKET:
        return sensible_rocket(state)
    return None


def largest_group(state: State) -> tuple[int, ...]:
    """The dice of the largest group of equal faces whose counter can still climb (ties: the higher face).

    With a blue star's wild card every face can climb. None when no face can (all their columns are full).
    """
    counts = Counter(state.dice)
    wild = has_wild_card(state, state.current)
    useful = [face for face in counts if wild or not state.at_top(state.current, face - 1)]
    if not useful:
        return ()
    face = max(useful, key=lambda f: (counts[f], f))
    return (face,) * min(counts[face], DICE - 1)


@dataclass
class RandomBot:
    """Any legal keep, option or pass, drawn from ``rng``; sensible handicaps and rockets (nearest space)."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    name: str = "random"

    def choose(self, state: State) -> Move:
        return sensible_extra(state) or self.rng.choice(legal_moves(state))


@dataclass(frozen=True)
class GreedyBot:
    """Takes the best-scoring option now, else keeps the dice of its largest group.

    The score is the squares moved, forfeited squares counting as lost (ties: the engine's order).
    After throw 1 or 2 it takes the best option at once if that is a five, a four, a full house or
    a straight (:data:`GREEDY_STOPS`); otherwise it keeps its :func:`largest_group` and throws the
    rest again. After the third throw it takes the best option, or passes when there is none.
    Handicaps and rockets go to the counters nearest space.
    """

    name: str = "greedy"

    def choose(self, state: State) -> Move:
        extra = sensible_extra(state)
        if extra:
            return extra
        moves = legal_moves(state)
        takes = [m for m in moves if isinstance(m, Take)]
        best = max(takes, key=lambda m: squares_moved(state, m.option)) if takes else None
        if state.throws >= MAX_THROWS or (best is not None and best.option.kind in GREEDY_STOPS):
            return best or PASS
        return Keep(largest_group(state))


def throw(rng: random.Random, count: int) -> Roll:
    """``count`` fair dice from ``rng``."""
    return Roll(tuple(rng.randint(1, 6) for _ in range(count)))


def play(
    bots: Sequence[Bot], rng: random.Random, variant: Variant | None = None, max_turns: int = 10_000
) -> State:
    """A whole game, bot ``i`` in seat ``i``, the dice thrown from ``rng``; the final state.

    RuntimeError if nobody has won after ``max_turns`` turns (a guard against a bot that never climbs).
    """
    state = new_game(len(bots), variant)
    while state.phase is not Phase.OVER:
        if state.turn > max_turns:
            raise RuntimeError(f"no winner after {max_turns} turns: {', '.join(b.name for b in bots)}")
        due = dice_due(state)
        state = apply(state, throw(rng, due) if due else bots[state.current].choose(state))
    return state
