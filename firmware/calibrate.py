"""``dice-companion calibrate``: store the outline of the empty tray, so that at the table only
dice inside it count and only movement inside it is watched.

The configured camera takes a picture of the empty tray; the outline is taken from the
configuration's ``[tray] corners`` or found in the picture (:func:`vision.tray.find_tray`), and
stored in the data folder with a picture of the view (:mod:`firmware.tray_file`). The OLED shows
the view with the outline, or what went wrong; on any failure nothing is stored.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

import numpy as np
from PIL import Image

from firmware.config import Config
from firmware.devices import camera_opener, open_display
from firmware.tray_file import save_tray
from firmware.tray_view import tray_view
from hardware.camera import CameraError
from hardware.display import Display, DisplayError
from vision.annotate import draw_tray
from vision.tray import TrayError, TrayOutline, find_tray

WARM_UP_FRAMES = 5  # frames dropped first: a camera's first pictures may be dark while its exposure settles
NOTHING_SAVED = ("Nothing", "saved.")


class Refusal(Exception):
    """Calibration stopped: ``message`` for the terminal, ``lines`` for the OLED (7 characters
    each), and the camera's view if there was one."""

    def __init__(self, message: str, lines: tuple[str, ...], frame: np.ndarray | None = None) -> None:
        super().__init__(message)
        self.message, self.lines, self.frame = message, lines, frame


def calibrate(config: Config, display: Display | None = None, out: TextIO | None = None,
              err: TextIO | None = None) -> int:
    """Calibrate the tray on the configured devices (``display`` stands in for the configured one);
    returns the exit status: 0 stored, 1 refused (nothing stored)."""
    out, err = out or sys.stdout, err or sys.stderr
    display = display or open_display(config.display, persist=True)  # the picture stays on the OLED afterwards
    try:
        try:
            frame, tray, found = _outline(config)
            outline_path, picture_path = _store(config, frame, tray)
        except Refusal as refusal:
            print(f"dice-companion calibrate: {refusal.message}; nothing was stored", file=err)
            _show(display, tray_view(refusal.frame, None, refusal.lines), err)
            return 1
        source = "found in the camera's view" if found else "taken from tray.corners in the configuration"
        print(f"tray outline {source} ({frame.shape[1]}x{frame.shape[0]} frame)", file=out)
        print("corners: " + " ".join(f"({x:.1f}, {y:.1f})" for x, y in tray.points), file=out)
        print(f"stored: {outline_path}", file=out)
        print(f"picture: {picture_path}", file=out)
        print("at the table only dice inside this outline count (dice-companion run reads it at start)", file=out)
        lines = ("Tray", "found,", "saved.") if found else ("Tray", "from", "config,", "saved.")
        _show(display, tray_view(frame, tray, lines), err)
        return 0
    finally:
        display.close()


def _outline(config: Config) -> tuple[np.ndarray, TrayOutline, bool]:
    """A frame of the empty tray, its outline, and whether it was found (else taken from the corners)."""
    frame = _take_frame(config)
    size = (frame.shape[1], frame.shape[0])
    corners = config.tray.corners
    if corners is not None:
        try:
            return frame, TrayOutline(corners, size), False
        except TrayError as error:
            raise Refusal(f"tray.corners: {error}", ("Corners", "outside", "frame.", *NOTHING_SAVED), frame) from error
    tray = find_tray(frame)
    if tray is None:
        raise Refusal(
            "no tray found in the camera's view: the empty tray must lie under the middle of the picture, "
            "its whole edge in view and clearly set off from the desk; or give its corners as "
            "[tray] corners = [[x, y], [x, y], [x, y], [x, y]] in the configuration",
            ("No tray", "found.", *NOTHING_SAVED), frame,
        )
    return frame, tray, True


def _store(config: Config, frame: np.ndarray, tray: TrayOutline) -> tuple[Path, Path]:
    """Store the outline and the view with the outline drawn; Refusal when the data folder refuses."""
    picture = frame.copy()
    draw_tray(picture, tray, max(1, round(max(frame.shape[:2]) / 320)))
    try:
        return save_tray(config.data_dir, tray, picture)
    except OSError as error:
        raise Refusal(f"cannot store the tray in {config.data_dir}: {error}", ("Cannot", "write", "data", "folder."), frame) from error


def _take_frame(config: Config) -> np.ndarray:
    """The camera's picture after its warm-up frames; Refusal without a camera or when it fails."""
    try:
        opener = camera_opener(config.camera)
        if opener is None:
            raise Refusal('camera.backend = "none": calibrating the tray needs a camera', ("No", "camera.", *NOTHING_SAVED))
        camera = opener()
        try:
            for _ in range(WARM_UP_FRAMES):
                camera.frame()
            return camera.frame()
        finally:
            camera.close()
    except CameraError as error:
        raise Refusal(f"camera: {error}", ("Camera", "failed.", *NOTHING_SAVED)) from error


def _show(display: Display, picture: Image.Image, err: TextIO) -> None:
    """Show the picture; a display that fails is reported, the calibration stands."""
    try:
        display.show(picture)
    except DisplayError as error:
        print(f"dice-companion calibrate: the display failed: {error}", file=err)
