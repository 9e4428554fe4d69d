"""Columns behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.columns import codec, moves, rules
from engine.columns.moves import Placement
from engine.columns.state import State
from engine.columns.variant import make_variant
from engine.module_game import ModuleGame


class Columns(ModuleGame[State, Placement]):
    """Columns (Pin International, 2001) for two players: no dice, pieces told with the buttons."""

    def __init__(self) -> None:
        super().__init__("columns", rules, moves, codec, make_variant)


GAME = Columns()
