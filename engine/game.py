"""The contract every game implements, so the firmware stays game-agnostic.

A game is a set of pure functions over immutable states. Dice are an explicit chance
step (as in OpenSpiel): when ``dice_due(state)`` is above zero the player may have the
dice thrown, and the game is *told* the result with ``apply(state, roll)``; it never
rolls. Everything else the player does is one of ``legal_moves(state)``.
"""

from __future__ import annotations

from typing import Protocol, TypeVar, runtime_checkable

from engine.dice import Roll

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


@runtime_checkable
class Game(Protocol[StateT, MoveT]):
    """What the firmware needs from a game: set up, choices, apply, chance, text and JSON forms."""

    name: str

    def new_game(self, players: int, **variant: object) -> StateT:
        """The state before the first roll; refuses set-ups the rules do not allow."""
        ...

    def current_player(self, state: StateT) -> int:
        """Index (from 0) of the player whose decision or roll is due."""
        ...

    def winner(self, state: StateT) -> int | None:
        """Index of the winner once the game is over, else None."""
        ...

    def dice_due(self, state: StateT) -> int:
        """How many dice a roll needs now; 0 when no roll may be made."""
        ...

    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        """The decisions open to the current player (rolls are the chance step, not listed)."""
        ...

    def apply(self, state: StateT, move: MoveT | Roll) -> StateT:
        """The state after a decision or a told roll; the input is never changed."""
        ...

    def parse_move(self, text: str) -> MoveT | Roll:
        """A move or roll from its short text form."""
        ...

    def move_text(self, move: MoveT | Roll) -> str:
        """The short text form of a move or roll; ``parse_move`` reads it back."""
        ...

    def to_json(self, state: StateT) -> str:
        """The state as JSON text."""
        ...

    def from_json(self, text: str) -> StateT:
        """A state from JSON text; refuses anything that is not a valid state."""
        ...
