"""Placements as small hashable values, their shapes on the board, and their short text forms.

On the 3x4 grid: ``R B2`` (a roundel on pin B2), ``S A3`` (a single blocker), ``D A1-A2`` or
``D A1-B1`` (a double blocker over two neighbouring pins, the lower-named first), ``L B3-C3 up`` /
``L C3-B3 down`` (the L-shaped triple: its thick column first, then its thin column, then which
way the thick end extends). Games on the row of 12 name pins by number: ``R 7``, ``D 4-5``. The
text says which board a placement is on (see :mod:`engine.columns.board`); columns are pins 0..11.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from engine.columns.board import GRID, ROW, Board
from engine.errors import StateFormatError

COLUMNS = 12
"""Pins on either board."""
LEVELS = 5


class Kind(Enum):
    """The four kinds of piece, valued by their letter in the text form."""

    ROUNDEL = "R"
    SINGLE = "S"
    DOUBLE = "D"
    TRIPLE = "L"

    @property
    def is_blocker(self) -> bool:
        return self is not Kind.ROUNDEL

    @property
    def title(self) -> str:
        """The piece's name in messages: 'roundel', 'double blocker'."""
        return _TITLES[self]


_TITLES = {
    Kind.ROUNDEL: "roundel",
    Kind.SINGLE: "single blocker",
    Kind.DOUBLE: "double blocker",
    Kind.TRIPLE: "triple blocker",
}
KINDS = tuple(Kind)
"""In the order of the stock, of ``legal_moves`` and of every per-kind tuple."""


class Orientation(Enum):
    """Which way the thick end of the L extends from its thin end."""

    UP = "up"  # flat underside: thick (c, b), (c, b+1) and thin (s, b)
    DOWN = "down"  # flat top: thick (c, b), (c, b+1) and thin (s, b+1)


class Part(Enum):
    """Which cell of its piece a cell is, so the table can draw each piece whole."""

    WHOLE = "whole"  # a roundel or a single blocker
    LEFT = "left"  # the lower-numbered column of a double
    RIGHT = "right"
    THICK_LOW = "thick-low"  # the triple's thick column, lower cell
    THICK_HIGH = "thick-high"
    THIN = "thin"


Offsets = tuple[tuple[int, int, Part], ...]
"""A shape: (column, levels above the piece's base, part) for each cell."""


def _is_column(value: object) -> bool:
    return type(value) is int and 0 <= value < COLUMNS


@dataclass(frozen=True)
class Placement:
    """One piece put on the board: its kind and where (a move of Columns).

    ``column`` is the roundel's or single's column, a double's left column, or the triple's thick
    column; ``second`` is a double's right column or the triple's thin column (a neighbour);
    ``orientation`` is the triple's only; ``board`` the layout the pins are on.
    """

    kind: Kind
    column: int
    second: int | None = None
    orientation: Orientation | None = None
    board: Board = GRID

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Kind) or not _is_column(self.column) or not isinstance(self.board, Board):
            raise StateFormatError(f"a placement names a kind and a column 0..{COLUMNS - 1}, got {self!r}")
        wide = self.kind in (Kind.DOUBLE, Kind.TRIPLE)
        if wide != (self.second is not None):
            raise StateFormatError(f"only doubles and triples name a second column, got {self!r}")
        if (self.kind is Kind.TRIPLE) != (self.orientation is not None):
            raise StateFormatError(f"only a triple names an orientation (up or down), got {self!r}")
        if self.orientation is not None and not isinstance(self.orientation, Orientation):
            raise StateFormatError(f"a triple's orientation is up or down, got {self.orientation!r}")
        if self.second is None:
            return
        name = self.board.pin_name
        if not _is_column(self.second) or not self.board.neighbours(self.column, self.second):
            second = name(self.second) if _is_column(self.second) else repr(self.second)
            raise StateFormatError(
                f"a {self.kind.title} spans two neighbouring columns on the {self.board.title}, "
                f"got {name(self.column)}-{second}"
            )
        if self.kind is Kind.DOUBLE and self.second < self.column:
            raise StateFormatError(
                f"a double is named by its lower column first: D {name(self.second)}-{name(self.column)}"
            )

    @property
    def columns(self) -> tuple[int, ...]:
        """The columns it covers, its own column first."""
        return (self.column,) if self.second is None else (self.column, self.second)

    def shape(self) -> Offsets:
        """Its cells relative to its base (the lowest level of its own column), lowest first in each column."""
        if self.second is None:
            return ((self.column, 0, Part.WHOLE),)
        if self.kind is Kind.DOUBLE:
            return ((self.column, 0, Part.LEFT), (self.second, 0, Part.RIGHT))
        thin = 0 if self.orientation is Orientation.UP else 1
        return ((self.column, 0, Part.THICK_LOW), (self.column, 1, Part.THICK_HIGH), (self.second, thin, Part.THIN))

    def sort_key(self) -> tuple[int, int, int, int]:
        """Grouped by kind (R, S, D, L), then column, then second column, then up before down."""
        orientation = 0 if self.orientation in (None, Orientation.UP) else 1
        return (KINDS.index(self.kind), self.column, -1 if self.second is None else self.second, orientation)

    def names(self) -> str:
        """Its columns as players name them: "B2", "A1-A2"."""
        return "-".join(self.board.pin_name(c) for c in self.columns)

    def text(self) -> str:
        where = self.names()
        turned = "" if self.orientation is None else f" {self.orientation.value}"
        return f"{self.kind.value} {where}{turned}"

    def __str__(self) -> str:
        return self.text()


Move = Placement

_PIN = r"([a-z]?\d{1,2})"
_TEXT = re.compile(rf"([rsdl]) {_PIN}(?:-{_PIN})?(?: (up|down))?")
_FORMS = (
    "'R B2', 'S A3', 'D A1-A2', 'L B3-C3 up' or 'L C3-B3 down' (rows A to C, pins 1 to 4; "
    "games on the row of 12: 'R 7', 'D 4-5')"
)


def parse_move(text: str) -> Placement:
    """A placement from its text form (see the module docstring); spaces and case do not matter."""
    cleaned = " ".join(str(text).strip().lower().split())
    found = _TEXT.fullmatch(cleaned)
    if not found:
        raise StateFormatError(f"a move is written like {_FORMS}, got {text!r}")
    letter, first, second, turned = found.groups()
    names = [first] + ([second] if second else [])
    board = ROW if first[0].isdigit() else GRID
    pins = [board.pin(name) if name[0].isdigit() == (board is ROW) else None for name in names]
    if None in pins:
        raise StateFormatError(f"columns on the {board.title} are {board.pin_range}, got {text!r}")
    return Placement(
        Kind(letter.upper()),
        pins[0],
        pins[1] if second else None,
        Orientation(turned) if turned else None,
        board,
    )


def move_text(move: Placement) -> str:
    """The short text form of a placement; :func:`parse_move` reads it back."""
    if not isinstance(move, Placement):
        raise StateFormatError(f"not a Columns move: {move!r}")
    return move.text()
