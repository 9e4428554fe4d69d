"""Yacht behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.module_game import ModuleGame
from engine.yacht import codec, moves, rules
from engine.yacht.moves import Move
from engine.yacht.rules import make_variant
from engine.yacht.state import State


class Yacht(ModuleGame[State, Move]):
    """Yacht (the scorecard game sold as Yahtzee) for one or more players."""

    def __init__(self) -> None:
        super().__init__("yacht", rules, moves, codec, make_variant)


GAME = Yacht()
