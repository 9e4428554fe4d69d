"""The immutable Can't Stop state: saved pieces, runners, claims, phase and variant."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.cant_stop.board import COLUMNS, HEIGHTS, column_index
from engine.cant_stop.variant import Variant
from engine.dice import Roll

Runners = tuple[tuple[int, int], ...]
"""(column, space) for each runner of the current player, sorted by column; spaces count from 1."""


class Phase(Enum):
    """What the game is waiting for."""

    ROLL = "roll"  # the current player rolls, or stops if they have runners out
    CHOOSE = "choose"  # the current player picks how to use the roll in ``State.dice``
    OVER = "over"


@dataclass(frozen=True)
class State:
    """Everything the rules need; positions count spaces from 1 (0 means not on the column)."""

    players: int
    variant: Variant = field(default_factory=Variant)
    saved: tuple[tuple[int, ...], ...] = ()
    claimed: tuple[int | None, ...] = (None,) * len(COLUMNS)
    current: int = 0
    runners: Runners = ()
    phase: Phase = Phase.ROLL
    dice: Roll | None = None
    turn: int = 1
    winner: int | None = None

    def __post_init__(self) -> None:
        if not self.saved:
            object.__setattr__(self, "saved", ((0,) * len(COLUMNS),) * self.players)

    def saved_space(self, player: int, column: int) -> int:
        """The space of ``player``'s saved piece in ``column`` (0 when none)."""
        return self.saved[player][column_index(column)]

    def runner_space(self, column: int) -> int | None:
        """The space of the current player's runner in ``column``, or None."""
        for runner_column, space in self.runners:
            if runner_column == column:
                return space
        return None

    def progress(self, column: int) -> int:
        """How far up ``column`` the current player stands, runner included."""
        space = self.runner_space(column)
        return self.saved_space(self.current, column) if space is None else space

    def owner(self, column: int) -> int | None:
        """The player who claimed ``column``, or None while it is open."""
        return self.claimed[column_index(column)]

    def claimed_by(self, player: int) -> tuple[int, ...]:
        """The columns ``player`` has claimed."""
        return tuple(c for c in COLUMNS if self.owner(c) == player)

    def is_at_top(self, column: int) -> bool:
        """Whether the current player's runner in ``column`` stands on its top space."""
        return self.runner_space(column) == HEIGHTS[column]
