"""Can't Stop behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.cant_stop import codec, moves, rules
from engine.cant_stop.moves import Move
from engine.cant_stop.state import State
from engine.cant_stop.variant import make_variant
from engine.dice import Roll


class CantStop:
    """Sid Sackson's Can't Stop for 2 to 4 players."""

    name = "cant-stop"

    def new_game(self, players: int, **variant: object) -> State:
        return rules.new_game(players, make_variant(**variant))

    def current_player(self, state: State) -> int:
        return state.current

    def winner(self, state: State) -> int | None:
        return state.winner

    def dice_due(self, state: State) -> int:
        return rules.dice_due(state)

    def legal_moves(self, state: State) -> tuple[Move, ...]:
        return rules.legal_moves(state)

    def apply(self, state: State, move: Move | Roll) -> State:
        return rules.apply(state, move)

    def parse_move(self, text: str) -> Move | Roll:
        return moves.parse_move(text)

    def move_text(self, move: Move | Roll) -> str:
        return moves.move_text(move)

    def to_json(self, state: State) -> str:
        return codec.to_json(state)

    def from_json(self, text: str) -> State:
        return codec.from_json(text)


GAME = CantStop()
