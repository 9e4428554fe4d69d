"""What the event loop hands the companion: button presses, camera frames, camera faults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy as np

from hardware.buttons import Press


@dataclass(frozen=True)
class ButtonEvent:
    press: Press


@dataclass(frozen=True, eq=False)
class FrameEvent:
    """A camera picture, BGR uint8."""

    frame: np.ndarray


@dataclass(frozen=True)
class CameraFailed:
    """The camera gave no frame; the feed keeps retrying."""

    message: str


Event = Union[ButtonEvent, FrameEvent, CameraFailed]
