"""Can't Stop behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.cant_stop import codec, moves, rules
from engine.cant_stop.moves import Move
from engine.cant_stop.state import State
from engine.cant_stop.variant import make_variant
from engine.module_game import ModuleGame


class CantStop(ModuleGame[State, Move]):
    """Sid Sackson's Can't Stop for 2 to 4 players."""

    def __init__(self) -> None:
        super().__init__("cant-stop", rules, moves, codec, make_variant)


GAME = CantStop()
