"""The immutable state: every player's counters, the dice on the table, and what is due next."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.counters.board import Board

Positions = tuple[tuple[int, ...], ...]
"""Per player, per column 0..6: the square of that counter (0 is the bottom row)."""

IN_SPACE_TO_WIN = {2: 5, 3: 4, 4: 4}


class Phase(Enum):
    """What the game is waiting for."""

    HANDICAP = "handicap"  # the current player moves their set-up advantage
    THROW = "throw"  # dice are due: all five at a turn's start, the others after a keep
    CHOOSE = "choose"  # the current player keeps some dice, takes an option, or passes
    ROCKET = "rocket"  # the current player moves a counter the extra square a rocket gave
    OVER = "over"


@dataclass(frozen=True)
class State:
    """Everything the rules need; the board travels with it, so a saved game keeps its board.

    ``dice`` are the five on the table after a throw (sorted), empty otherwise; ``kept`` the dice
    set aside while the others are thrown again; ``throws`` counts this turn's throws (0..3);
    ``rockets`` the rocket squares still to move; ``turn`` counts turns from 1 (0 while the
    handicap is being moved).
    """

    board: Board
    positions: Positions
    current: int = 0
    phase: Phase = Phase.HANDICAP
    dice: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    throws: int = 0
    rockets: int = 0
    turn: int = 0
    winner: int | None = None
    handicap: str = "apart"  # the handicap's reading (engine.counters.variant.HANDICAPS)

    @property
    def players(self) -> int:
        return len(self.positions)

    def square(self, player: int, column: int) -> int:
        """The square of ``player``'s counter in ``column``."""
        return self.positions[player][column]

    def at_top(self, player: int, column: int) -> bool:
        """Whether ``player``'s counter in ``column`` stands on its top square."""
        return self.positions[player][column] == self.board[column].top


def counters_in_space(state: State, player: int) -> int:
    """How many of ``player``'s counters stand above the white line of stars."""
    return sum(spec.in_space(square) for spec, square in zip(state.board.columns, state.positions[player]))


def counters_at_bottom(state: State, player: int) -> int:
    """How many of ``player``'s counters are still on the bottom row (square 0)."""
    return state.positions[player].count(0)


def has_reached_goal(state: State, player: int) -> bool:
    """The winning condition: four counters in space (five with two players), none at the bottom."""
    return (
        counters_in_space(state, player) >= IN_SPACE_TO_WIN[state.players]
        and counters_at_bottom(state, player) == 0
    )


def has_wild_card(state: State, player: int) -> bool:
    """Whether ``player`` has a counter on a blue star, which makes their dice wild cards."""
    row = state.positions[player]
    return any(square in spec.blue_stars for spec, square in zip(state.board.columns, row))
