"""The game contract answered by a game's own modules, so no game repeats the plumbing."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Generic, TypeVar

from engine.dice import Roll

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class ModuleGame(Generic[StateT, MoveT]):
    """A :class:`engine.game.Game` that hands each call to the game's modules.

    ``rules`` has ``new_game(players, variant)``, ``dice_due``, ``legal_moves`` and ``apply``;
    ``moves`` has ``parse_move`` and ``move_text``; ``codec`` has ``to_json`` and ``from_json``;
    ``make_variant(**settings)`` builds the variant. States carry ``current`` and ``winner``.
    """

    def __init__(
        self,
        name: str,
        rules: ModuleType,
        moves: ModuleType,
        codec: ModuleType,
        make_variant: Callable[..., Any],
    ) -> None:
        self.name = name
        self._rules, self._moves, self._codec, self._make_variant = rules, moves, codec, make_variant

    def new_game(self, players: int, **variant: object) -> StateT:
        return self._rules.new_game(players, self._make_variant(**variant))

    def current_player(self, state: StateT) -> int:
        return state.current  # type: ignore[attr-defined]

    def winner(self, state: StateT) -> int | None:
        return state.winner  # type: ignore[attr-defined]

    def dice_due(self, state: StateT) -> int:
        return self._rules.dice_due(state)

    def legal_moves(self, state: StateT) -> tuple[MoveT, ...]:
        return self._rules.legal_moves(state)

    def apply(self, state: StateT, move: MoveT | Roll) -> StateT:
        return self._rules.apply(state, move)

    def parse_move(self, text: str) -> MoveT | Roll:
        return self._moves.parse_move(text)

    def move_text(self, move: MoveT | Roll) -> str:
        return self._moves.move_text(move)

    def to_json(self, state: StateT) -> str:
        return self._codec.to_json(state)

    def from_json(self, text: str) -> StateT:
        return self._codec.from_json(text)
