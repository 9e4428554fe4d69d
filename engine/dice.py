"""Rolls of six-sided dice: the chance step every game is told, never performs."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cache

from engine.errors import InvalidRollError, StateFormatError

FACES = (1, 2, 3, 4, 5, 6)

_ROLL_TEXT = re.compile(r"roll ([1-6](?:-[1-6])*)")
_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True, order=True)
class Roll:
    """The face values of the dice that were thrown, kept sorted so equal rolls compare equal."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.dice or not all(_is_face(d) for d in self.dice):
            raise _bad_dice(tuple(self.dice))
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def text(self) -> str:
        """The short text form, for example ``roll 1-4-5-6``."""
        return "roll " + "-".join(str(d) for d in self.dice)

    def __str__(self) -> str:
        return self.text()


EXAMPLE_ROLLS = {4: (1, 4, 5, 6), 5: (1, 3, 3, 5, 6)}  # what a game's error messages show a roll of its dice as


def parse_roll(text: str, dice: int = 4) -> Roll:
    """Parse ``roll 1-4-5-6`` (the inverse of :meth:`Roll.text`); an error shows a roll of the
    game's own ``dice`` as the example."""
    match = _ROLL_TEXT.fullmatch(text.strip().lower())
    if match is None:
        example = EXAMPLE_ROLLS.get(dice) or tuple(sorted(face % 6 + 1 for face in range(dice)))
        raise StateFormatError(f"a roll is written like '{Roll(example).text()}', got {text!r}")
    return Roll(tuple(int(d) for d in match.group(1).split("-")))


def make_roll(dice: tuple[int, ...] | list[int], count: int) -> Roll:
    """A roll of exactly ``count`` dice, or an error naming the count and the values received."""
    dice = tuple(dice)
    if len(dice) != count or not all(_is_face(d) for d in dice):
        raise _bad_dice(dice, count)
    return Roll(dice)


def check_roll(roll: Roll, count: int) -> None:
    """Refuse a roll with the wrong number of dice for this chance step."""
    if len(roll.dice) != count:
        raise _bad_dice(roll.dice, count)


def _is_face(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value in FACES


def _bad_dice(dice: tuple[object, ...], count: int | None = None) -> InvalidRollError:
    how_many = "" if count is None else _COUNT_WORDS.get(count, str(count)) + " "
    return InvalidRollError(f"dice must be {how_many}values from 1 to 6, got {dice}")


@cache
def all_rolls(count: int) -> tuple[tuple[Roll, int], ...]:
    """Every distinct roll of ``count`` dice with how many of the 6**count ordered throws give it."""
    weights: dict[tuple[int, ...], int] = {}
    for throw in itertools.product(FACES, repeat=count):
        key = tuple(sorted(throw))
        weights[key] = weights.get(key, 0) + 1
    return tuple((Roll(dice), weight) for dice, weight in sorted(weights.items()))
