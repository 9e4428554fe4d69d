"""What the event loop hands the companion: button presses, camera frames, camera and device faults."""

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


@dataclass(frozen=True)
class DeviceFault:
    """A device's thread failed on something it was handed (a simulated table that cannot take a
    throw, a button reader): the companion says so and goes on; the log has the whole error."""

    source: str  # short, for the screen: "sim table"
    message: str


Event = Union[ButtonEvent, FrameEvent, CameraFailed, DeviceFault]
