"""Get Your Counters to the Top behind the engine's game contract (see :class:`engine.game.Game`)."""

from __future__ import annotations

from engine.counters import codec, moves, rules
from engine.counters.moves import Move
from engine.counters.state import State
from engine.counters.variant import make_variant
from engine.module_game import ModuleGame


class CountersToTheTop(ModuleGame[State, Move]):
    """Klaus-Jürgen Wrede's Get Your Counters to the Top (moses. 90337) for 2 to 4 players."""

    def __init__(self) -> None:
        super().__init__("counters", rules, moves, codec, make_variant)


GAME = CountersToTheTop()
