"""Are the dice still rolling? Watch a stream of frames and confirm a reading once they rest.

A frame is *still* when almost no pixel of a small blurred grey copy changed since the
previous frame. The dice have *settled* after several still frames in a row, and a reading
is *confirmed* only when the readings of several consecutive settled frames agree, so a die
that is still wobbling, or a hand in the tray, never produces a roll. Given the tray's outline,
only pixels inside it are watched: a hand on the desk beside the tray moves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.reading import DiceReading
from vision.tray import TrayOutline


@dataclass(frozen=True)
class SettleParams:
    """Thresholds of the settle detector."""

    thumbnail_width: int = 160  # px: frames are compared at this width
    blur_sigma: float = 1.0  # px of the thumbnail: hides sensor noise
    pixel_change: int = 14  # grey levels: a pixel that changed more than this has moved
    moving_fraction: float = 0.002  # fraction of thumbnail pixels: above this, the frame is moving
    still_frames: int = 3  # consecutive still frames before the dice count as settled
    agreeing_readings: int = 3  # consecutive settled readings that must agree to confirm


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
    frames raises :class:`vision.tray.TrayError`.
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
    """Confirm a reading once the same dice were read in several consecutive settled frames."""

    def __init__(self, params: SettleParams = SettleParams()) -> None:
        self.params = params
        self._last: tuple[tuple[int, ...], int] | None = None
        self._agreeing = 0

    def offer(self, reading: DiceReading) -> DiceReading | None:
        """Take the reading of a settled frame; returns it when the agreeing run reaches
        ``agreeing_readings``, once (later agreeing frames are the same roll), else None."""
        key = (reading.values, len(reading.unreadable))
        self._agreeing = self._agreeing + 1 if key == self._last else 1
        self._last = key
        return reading if self._agreeing == self.params.agreeing_readings else None

    def reset(self) -> None:
        """Forget earlier readings (the dice moved)."""
        self._last = None
        self._agreeing = 0
