"""Can't Stop moves as small hashable values with short text forms (``6+10``, ``7+7``, ``stop``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from engine.cant_stop.board import COLUMNS
from engine.dice import Roll, parse_roll
from engine.errors import StateFormatError

_ADVANCE_TEXT = re.compile(r"([1-9][0-9]?)(?:\+([1-9][0-9]?))?")


@dataclass(frozen=True, order=True)
class Advance:
    """Use one or both sums of a split: each entry advances that column one space.

    ``Advance((6, 10))`` is "6+10"; ``Advance((7,))`` is "7"; ``Advance((7, 7))`` moves the
    runner in column 7 two spaces.
    """

    columns: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.columns) <= 2 or not all(
            type(c) is int and c in COLUMNS for c in self.columns
        ):
            raise StateFormatError(
                f"an advance names one or two columns from 2 to 12, got {self.columns}"
            )
        object.__setattr__(self, "columns", tuple(sorted(self.columns)))

    def text(self) -> str:
        return "+".join(str(c) for c in self.columns)

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Stop:
    """Bank the runners: they become saved pieces and the turn passes."""

    def text(self) -> str:
        return "stop"

    def __str__(self) -> str:
        return self.text()


STOP = Stop()

Move = Union[Advance, Stop]


def parse_move(text: str) -> Move | Roll:
    """A move or a roll from its text: ``6+10``, ``7``, ``7+7``, ``stop``, ``roll 1-4-5-6``."""
    cleaned = text.strip().lower()
    if cleaned == "stop":
        return STOP
    if cleaned.startswith("roll"):
        return parse_roll(cleaned)
    match = _ADVANCE_TEXT.fullmatch(cleaned)
    if match is None:
        raise StateFormatError(
            f"a move is written like '6+10', '7', '7+7', 'stop' or 'roll 1-4-5-6', got {text!r}"
        )
    return Advance(tuple(int(g) for g in match.groups() if g is not None))


def move_text(move: Move | Roll) -> str:
    """The short text form of a move or roll."""
    return move.text()
