"""Moves as small hashable values with short text forms that round-trip exactly.

``handicap 1-3-S``, ``keep 4-4-6``, ``keep none``, ``take full-house 3>1+2>4``, ``rocket S``,
``pass``; the dice themselves are told as rolls (``roll 1-2-4-4-6``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from engine.counters.board import STRAIGHT, column_index, column_name
from engine.counters.options import Option, parse_option
from engine.dice import Roll, parse_roll
from engine.errors import StateFormatError
from engine.keeps import DICE, Keep, parse_keep

__all__ = ["DICE", "Handicap", "Keep", "Move", "PASS", "Pass", "Rocket", "Take", "move_text", "parse_move"]

MAX_HANDICAP = 3

_COLUMNS_TEXT = re.compile(r"[1-6s](?:-[1-6s])*")


def _is_column(value: object) -> bool:
    return type(value) is int and 0 <= value <= STRAIGHT


class _Written:
    """A move prints as its text form."""

    def text(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Handicap(_Written):
    """The set-up advantage: one square up in each of these different columns."""

    columns: tuple[int, ...]

    def __post_init__(self) -> None:
        columns = tuple(self.columns)
        if not all(map(_is_column, columns)):
            raise StateFormatError(f"a handicap names columns from 0 to {STRAIGHT}, got {columns}")
        if not 1 <= len(columns) <= MAX_HANDICAP or len(set(columns)) != len(columns):
            names = "-".join(column_name(c) for c in columns) or "none"
            raise StateFormatError(f"a handicap names 1 to {MAX_HANDICAP} different columns, got {names}")
        object.__setattr__(self, "columns", tuple(sorted(columns)))

    def text(self) -> str:
        return "handicap " + "-".join(column_name(c) for c in self.columns)


@dataclass(frozen=True)
class Take(_Written):
    """Use the dice on the table as ``option``; the turn then ends (after any rockets)."""

    option: Option

    def __post_init__(self) -> None:
        if not isinstance(self.option, Option):
            raise StateFormatError(f"take needs an Option, got {self.option!r}")

    def text(self) -> str:
        return f"take {self.option.text()}"


@dataclass(frozen=True)
class Rocket(_Written):
    """A rocket's extra square, for the counter in ``column``."""

    column: int

    def __post_init__(self) -> None:
        if not _is_column(self.column):
            raise StateFormatError(f"a rocket names a column from 0 to {STRAIGHT}, got {self.column!r}")

    def text(self) -> str:
        return f"rocket {column_name(self.column)}"


@dataclass(frozen=True)
class Pass(_Written):
    """After a third throw that forms no option at all: the turn passes."""

    def text(self) -> str:
        return "pass"


PASS = Pass()

Move = Union[Handicap, Keep, Take, Rocket, Pass]

_FORMS = "'handicap 1-3-S', 'keep 4-4-6', 'keep none', 'take pair 4', 'rocket S', 'pass' or 'roll 1-2-4-4-6'"


def parse_move(text: str) -> Move | Roll:
    """A move or a roll from its text form (see the module docstring)."""
    cleaned = " ".join(text.strip().lower().split())
    word, _, rest = cleaned.partition(" ")
    if cleaned == "pass":
        return PASS
    if word == "roll":
        return parse_roll(cleaned, DICE)
    if word == "take" and rest:
        return Take(parse_option(rest))
    keep = parse_keep(rest) if word == "keep" else None
    if keep is not None:
        return keep
    if word == "handicap" and _COLUMNS_TEXT.fullmatch(rest):
        return Handicap(tuple(column_index(name) for name in rest.split("-")))
    if word == "rocket" and _COLUMNS_TEXT.fullmatch(rest) and "-" not in rest:
        return Rocket(column_index(rest))
    raise StateFormatError(f"a move is written like {_FORMS}, got {text!r}")


def move_text(move: Move | Roll) -> str:
    """The short text form of a move or roll; :func:`parse_move` reads it back."""
    return move.text()
