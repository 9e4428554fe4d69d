"""Exact bust odds of the next roll, counted over all 6**4 = 1296 ordered throws."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from engine.cant_stop.board import DICE
from engine.cant_stop.rules import pairings, usable_columns
from engine.cant_stop.state import State
from engine.dice import all_rolls

THROWS = 6**DICE


@cache
def _sums_by_roll() -> tuple[tuple[frozenset[int], int], ...]:
    """For each distinct roll, every sum its splits can make, with the roll's weight."""
    return tuple(
        (frozenset(s for pair in pairings(roll.dice) for s in pair), weight)
        for roll, weight in all_rolls(DICE)
    )


@cache
def busting_throws(usable: frozenset[int]) -> int:
    """How many of the 1296 throws make no sum in ``usable`` (so leave no legal choice)."""
    return sum(weight for sums, weight in _sums_by_roll() if not sums & usable)


def bust_probability(state: State) -> Fraction:
    """The exact chance that the next roll busts, for the current runners and claims.

    A roll busts exactly when none of its sums can be placed alone: whenever one sum of a
    split can be placed, the rules give the player at least that choice.
    """
    return Fraction(busting_throws(usable_columns(state)), THROWS)
