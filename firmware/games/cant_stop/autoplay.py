"""Can't Stop's bots at the buttons, for the demo and the kill test: they read the screen and
press what a player would (the core's autoplay throws the dice before every ROLL)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cant_stop import can_stop
from engine.cant_stop.advisor import Advisor
from engine.cant_stop.bots import Bot, OddsBot, SteadyBot
from engine.cant_stop.rule28 import Rule28
from firmware.core.table_game import AutoPress
from firmware.drawing.screens import Screen
from firmware.games.cant_stop.screens import BotTurnScreen, BustScreen, ChoiceScreen, ClaimScreen, RollScreen, WinnerScreen
from hardware.buttons import Press
from hardware.camera import Toss

DICE = 4


@dataclass(frozen=True)
class CantStopSeats:
    """Seat ``i`` is played by ``bots[i]``."""

    bots: tuple[Bot, ...]
    names: tuple[str, ...]

    @classmethod
    def demo(cls, seats: int, seed: int) -> CantStopSeats:
        """The demo's line-up: the advisor first, then the simpler strategies."""
        bots = (Advisor(), Rule28(), SteadyBot(), OddsBot())[:seats]
        return cls(bots, ("Advisor", "Rule28", "Steady", "Odds")[:seats])

    def presses_for(self, screen: Screen) -> AutoPress | None:
        if isinstance(screen, WinnerScreen):
            return AutoPress((Press.QUIT,))
        if isinstance(screen, ChoiceScreen):
            if screen.cursor != 0:
                return AutoPress(())  # already moving the cursor
            choice = self.bots[screen.state.current].choose(screen.state, screen.options)
            return AutoPress((Press.NEXT,) * screen.options.index(choice) + (Press.SELECT,), decision=True)
        if isinstance(screen, (BustScreen, ClaimScreen, BotTurnScreen)):
            return AutoPress((Press.ROLL,), toss=Toss(DICE))
        if isinstance(screen, RollScreen):
            state = screen.state
            if can_stop(state) and self.bots[state.current].should_stop(state):
                return AutoPress((Press.STOP,), decision=True)
            return AutoPress((Press.ROLL,), toss=Toss(DICE), decision=True)
        return None
