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
from firmware.games.counters.screens import (
    BotHandicapScreen,
    BotTurnScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
)
from firmware.games.five_dice import demo_line_up
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
            return AutoPress((Press.SELECT,))  # to the list: the decision is made on it, as it is shown
        if isinstance(screen, MovesScreen):
            if screen.cursor != _opening_row(screen):
                return AutoPress(())  # already moving the cursor
            return self._decide(screen)
        return None

    def _decide(self, screen: MovesScreen) -> AutoPress:
        """The presses that make the seat's bot's decision from the list as the screen shows it
        (with hints it opens on the advisor's pick, whatever the bot would do)."""
        move = self.bots[screen.state.current].choose(screen.state)
        steps = (screen.moves.index(move) - screen.cursor) % len(screen.moves)
        return AutoPress((*(Press.NEXT,) * steps, Press.SELECT), decision=not isinstance(move, Keep))


def _opening_row(screen: MovesScreen) -> int:
    """The row the list opens on: the advisor's pick (starred) with hints, else the first."""
    return 0 if screen.advice is None else screen.advice
