"""Bots at the table: they watch the OLED and press the buttons as players would.

Before pressing ROLL they throw the (simulated) dice, so every roll goes through the camera,
the settle detector and the reader exactly like a real one.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cant_stop import can_stop
from engine.cant_stop.bots import Bot
from firmware.companion import CAMERA_TROUBLE, READING
from firmware.screens import (
    BadReadScreen,
    BotTurnScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    ManualEntryScreen,
    NoticeScreen,
    ResumeScreen,
    RollScreen,
    Screen,
    SetupScreen,
    WinnerScreen,
)
from hardware.buttons import Press


class AutoPlayers:
    """Seat ``i`` is played by ``bots[i]``; attach :meth:`on_screen` to the companion's listeners."""

    def __init__(
        self,
        bots: Sequence[Bot],
        press: Callable[[Press], None],
        throw: Callable[[], Sequence[int]],
        quit_when_won: bool = True,
        undo_rate: float = 0.0,
        seed: int = 0,
    ) -> None:
        self.bots = tuple(bots)
        self._press = press
        self._throw = throw
        self._quit_when_won = quit_when_won
        self._undo_rate = undo_rate  # the share of decisions where the players change their minds
        self._rng = random.Random(seed)
        self._acted_on: Screen | None = None

    def on_screen(self, screen: Screen) -> None:
        """Act once on each screen that asks the players for a decision."""
        presses = self.presses_for(screen)
        if not presses:
            self._acted_on = None  # a screen to wait on: the next decision, even if alike, is new
            return
        if screen == self._acted_on:
            return
        self._acted_on = screen
        if self._undo_rate and isinstance(screen, (ChoiceScreen, RollScreen)) and self._rng.random() < self._undo_rate:
            presses = (Press.UNDO,)
        for press in presses:
            if press is Press.ROLL:
                self._throw()
            self._press(press)

    def presses_for(self, screen: Screen) -> tuple[Press, ...]:
        """The buttons the players would press on ``screen`` (none while it waits on the camera)."""
        if isinstance(screen, (SetupScreen, ResumeScreen, NoticeScreen)):
            return (Press.SELECT,)
        if isinstance(screen, ManualEntryScreen):
            if screen.index or any(value != 1 for value in screen.values):
                return ()  # already entering
            values = tuple(self._throw())  # type: ignore[arg-type]  # without a camera, throw() returns the dice
            return tuple(p for value in values for p in (Press.NEXT,) * (value - 1) + (Press.SELECT,))
        if isinstance(screen, WinnerScreen):
            return (Press.QUIT,) if self._quit_when_won else ()
        if isinstance(screen, ChoiceScreen):
            if screen.cursor != 0:
                return ()
            choice = self.bots[screen.state.current].choose(screen.state, screen.options)
            return (Press.NEXT,) * screen.options.index(choice) + (Press.SELECT,)
        if isinstance(screen, (BustScreen, ClaimScreen, BotTurnScreen, BadReadScreen)) and not _waiting(screen.status):
            return (Press.ROLL,)
        if isinstance(screen, RollScreen) and not _waiting(screen.status):
            state = screen.state
            stop = can_stop(state) and self.bots[state.current].should_stop(state)
            return (Press.STOP,) if stop else (Press.ROLL,)
        return ()


def _waiting(status: str) -> bool:
    """Whether the screen waits on the camera (other statuses, such as "undone: 6+10", do not)."""
    return status in (READING, CAMERA_TROUBLE)
