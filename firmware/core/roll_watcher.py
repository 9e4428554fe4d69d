"""From camera frames to the reading of a new roll.

A roll is read when ROLL was pressed, or on its own once the camera saw something move and the
picture come to rest; either way only after several settled frames agree. The dice of the last
roll, still lying where they were, are never taken for a new roll (a shadow passing, or ROLL
pressed before throwing, would otherwise repeat it). With the tray's outline, only dice inside
it count and only movement inside it is watched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np

from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reading import DiceReading
from vision.read.settle import ReadingConfirmer, SettleDetector, SettleParams
from vision.read.tray import TrayOutline, dice_inside, taken_in

UNMOVED_FRACTION = 0.5  # of a die's size: a die read this close to where one lay, with its value, has not moved


class Reader(Protocol):
    """Reads the dice of a frame; ``up`` says where the camera's far side lies (``ReaderParams.up``)
    when the tray's outline shows the camera leaning; not given, the reader's own (straight down).
    ``closer`` asks for a closer look (its number: 1, 2, ...) at a throw read short
    (:func:`vision.read.reader.closer_look`)."""

    def __call__(self, frame: np.ndarray, /, *, up: float | None = None, closer: int = 0) -> DiceReading: ...


@dataclass(frozen=True)
class Seen:
    """A confirmed reading while a roll was due."""

    reading: DiceReading
    asked: bool  # ROLL was pressed (else the dice were seen to settle)
    unmoved: bool  # the last roll's dice, where they lay: not a roll


class RollWatcher:
    """Watches every frame; :meth:`frame` returns what was seen once a reading is confirmed.
    ``reader_params`` are the reader's own: how sure the dice of a throw of a known number must be,
    and its closer looks (:func:`vision.read.tray.taken_in`)."""

    def __init__(self, reader: Reader, params: SettleParams = SettleParams(), tray: TrayOutline | None = None,
                 reader_params: ReaderParams = DEFAULT_PARAMS) -> None:
        self.reader = reader
        self.reader_params = reader_params
        self.tray = tray
        self._settle = SettleDetector(params, tray)
        self._confirmer = ReadingConfirmer(params)
        self.requested = False
        self._motion_seen = False
        self._last_roll: DiceReading | None = None
        self._last_seen: DiceReading | None = None
        self.needs_throw = False  # the dice lying there are of unknown standing: read only after a throw

    def use_tray(self, tray: TrayOutline | None) -> None:
        """Watch and read only inside ``tray`` from now on (None: the whole frame)."""
        self.tray = tray
        self._settle = SettleDetector(self._settle.params, tray)
        self._confirmer.reset()

    def request(self) -> None:
        """ROLL was pressed: read the dice as soon as they are at rest."""
        self.requested = True
        self._confirmer.reset()

    def expect_roll(self) -> None:
        """A new roll is due: read only after something moves, or on request."""
        self.requested = self._motion_seen = False
        self._confirmer.reset()

    def camera_gap(self) -> None:
        """The camera failed: frames after the gap do not continue those before it."""
        self._settle.reset()
        self._confirmer.reset()

    def rolled(self, reading: DiceReading | None) -> None:
        """A roll was applied, read from ``reading`` or (None) entered by hand over the last dice seen."""
        self._last_roll = reading if reading is not None else self._last_seen

    def forget_last_roll(self) -> None:
        """The last roll was undone: its dice may be read again."""
        self._last_roll = None

    def resumed(self) -> None:
        """The game was restored from the journal: whatever lies in the tray may be a roll already
        made, so nothing is read until the dice are seen moving."""
        self.needs_throw = True

    def frame(self, frame: np.ndarray, roll_due: bool, expected: int | None = None) -> Seen | None:
        """Take the next frame; returns a confirmed reading when a roll is due and one is ready.
        With ``expected`` (the dice the roll needs) each reading is the likeliest that many dice in
        the tray, or the clear ones when that many are not there, looked at again closer when fewer
        are found (:func:`vision.read.tray.taken_in`)."""
        settled = self._settle.update(frame)
        self._motion_seen = self._motion_seen or self._settle.moving
        self.needs_throw = self.needs_throw and not self._settle.moving
        if not settled:
            self._confirmer.reset()
            return None
        if not roll_due or not (self.requested or self._motion_seen) or (self.needs_throw and not self.requested):
            return None
        confirmed = self._confirmer.offer(self._read(frame, expected))
        if confirmed is None:
            return None
        asked = self.requested
        self.requested = self._motion_seen = False
        self._last_seen = confirmed
        if not confirmed.dice and not asked:
            return None  # an empty tray at rest: the dice are in someone's hand
        # after a resume, ROLL with nothing seen moving: the dice lying there are not this roll
        unmoved = self.needs_throw or self._last_roll is not None and lie_where_they_were(confirmed, self._last_roll)
        return Seen(confirmed, asked, unmoved)

    def _read(self, frame: np.ndarray, expected: int | None) -> DiceReading:
        tray = None if self.tray is None else self.tray.scaled_to((frame.shape[1], frame.shape[0]))
        # No outline, or one that shows no lean (only four corners can: TrayOutline.far_side), leaves
        # the camera straight down, as a Pi over a tray mostly is: the straight-down detector, which
        # also reads the synthetic camera's trays (the leaning one refused a throw of the demo there).
        far_side = None if tray is None else tray.far_side()
        reading = self.reader(frame, up=far_side)
        if expected is not None:
            # the far side told, a side face taken for a die more than thrown is left out (reader.likeliest)
            told = replace(self.reader_params, up=far_side)
            return taken_in(tray, reading, expected, lambda look: self.reader(frame, up=far_side, closer=look), told)
        return reading if tray is None else dice_inside(reading, tray)


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
