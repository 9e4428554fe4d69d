"""The board's pins, their names and which pairs are side by side: the data the rules, the move
texts and the screens all read, so the real 3x4 grid and the single row older games were played
on are the same code with different data.

A pin is an index 0..11 counted row by row from the row nearest player 1. On the grid the rows
are named A (nearest player 1), B, C and the pins in a row 1..4, left to right as player 1 sees
them (``B2``); on the row the pins are named 1..12. Two pins are neighbours when they are next to
each other along a row or across the rows (never diagonally): a double or an L may lie across
any neighbouring pair.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from functools import cached_property

from engine.errors import VariantError

ROW_LETTERS = string.ascii_uppercase


@dataclass(frozen=True)
class Board:
    """A layout of pins: ``rows`` rows of ``across`` pins each."""

    name: str  # as the configuration and the journal name it: "grid", "row"
    rows: int
    across: int
    title: str  # in words: "3x4 grid"

    @property
    def pins(self) -> int:
        return self.rows * self.across

    def where(self, pin: int) -> tuple[int, int]:
        """(row, place in the row) of ``pin``, both from 0."""
        return divmod(pin, self.across)

    def pin_name(self, pin: int) -> str:
        """How players find it: "B2" on the grid, "7" on the row."""
        row, place = self.where(pin)
        return f"{ROW_LETTERS[row]}{place + 1}" if self.rows > 1 else str(place + 1)

    @cached_property
    def _by_name(self) -> dict[str, int]:
        return {self.pin_name(pin).lower(): pin for pin in range(self.pins)}

    def pin(self, name: str) -> int | None:
        """The pin named ``name`` (any case), None when the board has no such pin."""
        return self._by_name.get(name.strip().lower())

    def neighbours(self, first: int, second: int) -> bool:
        """Whether the two pins are side by side along a row or across the rows."""
        (row_a, place_a), (row_b, place_b) = self.where(first), self.where(second)
        return abs(row_a - row_b) + abs(place_a - place_b) == 1

    @cached_property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """Every neighbouring pair once, lower pin first (17 on the grid, 11 on the row)."""
        return tuple((a, b) for a in range(self.pins) for b in range(a + 1, self.pins) if self.neighbours(a, b))

    @property
    def pin_range(self) -> str:
        """The names of its pins, for messages: "A1 to C4"."""
        return f"{self.pin_name(0)} to {self.pin_name(self.pins - 1)}"


GRID = Board("grid", 3, 4, "3x4 grid")
"""The published game's board: a matrix of 3x4 pins (Out of the Box, Masterpiece collection)."""
ROW = Board("row", 1, 12, "row of 12")
"""The single row of 12 the companion assumed before it knew the real board; older games keep it."""
BOARDS = {board.name: board for board in (GRID, ROW)}


def board_named(name: object) -> Board:
    """The board called ``name``; VariantError naming the known ones otherwise."""
    if isinstance(name, str) and name in BOARDS:
        return BOARDS[name]
    raise VariantError(f"board must be {' or '.join(repr(n) for n in BOARDS)}, got {name!r}")
