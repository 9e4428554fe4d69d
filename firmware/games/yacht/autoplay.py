"""The game's bots at the buttons, for the demo and the kill test: they read the screen and press
what a player would. A keep is made as players make it, by rolling only the other dice (the
companion reads all five and works out the keep); a box is chosen from the list."""

from __future__ import annotations

from dataclasses import dataclass

from engine.keeps import DICE
from engine.yacht import Keep, Phase, State
from engine.yacht.bots import Bot, GreedyBot, RandomBot
from firmware.core.table_game import AutoPress
from firmware.drawing.screens import Screen
from firmware.games.five_dice import demo_line_up
from firmware.games.yacht.choices import advised, advisor, listed
from firmware.games.yacht.screens import BotTurnScreen, ChoicesScreen, DiceScreen, RollScreen, ScoredScreen, WinnerScreen
from hardware.buttons import Press
from hardware.camera import Toss


def _roll(state: State) -> AutoPress:
    """ROLL after rolling what is due: the dice not kept, or all five."""
    return AutoPress((Press.ROLL,), toss=Toss(DICE - len(state.kept), state.kept), decision=True)


@dataclass(frozen=True)
class YachtSeats:
    """Seat ``i`` is played by ``bots[i]`` (each answers ``choose(state)`` with a legal move)."""

    bots: tuple[Bot, ...]
    names: tuple[str, ...]

    @classmethod
    def demo(cls, seats: int, seed: int) -> YachtSeats:
        """The demo's line-up: the optimal advisor, then the greedy bot, a random one, a second advisor."""
        return cls(*demo_line_up(seats, seed, advisor, GreedyBot, RandomBot))

    def presses_for(self, screen: Screen) -> AutoPress | None:
        if isinstance(screen, WinnerScreen):
            return AutoPress((Press.QUIT,))
        if isinstance(screen, (RollScreen, ScoredScreen, BotTurnScreen)):
            return _roll(screen.state) if screen.state.phase is Phase.ROLL else None
        if isinstance(screen, DiceScreen):
            return self._decide(screen)
        if isinstance(screen, ChoicesScreen):
            return AutoPress(())  # already moving the cursor
        return None

    def _decide(self, screen: DiceScreen) -> AutoPress:
        """A keep: roll the other dice; a box: SELECT, NEXT down the list to it, SELECT. A seat with
        hints (its dice screen shows the advisor's tip) has the list opening on the advisor's pick."""
        state = screen.state
        move = self.bots[state.current].choose(state)
        if isinstance(move, Keep):
            return AutoPress((Press.ROLL,), toss=Toss(DICE - len(move.dice), move.dice), decision=True)
        moves = listed(state)
        pick = advised(state) if screen.tip else None
        steps = (moves.index(move) - (moves.index(pick) if pick in moves else 0)) % len(moves)
        return AutoPress((Press.SELECT, *(Press.NEXT,) * steps, Press.SELECT), decision=True)
