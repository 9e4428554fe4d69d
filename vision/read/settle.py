"""Are the dice still rolling? Watch a stream of frames and confirm a reading once they rest.

A frame is *still* when almost no pixel of a small blurred grey copy changed since the
previous frame. The dice have *settled* after several still frames in a row, and a reading
is *confirmed* only when several consecutive settled frames show the same dice in the same
places with no die's face in dispute (each face voted over the frames), so a die that is still
wobbling, or a hand in the tray, never produces a roll, and one unsure frame does not hold it up. Given the tray's outline,
only pixels inside it are watched: a hand on the desk beside the tray moves nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.read.reading import DiceReading, Die
from vision.read.tray import TrayOutline


@dataclass(frozen=True)
class SettleParams:
    """Thresholds of the settle detector."""

    thumbnail_width: int = 160  # px: frames are compared at this width
    blur_sigma: float = 1.0  # px of the thumbnail: hides sensor noise
    pixel_change: int = 14  # grey levels: a pixel that changed more than this has moved
    moving_fraction: float = 0.002  # fraction of thumbnail pixels: above this, the frame is moving
    still_frames: int = 3  # consecutive still frames before the dice count as settled
    agreeing_readings: int = 3  # consecutive settled readings that must agree to confirm (each die's face voted over them)


def thumbnail(frame: np.ndarray, params: SettleParams) -> np.ndarray:
    """A small blurred grey copy, cheap to compare."""
    if frame.ndim == 2 or frame.shape[2] == 1:
        grey = frame.reshape(frame.shape[:2])
    else:
        grey = cv2.cvtColor(np.ascontiguousarray(frame[..., :3]), cv2.COLOR_BGR2GRAY)
    height = max(1, round(grey.shape[0] * params.thumbnail_width / grey.shape[1]))
    small = cv2.resize(grey, (params.thumbnail_width, height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), params.blur_sigma)


def moving_fraction(
    previous: np.ndarray, current: np.ndarray, params: SettleParams, mask: np.ndarray | None = None
) -> float:
    """The fraction of thumbnail pixels (of those where ``mask`` is set, if given) that changed
    by more than ``params.pixel_change``."""
    if previous.shape != current.shape:
        return 1.0
    changed = cv2.absdiff(previous, current) > params.pixel_change
    if mask is None:
        return float(np.count_nonzero(changed)) / changed.size
    return float(np.count_nonzero(changed & (mask > 0))) / max(1, np.count_nonzero(mask))


class SettleDetector:
    """Feed every camera frame to :meth:`update`; it says whether the dice are at rest.

    With a ``tray`` outline only the tray is watched; a frame of another shape than the tray's
    frames raises :class:`vision.read.tray.TrayError`.
    """

    def __init__(self, params: SettleParams = SettleParams(), tray: TrayOutline | None = None) -> None:
        self.params = params
        self.tray = tray
        self._mask: np.ndarray | None = None  # the tray at thumbnail size, made for the first frame
        self._previous: np.ndarray | None = None
        self._still = 0
        self.moving = False
        """Whether the last frame differed from the one before it (something moved)."""

    def update(self, frame: np.ndarray) -> bool:
        """Take the next frame; True while the last ``still_frames`` frames showed no movement."""
        small = thumbnail(frame, self.params)
        self.moving = self._previous is not None and (
            moving_fraction(self._previous, small, self.params, self._tray_mask(small.shape))
            > self.params.moving_fraction
        )
        self._still = self._still + 1 if self._previous is not None and not self.moving else 0
        self._previous = small
        return self._still >= self.params.still_frames

    def _tray_mask(self, shape: tuple[int, ...]) -> np.ndarray | None:
        if self.tray is None:
            return None
        if self._mask is None or self._mask.shape != shape[:2]:
            self._mask = self.tray.mask(shape)
        return self._mask

    def reset(self) -> None:
        """Forget the stream (a new roll starts)."""
        self._previous = None
        self._still = 0
        self.moving = False


class ReadingConfirmer:
    """Confirm a reading once several consecutive settled frames show the same dice in the same
    places, each die's face voted over those frames.

    A die's face is the one read in most of the frames, so a die the reader was unsure of in one
    frame is still read; a die read as two different faces is never confirmed (the frames go on
    until they agree), and one read in fewer than most frames is reported unreadable.
    """

    def __init__(self, params: SettleParams = SettleParams()) -> None:
        self.params = params
        self._frames: list[DiceReading] = []
        self._confirmed: tuple[tuple[int, ...], int] | None = None

    def offer(self, reading: DiceReading) -> DiceReading | None:
        """Take the reading of a settled frame; returns the voted reading when the last
        ``agreeing_readings`` frames show the same dice in the same places and no die's face is in
        dispute, once (later frames voting the same are the same roll), else None."""
        if self._frames and not same_places(self._frames[-1], reading):
            self.reset()
        self._frames = [*self._frames, reading][-self.params.agreeing_readings :]
        if len(self._frames) < self.params.agreeing_readings:
            return None
        voted = vote(self._frames)
        if voted is None:
            return None
        key = (voted.values, len(voted.unreadable))
        if key == self._confirmed:
            return None
        self._confirmed = key
        return voted

    def reset(self) -> None:
        """Forget earlier readings (the dice moved)."""
        self._frames = []
        self._confirmed = None


SAME_PLACE = 0.5  # die sizes: a die read this close to where one was read in the frame before is the same die


def _partners(reading: DiceReading, other: DiceReading) -> list[Die] | None:
    """For each die of ``reading``, the die of ``other`` in the same place (one to one, nearest
    first), or None when the two do not show dice in the same places."""
    if len(reading.dice) != len(other.dice):
        return None
    pairs = sorted(
        (math.dist(a.centre, b.centre), i, j)
        for i, a in enumerate(reading.dice)
        for j, b in enumerate(other.dice)
        if math.dist(a.centre, b.centre) < SAME_PLACE * max(a.size, b.size)
    )
    partner: dict[int, Die] = {}
    taken: set[int] = set()
    for _, i, j in pairs:
        if i not in partner and j not in taken:
            partner[i] = other.dice[j]
            taken.add(j)
    return [partner[i] for i in range(len(reading.dice))] if len(partner) == len(reading.dice) else None


def same_places(reading: DiceReading, other: DiceReading) -> bool:
    """Whether two readings show as many dice, each where one lies in the other."""
    return _partners(reading, other) is not None


def vote(frames: list[DiceReading]) -> DiceReading | None:
    """The last frame's dice, each with the face read in most of ``frames`` (its confidence the
    mean of theirs), or unreadable when no face was; None when a die was read as two faces."""
    latest = frames[-1]
    seen = [[die] for die in latest.dice]
    for earlier in frames[:-1]:
        partners = _partners(latest, earlier)
        if partners is None:
            return None
        for sightings, partner in zip(seen, partners):
            sightings.append(partner)
    dice = []
    for die, sightings in zip(latest.dice, seen):
        read = [s for s in sightings if s.value is not None]
        if len({s.value for s in read}) > 1:
            return None
        if 2 * len(read) > len(frames):
            dice.append(replace(die, value=read[0].value, reason="",
                                confidence=sum(s.confidence for s in read) / len(read)))
        elif die.value is None:
            dice.append(die)
        else:
            dice.append(replace(die, value=None, reason=f"read as {die.value} in only {len(read)} of {len(frames)} frames"))
    return DiceReading(tuple(dice), latest.doubtful)
