"""The game's bots at the buttons, for the demo and the kill test: they read the screen and press
what a player would, keeping dice by choosing the keep from the list (so the throw that follows
leaves those dice in the simulated tray)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.counters import Keep, Phase, State
from engine.counters.moves import DICE
from firmware.core.table_game import AutoPress
from firmware.drawing.screens import Screen
from firmware.games.five_dice import demo_line_up
from firmware.games.counters.choices import listed
from firmware.games.counters.screens import (
    BotHandicapScreen,
    BotTurnScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
)
from hardware.buttons import Press
from hardware.camera import Toss


def _throw(state: State) -> AutoPress:
    """ROLL after throwing what is due: the dice not kept, or all five."""
    kept = state.kept if state.phase is Phase.THROW else ()
    return AutoPress((Press.ROLL,), toss=Toss(DICE - len(kept), kept), decision=state.phase is Phase.THROW)


@dataclass(frozen=True)
class CountersSeats:
    """Seat ``i`` is played by ``bots[i]`` (each answers ``choose(state)`` with a legal move)."""

    bots: tuple[Any, ...]
    names: tuple[str, ...]

    @classmethod
    def demo(cls, seats: int, seed: int) -> CountersSeats:
        """The demo's line-up: the advisor, then the greedy bot, a random one, a second advisor."""
        from engine.counters.advisor import Advisor
        from engine.counters.bots import GreedyBot, RandomBot

        return cls(*demo_line_up(seats, seed, Advisor, GreedyBot, RandomBot))

    def presses_for(self, screen: Screen) -> AutoPress | None:
        if isinstance(screen, WinnerScreen):
            return AutoPress((Press.QUIT,))
        if isinstance(screen, (ThrowScreen, TurnOverScreen, BotTurnScreen, BotHandicapScreen)):
            return _throw(screen.state)
        if isinstance(screen, DiceScreen):
            return self._decide(screen.state, open_list=True)
        if isinstance(screen, MovesScreen):
            if screen.cursor != 0 or screen.state.phase is Phase.CHOOSE:
                return AutoPress(())  # already moving the cursor
            return self._decide(screen.state, open_list=False)
        return None

    def _decide(self, state: State, open_list: bool) -> AutoPress:
        """The presses that make the seat's bot's decision from the list of choices."""
        move = self.bots[state.current].choose(state)
        index = listed(state).index(move)
        opening = (Press.SELECT,) if open_list else ()
        return AutoPress((*opening, *(Press.NEXT,) * index, Press.SELECT), decision=not isinstance(move, Keep))
