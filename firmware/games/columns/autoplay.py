"""Columns' bots at the buttons, for the demo and the kill test: on the board screen they find
their placement in the list and walk to it as a player would, with ROLL (the next kind of piece),
NEXT and STOP (one step either way), whichever takes fewest presses, then SELECT."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.columns import Placement
from firmware.core.table_game import AutoPress
from firmware.drawing.screens import Screen
from firmware.games.columns.choices import next_kind
from firmware.games.columns.screens import PlaceScreen, ResultScreen
from hardware.buttons import Press


def walk(moves: Sequence[Placement], cursor: int, target: int) -> tuple[Press, ...]:
    """The fewest presses from ``cursor`` to ``target``: NEXT or STOP steps, or ROLL jumps first."""
    count = len(moves)
    paths = [(Press.NEXT,) * ((target - cursor) % count), (Press.STOP,) * ((cursor - target) % count)]
    jumps: list[Press] = []
    at = cursor
    for _ in range(len({move.kind for move in moves})):
        at = next_kind(moves, at)
        jumps.append(Press.ROLL)
        paths.append((*jumps, *(Press.NEXT,) * ((target - at) % count)))
        paths.append((*jumps, *(Press.STOP,) * ((at - target) % count)))
    return min(paths, key=len)


@dataclass(frozen=True)
class ColumnsSeats:
    """Seat ``i`` is played by ``bots[i]`` (each answers ``choose(state)`` with a legal placement)."""

    bots: tuple[Any, ...]
    names: tuple[str, ...]

    @classmethod
    def demo(cls, seed: int) -> ColumnsSeats:
        """The demo's line-up: the search bot against the greedy one."""
        from engine.columns.bots import GreedyBot, SearchBot

        return cls((SearchBot(random.Random(seed)), GreedyBot(random.Random(seed + 1))), ("Search", "Greedy"))

    def presses_for(self, screen: Screen) -> AutoPress | None:
        if isinstance(screen, ResultScreen):
            return AutoPress((Press.QUIT,))
        if not isinstance(screen, PlaceScreen):
            return None
        if screen.cursor != 0:
            return AutoPress(())  # already walking to its placement
        move = self.bots[screen.state.current].choose(screen.state)
        return AutoPress((*walk(screen.moves, 0, screen.moves.index(move)), Press.SELECT), decision=True)
