"""Moves as small hashable values with short text forms that round-trip exactly.

``keep 3-3-5`` and ``keep none`` (set dice aside and throw the others again), ``score full-house``
(write the dice in a box, ending the turn); the dice themselves are told as rolls (``roll 1-3-3-5-6``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from engine.dice import Roll, parse_roll
from engine.errors import StateFormatError
from engine.keeps import DICE, Keep, parse_keep
from engine.yacht.boxes import Box, parse_box

__all__ = ["Keep", "Move", "Score", "move_text", "parse_move"]


@dataclass(frozen=True)
class Score:
    """Write the five dice on the table in ``box``; the turn ends."""

    box: Box

    def __post_init__(self) -> None:
        if not isinstance(self.box, Box):
            raise StateFormatError(f"score needs a Box, got {self.box!r}")

    def text(self) -> str:
        return f"score {self.box.value}"

    def __str__(self) -> str:
        return self.text()


Move = Union[Keep, Score]

_FORMS = "'keep 3-3-5', 'keep none', 'score full-house' or 'roll 1-3-3-5-6'"


def parse_move(text: str) -> Move | Roll:
    """A move or a roll from its text form (see the module docstring); spaces and case are forgiven."""
    cleaned = " ".join(text.strip().lower().split())
    word, _, rest = cleaned.partition(" ")
    if word == "roll":
        return parse_roll(cleaned, DICE)
    if word == "score" and rest:
        return Score(parse_box(rest))
    keep = parse_keep(rest) if word == "keep" else None
    if keep is None:
        raise StateFormatError(f"a move is written like {_FORMS}, got {text!r}")
    return keep


def move_text(move: Move | Roll) -> str:
    """The short text form of a move or roll; :func:`parse_move` reads it back."""
    return move.text()
