"""Tumblin' Dice behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.module_game import ModuleGame
from engine.tumblin import codec, moves, rules
from engine.tumblin.moves import Move
from engine.tumblin.state import State
from engine.tumblin.variant import make_variant


class Tumblin(ModuleGame[State, Move]):
    """Tumblin' Dice for 2 to 4 players: flicks and card events told with the buttons, the board read by the camera."""

    def __init__(self) -> None:
        super().__init__("tumblin", rules, moves, codec, make_variant)


GAME = Tumblin()
