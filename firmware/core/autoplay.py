"""Bots at the table: they watch the OLED and press the buttons as players would.

Before pressing ROLL they throw the (simulated) dice, so every roll goes through the camera,
the settle detector and the reader exactly like a real one. What a game's own screens ask is
the game's :class:`firmware.core.table_game.AutoSeats`; the core's screens are answered here, and
so is a seat the companion's advisor plays: the bots only throw its dice (what the advisor decides
is its own, and a press that would decide for it is refused, so nobody would throw again).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

from firmware.core.statuses import NOT_SAVED, waiting_on_camera
from firmware.core.table_game import AutoPress, AutoSeats
from firmware.drawing.screens import BadReadScreen, ManualEntryScreen, NoticeScreen, ResumeScreen, Screen, SetupScreen
from hardware.buttons import Press
from hardware.camera import Toss

TRIES_WHEN_NOT_SAVED = 3  # a move the journal refuses this often in a row stops the bots' game (never a hang)
Tosser = Callable[[Toss], Sequence[int]]  # does a toss on the simulated table -> the tray's dice


class Host(Protocol):
    """The companion the bots play at, as far as they ask it about a seat its advisor plays."""

    @property
    def bot_decides(self) -> bool: ...

    def throw_plan(self) -> Toss: ...


class AutoPlayers:
    """The game's bots at the buttons; attach :meth:`on_screen` to the companion's listeners
    (``host``: that companion, whose advisor's seats the bots only throw for)."""

    def __init__(
        self,
        seats: AutoSeats,
        press: Callable[[Press], None],
        toss: Tosser,
        quit_when_won: bool = True,
        undo_rate: float = 0.0,
        seed: int = 0,
        host: Host | None = None,
    ) -> None:
        self.seats = seats
        self._host = host
        self._press = press
        self._toss = toss
        self._quit_when_won = quit_when_won
        self._undo_rate = undo_rate  # the share of decisions where the players change their minds
        self._rng = random.Random(seed)
        self._acted_on: Screen | None = None
        self._last_throw: tuple[int, ...] = ()
        self._last_press: Press | None = None  # pressed again when the journal refused what it did
        self._refusals = 0  # the journal's refusals in a row

    def on_screen(self, screen: Screen) -> None:
        """Act once on each screen that asks the players for a decision."""
        action = self.action_for(screen)
        if action is None or not action.presses:
            self._acted_on = None  # a screen to wait on: the next decision, even if alike, is new
            return
        if screen == self._acted_on and not getattr(screen, "status", "").startswith(NOT_SAVED):
            return  # the same screen drawn again; a refusal told again is a new one
        self._acted_on = screen
        if action.decision and self._undo_rate and self._rng.random() < self._undo_rate:
            action = AutoPress((Press.UNDO,))
        if action.toss is not None:
            self._last_throw = tuple(self._toss(action.toss))
        for press in action.presses:
            self._last_press = press
            self._press(press)

    def action_for(self, screen: Screen) -> AutoPress | None:
        """What the players would do on ``screen`` (nothing while it waits on the camera)."""
        status = getattr(screen, "status", "")
        if waiting_on_camera(status):
            return None
        if status.startswith(NOT_SAVED) and self._last_press is not None:  # "try again": the same press,
            self._refusals += 1  # a few times, as players would, then they stop (the game resumes later)
            return AutoPress((self._last_press if self._refusals < TRIES_WHEN_NOT_SAVED else Press.QUIT,))
        self._refusals = 0
        if isinstance(screen, (SetupScreen, ResumeScreen, NoticeScreen)):
            return AutoPress((Press.SELECT,))
        if isinstance(screen, ManualEntryScreen):
            if screen.index or any(value != 1 for value in screen.values):
                return AutoPress(())  # already entering
            values = self._last_throw  # the dice thrown before ROLL, which opened the entry without a camera
            return AutoPress(tuple(p for value in values for p in (Press.NEXT,) * (value - 1) + (Press.SELECT,)))
        if isinstance(screen, BadReadScreen):
            return AutoPress((Press.ROLL,), toss=Toss(screen.needed))
        if self._host is not None and self._host.bot_decides:
            return _throw_for(self._host)
        action = self.seats.presses_for(screen)
        if action is not None and Press.QUIT in action.presses and not self._quit_when_won:
            return None
        return action


def _throw_for(host: Host) -> AutoPress | None:
    """ROLL after throwing the dice due for the advisor's seat (nothing while none are due)."""
    toss = host.throw_plan()
    return AutoPress((Press.ROLL,), toss=toss) if toss.count else None
