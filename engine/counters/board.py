"""The board of Get Your Counters to the Top: seven columns of squares, their stars and rockets.

The printed board's layout is not published, so it is data (``default_board.toml``, an assumed
layout a player edits to match theirs), checked as it is read, never code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Iterable

from engine.errors import VariantError

COLUMN_NAMES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "S")
STRAIGHT = 6
"""Index of the Straight column; columns 0..5 belong to the faces 1..6."""

SPECIALS = ("pink_stars", "blue_stars", "rockets")
KEYS = ("top", "space_from", *SPECIALS)


class BoardError(VariantError):
    """A board description that is not a playable board (each message names column and key)."""


def column_name(column: int) -> str:
    """The printed name of a column index: "1".."6" or "S"."""
    return COLUMN_NAMES[column]


def column_index(name: str) -> int:
    """The index of a column from its name ("1".."6" or "S", any case)."""
    cleaned = name.strip().upper()
    if cleaned not in COLUMN_NAMES:
        raise BoardError(f"there is no column {name!r}; the columns are {', '.join(COLUMN_NAMES)}")
    return COLUMN_NAMES.index(cleaned)


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_squares(where: str, key: str, squares: Iterable[object], top: int) -> None:
    for square in squares:
        if not _is_whole(square) or not 1 <= square <= top:  # type: ignore[operator]
            raise BoardError(f"{where}: {key} must be square numbers from 1 to {top}, got {square!r}")


@dataclass(frozen=True)
class ColumnSpec:
    """One column: square 0 is the bottom row where counters start, ``top`` the highest square."""

    name: str
    top: int
    space_from: int
    pink_stars: frozenset[int] = field(default_factory=frozenset)
    blue_stars: frozenset[int] = field(default_factory=frozenset)
    rockets: frozenset[int] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        where = f"column {self.name}"
        if not _is_whole(self.top) or self.top < 1:
            raise BoardError(f"{where}: top must be a whole number of at least 1, got {self.top!r}")
        if not _is_whole(self.space_from) or not 1 <= self.space_from <= self.top:
            raise BoardError(
                f"{where}: space_from must be a square number from 1 to {self.top} (the top), "
                f"so that the column reaches space, got {self.space_from!r}"
            )
        for key in SPECIALS:
            squares = getattr(self, key)
            if not isinstance(squares, frozenset):
                raise BoardError(f"{where}: {key} must be a set of square numbers, got {squares!r}")
            _check_squares(where, key, squares, self.top)
        for both, what in (
            (self.rockets & (self.pink_stars | self.blue_stars), "a rocket and a star"),
            (self.pink_stars & self.blue_stars, "a pink and a blue star"),
        ):
            if both:
                raise BoardError(f"{where}: square {min(both)} is both {what}")

    def is_star(self, square: int) -> bool:
        """Whether a counter on ``square`` is hidden from cool-downs (a pink or blue star)."""
        return square in self.pink_stars or square in self.blue_stars

    def in_space(self, square: int) -> bool:
        """Whether ``square`` lies above the white line of stars."""
        return square >= self.space_from


@dataclass(frozen=True)
class Board:
    """The seven columns in order: the faces 1..6, then the Straight column."""

    columns: tuple[ColumnSpec, ...]

    def __post_init__(self) -> None:
        names = tuple(getattr(c, "name", None) for c in self.columns)
        if names != COLUMN_NAMES or not all(isinstance(c, ColumnSpec) for c in self.columns):
            raise BoardError(
                f"a board has the seven columns {', '.join(COLUMN_NAMES)} in that order, got {names}"
            )

    def __getitem__(self, column: int) -> ColumnSpec:
        return self.columns[column]


def board_to_dict(board: Board) -> dict[str, Any]:
    """The board as plain data, in the shape of the TOML file (and of a saved game's board)."""
    return {
        "columns": {
            spec.name: {
                "top": spec.top,
                "space_from": spec.space_from,
                **{key: sorted(getattr(spec, key)) for key in SPECIALS},
            }
            for spec in board.columns
        }
    }


def board_from_dict(data: object) -> Board:
    """A board from plain data (a parsed TOML file or a saved game's board); refuses any flaw."""
    if not isinstance(data, dict):
        raise BoardError(f"a board must be a table with a 'columns' table, got {type(data).__name__}")
    unknown = sorted(set(data) - {"columns"}, key=str)
    if unknown:
        raise BoardError(f"unknown board key {unknown[0]!r}; a board has only 'columns'")
    columns = data.get("columns")
    if not isinstance(columns, dict):
        raise BoardError("a board needs a 'columns' table with one table per column")
    extra = sorted(set(columns) - set(COLUMN_NAMES), key=str)
    if extra:
        raise BoardError(f"unknown column {extra[0]!r}; the columns are {', '.join(COLUMN_NAMES)}")
    missing = [name for name in COLUMN_NAMES if name not in columns]
    if missing:
        raise BoardError(
            f"the board lacks column {', '.join(missing)}; it needs all of {', '.join(COLUMN_NAMES)}"
        )
    return Board(tuple(_column_from_dict(name, columns[name]) for name in COLUMN_NAMES))


def _column_from_dict(name: str, data: object) -> ColumnSpec:
    where = f"column {name}"
    if not isinstance(data, dict):
        raise BoardError(f"{where}: must be a table of {', '.join(KEYS)}, got {data!r}")
    unknown = sorted(set(data) - set(KEYS), key=str)
    if unknown:
        raise BoardError(f"{where}: unknown key {unknown[0]!r}; known: {', '.join(KEYS)}")
    for key in ("top", "space_from"):
        if key not in data:
            raise BoardError(f"{where}: {key} is missing")
    plain = ColumnSpec(name, data["top"], data["space_from"])  # checks top and space_from first
    specials: dict[str, frozenset[int]] = {}
    for key in SPECIALS:
        squares = data.get(key, [])
        if not isinstance(squares, list):
            raise BoardError(f"{where}: {key} must be a list of square numbers, got {squares!r}")
        _check_squares(where, key, squares, plain.top)
        if len(set(squares)) != len(squares):
            raise BoardError(f"{where}: {key} lists a square twice: {squares}")
        specials[key] = frozenset(squares)
    return ColumnSpec(name, plain.top, plain.space_from, **specials)


def board_from_toml(text: str) -> Board:
    """A board from the text of a board file (the format is described in ``default_board.toml``)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BoardError(f"the board file is not valid TOML: {error}") from None
    return board_from_dict(data)


@cache
def default_board() -> Board:
    """The board shipped with the package (an assumed layout: see the file's header)."""
    text = resources.files("engine.counters").joinpath("default_board.toml").read_text("utf-8")
    return board_from_toml(text)
