"""The immutable state: every piece on the board in the order it was placed, the stacks it forms,
the pieces each player has left, whose turn it is; and what the table reads from it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.columns.board import GRID, Board
from engine.columns.moves import COLUMNS, KINDS, LEVELS, Kind, Part, Placement

PLAYERS = 2
STOCK = (12, 3, 3, 3)
"""Each player's pieces at the start, by kind in :data:`KINDS` order (R, S, D, L)."""
TOP = LEVELS - 1
"""The level index of level 5, the only one that scores (ties: the levels below, in turn)."""

Stacks = tuple[tuple[int, ...], ...]
"""Per column 0..11, the ids of the pieces in it from level 1 up (a piece in two columns is in both)."""


@dataclass(frozen=True)
class Piece:
    """A piece on the board: whose, which placement, and the level index its own column starts at."""

    player: int
    placement: Placement
    base: int

    @property
    def kind(self) -> Kind:
        return self.placement.kind

    def cells(self) -> tuple[tuple[int, int, Part], ...]:
        """(column, level, part) of every cell it fills."""
        return tuple((column, self.base + up, part) for column, up, part in self.placement.shape())

    def name(self) -> str:
        """How messages name it: "player 2's double blocker in columns A1-A2"."""
        columns = "column" if self.placement.second is None else "columns"
        return f"player {self.player + 1}'s {self.kind.title} in {columns} {self.placement.names()}"


@dataclass(frozen=True)
class Cell:
    """What the table draws in one cell: a level of one pin's column."""

    piece: int  # the piece's id: its index in ``State.pieces`` (the order of placing)
    player: int
    kind: Kind
    part: Part


@dataclass(frozen=True)
class State:
    """Everything the rules need. ``stacks`` and ``left`` follow from ``pieces``; they are kept for speed.

    ``board`` is the layout of the pins (see :mod:`engine.columns.board`). ``over`` is True once the player to move cannot place a piece; ``winner`` is then the player
    with more roundels on level 5 (ties by the levels below), or None for a draw.
    """

    pieces: tuple[Piece, ...] = ()
    stacks: Stacks = ((),) * COLUMNS
    left: tuple[tuple[int, ...], ...] = (STOCK, STOCK)
    current: int = 0
    over: bool = False
    winner: int | None = None
    board: Board = GRID

    def height(self, column: int) -> int:
        """How many levels of ``column`` are filled (no gaps: always the lowest ones)."""
        return len(self.stacks[column])

    def top(self, column: int) -> Piece | None:
        """The piece on top of ``column``, None on an empty column."""
        stack = self.stacks[column]
        return self.pieces[stack[-1]] if stack else None


def pieces_left(state: State, player: int) -> dict[Kind, int]:
    """``player``'s pieces not yet placed, by kind."""
    return dict(zip(KINDS, state.left[player]))


def cell(state: State, column: int, level: int) -> Cell | None:
    """The cell at ``column`` 0..11, ``level`` 0..4 (level 5 is index 4), or None if empty."""
    stack = state.stacks[column]
    if level >= len(stack):
        return None
    piece = state.pieces[stack[level]]
    part = next(p for c, lv, p in piece.cells() if c == column and lv == level)
    return Cell(stack[level], piece.player, piece.kind, part)


def grid(state: State) -> tuple[tuple[Cell | None, ...], ...]:
    """The whole board for drawing: ``grid(state)[column][level]``, 12 columns of 5 levels."""
    return tuple(tuple(cell(state, c, level) for level in range(LEVELS)) for c in range(COLUMNS))


def score(state: State) -> tuple[tuple[int, ...], ...]:
    """Roundels per player per level: ``score(state)[player][level]``; the game counts level index 4
    (level 5), and on a tie level 4, then 3 and so on down."""
    counts = [[0] * LEVELS for _ in range(PLAYERS)]
    for stack in state.stacks:
        for level, piece_id in enumerate(stack):
            piece = state.pieces[piece_id]
            if piece.kind is Kind.ROUNDEL:
                counts[piece.player][level] += 1
    return tuple(map(tuple, counts))


def leader(state: State) -> int | None:
    """Who is ahead by the scoring rule (level 5, ties by the levels below); None when all are equal."""
    first, second = (row[::-1] for row in score(state))
    if first == second:
        return None
    return 0 if first > second else 1


def game_over(state: State) -> bool:
    """Whether play has ended: the player to move could not place any piece."""
    return state.over


def winner(state: State) -> int | None:
    """The winner once the game is over; None while it goes on and for a draw (see :func:`game_over`)."""
    return state.winner
