"""The camera over the dice tray: ``frame()`` gives the next BGR uint8 picture.

Backends: :class:`FolderCamera` (images played in order) and :class:`SyntheticCamera` (a
simulated tray the simulation rolls) here; the USB webcam in :mod:`hardware.webcam` and the
Pi camera in :mod:`hardware.picamera`, each importing its library only when opened.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from hardware.desk import Desk, bounding_box, desk_image, lay_tray
from vision.read.image_file import ImageFileError, one_line, read_image
from vision.scenes.synthetic import random_look, render_tray

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class CameraError(OSError):
    """The camera could not be opened or gave no frame (unplugged, busy, unreadable image)."""


@dataclass(frozen=True)
class Toss:
    """What the players do on a simulated table before they press ROLL: in a tray, throw ``count``
    dice beside those left lying (``keep``, their values); on a board, flick ``count`` dice of
    ``colour``, after picking up the dice lying there when a ``new_round`` begins."""

    count: int = 0
    keep: tuple[int, ...] = ()
    colour: str = ""
    new_round: bool = False


class SimulatedTable(Protocol):
    """A simulated tray or board that players act on before they press ROLL."""

    def toss(self, toss: Toss) -> tuple[int, ...]:
        """Do ``toss``; returns the values of the dice lying there."""
        ...


class Camera(Protocol):
    """Anything that gives pictures of the dice tray."""

    def frame(self) -> np.ndarray:
        """The next picture, BGR uint8 (H, W, 3); raises CameraError when there is none."""
        ...

    def close(self) -> None:
        """Release the camera."""
        ...


class FolderCamera:
    """The images of a folder, in file-name order, over and over, each for ``frames_per_image``
    frames (long enough for the settle detector to see it at rest); an unreadable one is a CameraError."""

    def __init__(self, folder: Path, frames_per_image: int = 10) -> None:
        try:
            exists = folder.is_dir()
            self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES) if exists else []
        except (OSError, ValueError) as error:  # a name too long, a NUL in it, no permission
            raise CameraError(f"cannot list camera folder {one_line(folder)}: {getattr(error, 'strerror', None) or error}") from None
        if not exists:
            raise CameraError(f"camera folder {one_line(folder)} does not exist")
        if not self.files:
            raise CameraError(f"camera folder {one_line(folder)} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.frames_per_image = frames_per_image
        self._frames = 0

    def frame(self) -> np.ndarray:
        path = self.files[self._frames // self.frames_per_image % len(self.files)]
        self._frames += 1
        try:
            return read_image(path)
        except ImageFileError as error:
            raise CameraError(str(error)) from None

    def close(self) -> None:
        """Nothing to release."""


class SyntheticCamera:
    """A simulated dice tray seen from above, rendered by :mod:`vision.scenes.synthetic`.

    :meth:`throw` rolls dice the way players would; the next ``tumbling_frames`` frames show
    them at new random places (moving), then every frame shows them at rest, the same picture
    each time, so the real settle detector and reader run on every simulated roll. Players may
    throw from one thread while the camera feed takes frames on another. Without a ``desk`` the
    tray fills the frame; with one, it lies on that desk among clutter (the dice in its bounding box).
    """

    def __init__(
        self,
        seed: int,
        size: tuple[int, int] = (640, 480),
        tumbling_frames: int = 2,
        die_sides_px: tuple[float, float] = (48.0, 80.0),
        desk: Desk | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._rng = np.random.default_rng(seed)
        self._look = random_look(self._rng)
        self.size = size
        self.tumbling_frames = tumbling_frames
        self.die_sides_px = die_sides_px
        self.values: tuple[int, ...] = ()
        self._tumbling = 0
        self._layout_seed = int(self._rng.integers(2**32))
        self._at_rest: np.ndarray | None = None
        self._desk = None if desk is None else (desk, desk_image(desk, np.random.default_rng(seed)))

    def throw(self, count: int = 4, keep: Sequence[int] = ()) -> tuple[int, ...]:
        """Roll ``count`` fair dice into the tray, beside the dice ``keep`` left lying there; returns
        the tray's values (the truth, for tests)."""
        with self._lock:
            values = tuple(keep) + tuple(int(v) for v in self._rng.integers(1, 7, count))
        return self.place(values)

    def toss(self, toss: Toss) -> tuple[int, ...]:
        """Do ``toss`` in the tray (every throw lays the tray anew); returns the tray's values."""
        return self.throw(toss.count, toss.keep)

    def place(self, values: Sequence[int]) -> tuple[int, ...]:
        """Throw dice that land showing ``values`` (for tests: three dice, a chosen roll)."""
        with self._lock:
            self.values = tuple(values)
            self._tumbling = self.tumbling_frames
            self._layout_seed = int(self._rng.integers(2**32))
            self._at_rest = None
            return self.values

    def frame(self) -> np.ndarray:
        with self._lock:
            if self._tumbling:
                self._tumbling -= 1  # each tumbling frame has its own layout, fixed by the throw
                return self._render((self._layout_seed, self._tumbling + 1))
            if self._at_rest is None:
                self._at_rest = self._render((self._layout_seed, 0))
            return self._at_rest.copy()

    def _render(self, layout: tuple[int, int]) -> np.ndarray:
        rng = np.random.default_rng(layout)
        if self._desk is None:
            image, _ = render_tray(self.values, rng, self.size, self.die_sides_px, self._look)
            return image
        desk, picture = self._desk
        _, _, width, height = bounding_box(desk.tray)
        felt, _ = render_tray(self.values, rng, (width, height), self.die_sides_px, self._look)
        return lay_tray(picture, desk, felt)

    def close(self) -> None:
        """Nothing to release."""
