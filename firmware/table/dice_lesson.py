"""The dice lesson (``dice-companion calibrate --dice``, or from the set-up screen): the players
teach the companion their dice before a game.

They throw the dice (at most MOST_DICE at a time); each reading is shown die by die, prefilled
with what the reader saw, and confirmed or corrected with the buttons as when dice are entered
by hand (NEXT: one more, SELECT: this die is right, STOP: back; STOP on the first die drops the
throw). Every confirmed die is kept as the table's example at once (they were checked one by
one) and the table's own layer of the reader is refitted on them in the background. Once every
face was shown WANTED times the screen says so; games go on adding examples as they are played.
"""

from __future__ import annotations

import logging

import numpy as np

from engine.dice import FACES, Roll
from firmware.calibration.table_dice import TableDice
from firmware.core.events import ButtonEvent, CameraFailed, Event, FrameEvent
from firmware.core.manual_entry import entry_after
from firmware.core.roll_watcher import RollWatcher
from firmware.drawing.screens import DiceLessonScreen, ManualEntryScreen, Screen, draw
from hardware.buttons import Press
from hardware.display import Display, DisplayError
from vision.read.reading import Die
from vision.read.tray import TrayOutline

LOG = logging.getLogger("dice_companion")
MOST_DICE = 5  # dice checked in one throw: as many as the screen shows side by side
WANTED = 2  # examples of each face that are enough to start with


class DiceLesson:
    """The lesson's flow, event by event; :attr:`screen` is what the OLED shows (on ``display``
    when given; without, the companion's set-up screen hosts the lesson and shows it)."""

    def __init__(self, display: Display | None, table_dice: TableDice, tray: TrayOutline | None = None) -> None:
        self.display = display
        self.table_dice = table_dice
        self.watcher = RollWatcher(table_dice.read, tray=tray, reader_params=table_dice.params)
        self.finished = False
        self._checking: tuple[np.ndarray, tuple[Die, ...], ManualEntryScreen] | None = None
        self._throws = 0
        self._status = ""
        self.screen: Screen = self._waiting()
        self._show()

    def handle(self, event: Event) -> None:
        if isinstance(event, ButtonEvent):
            self._press(event.press)
        elif isinstance(event, FrameEvent) and self._checking is None:
            self._frame(event.frame)
        elif isinstance(event, CameraFailed):
            self.watcher.camera_gap()
            self._status = "camera trouble"
        self.screen = self._checking[2] if self._checking is not None else self._waiting()
        self._show()

    def _press(self, press: Press) -> None:
        if self._checking is None:
            if press in (Press.QUIT, Press.STOP):
                self.finished = True
            elif press is Press.ROLL:
                self.watcher.request()
                self._status = "reading..."
            return
        frame, dice, entry = self._checking
        after = entry_after(entry, press)
        if isinstance(after, ManualEntryScreen):
            self._checking = (frame, dice, after)
            return
        self._checking = None
        self.watcher.expect_roll()
        if isinstance(after, Roll):
            self.table_dice.confirm(frame, dice, after.dice)
            self._status = f"kept {len(dice)} dice"
            LOG.info("dice checked: %s", " ".join(map(str, after.dice)))
        else:
            self._status = "throw dropped"

    def _frame(self, frame: np.ndarray) -> None:
        seen = self.watcher.frame(frame, roll_due=True)
        if seen is None:
            return
        dice = seen.reading.dice
        if not dice or len(dice) > MOST_DICE:
            self._status = "no dice seen" if not dice else f"at most {MOST_DICE} dice"
            self.watcher.expect_roll()
            return
        self._throws += 1
        values = tuple(d.value if d.value is not None else FACES[0] for d in dice)
        self._checking = (frame, dice, ManualEntryScreen(f"throw {self._throws}", values, 0, heading="Check dice"))
        self._status = ""

    def _waiting(self) -> DiceLessonScreen:
        return DiceLessonScreen(tuple(self.table_dice.counts()), self._status, WANTED)

    def _show(self) -> None:
        if self.display is None:
            return
        try:
            self.display.show(draw(self.screen))
        except DisplayError as error:
            LOG.warning("display: %s", error)
