"""What every ``calibrate`` shares (the tray's, the board's): the camera's picture of the empty
surface, the stored result with a picture of the view, and a refusal that says why, on the
terminal and on the OLED, when nothing could be stored."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from firmware.device_config import DeviceConfig
from firmware.devices import camera_opener
from hardware.camera import CameraError

WARM_UP_FRAMES = 5  # frames dropped first: a camera's first pictures may be dark while its exposure settles
NOTHING_SAVED = ("Nothing", "saved.")


class Refusal(Exception):
    """Calibration stopped: ``message`` for the terminal, ``lines`` for the OLED (7 characters
    each), and the camera's view if there was one."""

    def __init__(self, message: str, lines: tuple[str, ...], frame: np.ndarray | None = None) -> None:
        super().__init__(message)
        self.message, self.lines, self.frame = message, lines, frame


@dataclass(frozen=True)
class Calibrated:
    """What a calibration stored, as the terminal (``report``, a line each; ``warnings`` on stderr)
    and the OLED (``view``) say it."""

    report: tuple[str, ...]
    view: Image.Image
    warnings: tuple[str, ...] = ()


def take_frame(config: DeviceConfig, surface: str) -> np.ndarray:
    """The camera's picture after its warm-up frames; Refusal without a camera or when it fails
    (``surface``, e.g. "tray", is what calibrating needs the camera for)."""
    try:
        opener = camera_opener(config.camera)
        if opener is None:
            raise Refusal(f'camera.backend = "none": calibrating the {surface} needs a camera', ("No", "camera.", *NOTHING_SAVED))
        try:
            camera = opener()
        except CameraError as error:  # a real camera busy, most often: the companion's service holds it
            held = " (is the companion running? stop it first: sudo systemctl stop dice-companion)" if config.camera.backend in ("picamera2", "usb") else ""
            raise Refusal(f"camera: {error}{held}", ("Camera", "failed.", *NOTHING_SAVED)) from error
        try:
            for _ in range(WARM_UP_FRAMES):
                camera.frame()
            return camera.frame()
        finally:
            camera.close()
    except CameraError as error:
        raise Refusal(f"camera: {error}", ("Camera", "failed.", *NOTHING_SAVED)) from error


def store(
    config: DeviceConfig, what: str, frame: np.ndarray, draw: Callable[[np.ndarray, int], None],
    save: Callable[[Path, np.ndarray], tuple[Path, Path]],
) -> tuple[Path, Path]:
    """``save`` the calibration with the view, ``draw`` drawing it (line width in px); Refusal naming
    ``what`` ("tray") when the data folder refuses. Returns the stored paths (JSON, picture)."""
    picture = frame.copy()
    draw(picture, max(1, round(max(frame.shape[:2]) / 320)))
    try:
        return save(config.data_dir, picture)
    except OSError as error:
        raise Refusal(f"cannot store the {what} in {config.data_dir}: {error}", ("Cannot", "write", "data", "folder."), frame) from error


def report(what: str, found: bool, given_in: str, frame: np.ndarray, shape: Iterable[str], paths: tuple[Path, Path],
           use: str) -> tuple[str, ...]:
    """The terminal's lines on a stored calibration: ``what`` was found or taken from the
    configuration's ``given_in`` key, its ``shape`` (lines), where it was stored, and its ``use``."""
    source = "found in the camera's view" if found else f"taken from {given_in} in the configuration"
    return (f"{what} {source} ({frame.shape[1]}x{frame.shape[0]} frame)", *shape, f"stored: {paths[0]}",
            f"picture: {paths[1]}", use)


def points_text(points: Iterable[tuple[float, float]]) -> str:
    """Corners as the report shows them: (x, y) to a tenth of a pixel."""
    return " ".join(f"({x:.1f}, {y:.1f})" for x, y in points)
