"""The game flow at the table: buttons and camera frames in, engine moves and screens out.

It runs on the event loop's single thread and is driven by :meth:`Companion.handle`. A roll is
read when ROLL is pressed, or on its own when the camera saw the dice move and come to rest;
either way only after several settled frames agree. A reading without exactly the dice the
game needs is shown and refused, never guessed.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from engine.cant_stop import GAME, STOP, Advance, Phase, State, Stop, bust_probability, can_stop
from engine.dice import Roll
from firmware.events import ButtonEvent, CameraFailed, Event, FrameEvent
from firmware.game_setup import RULES, GameSetup, columns_to_win_choices, player_counts
from firmware.screens import (
    BOARD_PAGES,
    BadReadScreen,
    BoardScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    RollScreen,
    Screen,
    SetupScreen,
    WinnerScreen,
    draw,
)
from hardware.buttons import Press
from hardware.display import Display, DisplayError
from vision import annotate, read_dice
from vision.reading import DiceReading
from vision.settle import ReadingConfirmer, SettleDetector, SettleParams

LOG = logging.getLogger("dice_companion")
READING = "reading dice..."
UNMOVED_FRACTION = 0.5  # of a die's size: a die read this close to where one lay, with its value, has not moved
Reader = Callable[[np.ndarray], DiceReading]
T = TypeVar("T")


class Companion:
    """One companion at one table; :attr:`screen` is what the OLED shows."""

    def __init__(
        self,
        display: Display,
        setup: GameSetup = GameSetup(),
        reader: Reader = read_dice,
        settle: SettleParams = SettleParams(),
        snapshots: Path | None = None,
    ) -> None:
        self.display = display
        self.defaults = setup
        self.reader = reader
        self.snapshots = snapshots
        self.listeners: list[Callable[[Screen], None]] = []
        self.finished = False
        self.state: State | None = None
        self.names: tuple[str, ...] = ()
        self._menu = SetupScreen(len(setup.names), setup.columns_to_win, setup.rule, 0)
        self._banner: BustScreen | ClaimScreen | BadReadScreen | None = None
        self._board_page: int | None = None
        self._cursor = 0
        self._status = ""
        self._camera_problem = ""
        self._display_failing = False
        self._settle = SettleDetector(settle)
        self._confirmer = ReadingConfirmer(settle)
        self._read_requested = False
        self._motion_seen = False
        self._last_roll: DiceReading | None = None
        self._snapshot_numbers = itertools.count(1)
        self._shown: Screen | None = None
        self.screen: Screen = self._menu
        self._refresh()

    # --- events -------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """Take one event and update the screen."""
        if isinstance(event, ButtonEvent):
            self._status = ""
            self._press(event.press)
        elif isinstance(event, FrameEvent):
            self._frame(event.frame)
        elif isinstance(event, CameraFailed):
            if event.message != self._camera_problem:
                LOG.warning("camera: %s", event.message)
            self._camera_problem = event.message
            self._settle.reset()  # the frames after a gap are not a continuation of those before it
            self._confirmer.reset()
        self._refresh()

    def _press(self, press: Press) -> None:
        if press is Press.QUIT:
            self.finished = True
        elif press is Press.UNDO:
            LOG.info("UNDO pressed: undo arrives with the game journal")
            self._status = "undo: not yet"
        elif self._board_page is not None and press is Press.NEXT:
            self._board_page = self._board_page + 1 if self._board_page + 1 < len(BOARD_PAGES) else None
        elif self._board_page is not None:
            self._board_page = None
            self._press(press)
        elif self.state is None:
            self._press_in_setup(press)
        elif self.state.phase is Phase.CHOOSE:
            self._press_choosing(press, self.state)
        elif self.state.phase is Phase.OVER:
            self._press_game_over(press)
        else:
            self._press_to_roll(press, self.state)

    def _press_in_setup(self, press: Press) -> None:
        menu = self._menu
        if press is Press.NEXT:
            if menu.field == 0:
                players = _after(player_counts(), menu.players)
                most = columns_to_win_choices(players)[-1]
                menu = replace(menu, players=players, columns_to_win=min(menu.columns_to_win, most))
            elif menu.field == 1:
                menu = replace(menu, columns_to_win=_after(columns_to_win_choices(menu.players), menu.columns_to_win))
            elif menu.field == 2:
                menu = replace(menu, rule=_after(RULES, menu.rule))
        elif press is Press.SELECT and menu.field == 3:
            self._start(menu)
        elif press is Press.SELECT:
            menu = replace(menu, field=menu.field + 1)
        elif press is Press.STOP and menu.field > 0:
            menu = replace(menu, field=menu.field - 1)
        self._menu = menu

    def _start(self, menu: SetupScreen) -> None:
        setup = replace(self.defaults, rule=menu.rule, columns_to_win=menu.columns_to_win)
        self.state = GAME.new_game(menu.players, **vars(setup.variant()))
        self.names = tuple(self.defaults.name(p) for p in range(menu.players))
        self._await_roll()
        LOG.info("new game: %s, %s, %d columns to win", ", ".join(self.names), menu.rule, menu.columns_to_win)

    def _press_choosing(self, press: Press, state: State) -> None:
        options = GAME.legal_moves(state)
        if press is Press.NEXT:
            self._cursor = (self._cursor + 1) % len(options)
        elif press is Press.SELECT:
            self._apply(state, options[self._cursor])
        else:
            self._status = "choose:NEXT,SELECT"

    def _press_to_roll(self, press: Press, state: State) -> None:
        if press is Press.ROLL:
            self._read_requested = True
            self._confirmer.reset()
        elif press is Press.STOP and can_stop(state):
            self._apply(state, STOP)
        elif press is Press.STOP:
            self._status = "nothing to bank"
        elif press is Press.NEXT:
            self._board_page = 0

    def _press_game_over(self, press: Press) -> None:
        if press is Press.NEXT:
            self._board_page = 0
        elif press is Press.SELECT:
            self.state = None
            self._menu = replace(self._menu, field=0)

    # --- the camera ---------------------------------------------------------------------

    def _frame(self, frame: np.ndarray) -> None:
        self._camera_problem = ""
        settled = self._settle.update(frame)
        if self._settle.moving:
            self._motion_seen = True
        if not settled:
            self._confirmer.reset()
            return
        if self.state is None or self.state.phase is not Phase.ROLL or not (self._read_requested or self._motion_seen):
            return
        confirmed = self._confirmer.offer(self.reader(frame))
        if confirmed is not None:
            self._use_reading(confirmed, frame, self.state)

    def _use_reading(self, reading: DiceReading, frame: np.ndarray, state: State) -> None:
        asked = self._read_requested
        self._read_requested = self._motion_seen = False
        if not reading.dice and not asked:
            return  # an empty tray at rest: the dice are in someone's hand
        if self._last_roll is not None and lie_where_they_were(reading, self._last_roll):
            LOG.info("read the last roll's dice again (%s): waiting for a throw", reading.summary())
            self._status = "throw the dice first" if asked else ""
            return
        needed = GAME.dice_due(state)
        LOG.info("read %s", reading.summary())
        if len(reading.dice) != needed or reading.unreadable:
            self._board_page = None
            self._banner = BadReadScreen(
                state, self.names, len(reading.dice), reading.values, len(reading.unreadable), needed
            )
            self._snapshot(frame, reading)
            return
        self._apply(state, Roll(reading.values))
        self._last_roll = reading

    def _snapshot(self, frame: np.ndarray, reading: DiceReading) -> None:
        """Keep an annotated picture of a refused reading, to look at later."""
        if self.snapshots is None:
            return
        try:
            self.snapshots.mkdir(parents=True, exist_ok=True)
            path = self.snapshots / time.strftime(f"refused-%Y%m%d-%H%M%S-{next(self._snapshot_numbers)}.png")
            if not cv2.imwrite(str(path), annotate(frame, reading)):
                raise OSError(f"cannot write {path}")
        except OSError as error:
            LOG.warning("snapshot not saved: %s", error)

    # --- the engine ---------------------------------------------------------------------

    def _apply(self, state: State, move: Advance | Stop | Roll) -> None:
        after = GAME.apply(state, move)  # the flow offers only legal moves; an error here is a bug
        LOG.info("%s: %s", self.names[state.current], GAME.move_text(move))
        self.state = after
        self._cursor = 0
        self._board_page = None  # what the move brings (a choice, a winner) must be seen
        if after.phase is Phase.CHOOSE or after.phase is Phase.OVER:
            self._banner = None
            return
        self._await_roll()
        if isinstance(move, Roll):
            self._banner = BustScreen(after, self.names, state.current, move.dice)
        elif move == STOP:
            claimed = tuple(c for c in after.claimed_by(state.current) if c not in state.claimed_by(state.current))
            if claimed:
                self._banner = ClaimScreen(after, self.names, state.current, claimed)

    def _await_roll(self) -> None:
        """A new roll is due: read only after the dice move again, or when ROLL is pressed."""
        self._banner = None
        self._read_requested = self._motion_seen = False
        self._confirmer.reset()

    # --- the screen ---------------------------------------------------------------------

    def _current_screen(self) -> Screen:
        state = self.state
        if state is None:
            return replace(self._menu)
        if self._board_page is not None:
            return BoardScreen(state, self.names, self._board_page)
        status = self._status or (READING if self._read_requested else "")
        if self._camera_problem:
            status = "camera: retrying"
        if state.phase is Phase.OVER:
            return WinnerScreen(state, self.names)
        if state.phase is Phase.CHOOSE:
            return ChoiceScreen(state, self.names, GAME.legal_moves(state), self._cursor, self._status)
        if self._banner is not None:
            return replace(self._banner, status=status)
        return RollScreen(state, self.names, bust_probability(state), status)

    def _refresh(self) -> None:
        self.screen = self._current_screen()
        if self.screen == self._shown and not self._display_failing:
            return
        self._shown = self.screen
        try:
            self.display.show(draw(self.screen))
            if self._display_failing:
                LOG.info("display works again")
            self._display_failing = False
        except DisplayError as error:
            if not self._display_failing:
                LOG.error("%s; the game goes on and the display is retried", error)
            self._display_failing = True
        for listener in self.listeners:
            listener(self.screen)


def lie_where_they_were(reading: DiceReading, before: DiceReading) -> bool:
    """Whether ``reading`` shows the dice of ``before`` unmoved: same count, each die's value
    found within :data:`UNMOVED_FRACTION` of its size of where it lay. A throw never does that."""
    if len(reading.dice) != len(before.dice):
        return False
    left = list(before.dice)
    for die in reading.dice:
        match = next(
            (old for old in left if old.value == die.value
             and math.dist(old.centre, die.centre) < UNMOVED_FRACTION * max(old.size, die.size)),
            None,
        )
        if match is None:
            return False
        left.remove(match)
    return True


def _after(options: Sequence[T], current: T) -> T:
    """The option after ``current``, wrapping round (NEXT on a set-up line)."""
    return options[(list(options).index(current) + 1) % len(options)]
