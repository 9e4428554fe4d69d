"""The score of a board: pure functions of the variant and the dice on it, so the table can show
the standing at any moment and the round's tally is scored by the same code."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from engine.errors import IllegalMoveError
from engine.tumblin.moves import Die
from engine.tumblin.variant import Scoring, Variant


def die_value(variant: Variant, die: Die) -> int:
    """Face times level (face plus level when adding); nothing on the 0x level, which never scores."""
    if die.level == 0:
        return 0
    return die.face * die.level if variant.scoring is Scoring.MULTIPLY else die.face + die.level


def die_scores(variant: Variant, dice: Iterable[Die]) -> tuple[int, ...]:
    """Each die's points in the order given: its value, times the number of dice on its multiplier card."""
    dice = tuple(dice)
    on_card = Counter(d.card for d in dice if d.card)
    return tuple(die_value(variant, d) * (on_card[d.card] if d.card else 1) for d in dice)


def round_scores(variant: Variant, dice: Iterable[Die]) -> tuple[int, ...]:
    """Each seat's points for these dice (a seated variant): the standing, or the round's score."""
    dice = tuple(dice)
    colours = variant.colours or ()
    scores = [0] * len(colours)
    for die, points in zip(dice, die_scores(variant, dice)):
        if die.colour not in colours:
            raise IllegalMoveError(f"no player has colour {die.colour!r}: the colours are {', '.join(colours)}")
        scores[colours.index(die.colour)] += points
    return tuple(scores)


def side_scores(variant: Variant, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Per-seat scores summed by side: per team with teams, else the scores themselves."""
    return tuple(sum(scores[seat] for seat in side) for side in variant.sides())
