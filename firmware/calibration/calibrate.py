"""``dice-companion calibrate``: store where the dice lie in the camera's view, so that at the
table only what matters is read: the outline of the empty tray (here), or the levels of a board
(:mod:`firmware.calibration.calibrate_board`), as the game played asks.

The configured camera takes a picture of the empty tray; the outline is taken from the
configuration's ``[tray] corners`` or found in the picture (:func:`vision.read.tray.find_tray`), and
stored in the data folder with a picture of the view (:mod:`firmware.calibration.tray_file`). The OLED shows
the view with the outline, or what went wrong; on any failure nothing is stored.
"""

from __future__ import annotations

import sys
from typing import TextIO

import numpy as np
from PIL import Image

from firmware.calibration._steps import NOTHING_SAVED, Calibrated, Refusal, points_text, report, store, take_frame
from firmware.calibration._tray_view import outlined_view, tray_view
from firmware.calibration.calibrate_board import calibrate_board
from firmware.calibration.camera_lean import OLED_LINE, advice, leaning, tilt_line
from firmware.calibration.tray_file import load_tray, save_tray
from firmware.device_config import DeviceConfig
from firmware.core.table_game import CameraUse
from firmware.devices import open_display
from hardware.display import Display, DisplayError
from vision.measure.annotate import draw_tray
from vision.board.board_levels import LevelMapError
from vision.board.level_finder import find_levels
from vision.read.tray import TrayError, TrayOutline, find_tray


def calibrate(config: DeviceConfig, display: Display | None = None, out: TextIO | None = None,
              err: TextIO | None = None, surface: CameraUse = "tray") -> int:
    """Calibrate the ``surface`` a game's camera looks at, "tray" or "board" (a game's
    ``TableGame.camera``), on the configured devices (``display`` stands in for the configured
    one); returns the exit status: 0 stored, 1 refused (nothing stored)."""
    if surface not in ("tray", "board"):
        raise ValueError(f"calibrate knows a tray and a board, got {surface!r}")
    out, err = out or sys.stdout, err or sys.stderr
    display = display or open_display(config.display, persist=True)  # the picture stays on the OLED afterwards
    try:
        try:
            frame = take_frame(config, surface)
            done = calibrate_board(config, frame) if surface == "board" else _calibrate_tray(config, frame)
        except Refusal as refusal:
            print(f"dice-companion calibrate: {refusal.message}; nothing was stored", file=err)
            _show(display, outlined_view(refusal.frame, (), refusal.lines), err)
            return 1
        for line in done.report:
            print(line, file=out)
        for line in done.warnings:
            print(f"dice-companion calibrate: {line}", file=err)
        _show(display, done.view, err)
        return 0
    finally:
        display.close()


def _calibrate_tray(config: DeviceConfig, frame: np.ndarray) -> Calibrated:
    """Outline the tray on ``frame`` (the empty tray) and store it; Refusal when nothing is stored.
    An outline stored before is replaced, and the report and the OLED say so; a camera that leans
    too far is told to rise over the tray's middle, in the report's warnings and on the OLED."""
    tray, found = _outline(config, frame)
    before = _stored_tray(config)
    paths = store(config, "tray", frame, lambda picture, width: draw_tray(picture, tray, width),
                  lambda folder, picture: save_tray(folder, tray, picture))
    use = "at the table only dice inside this outline count (dice-companion run reads it at start)"
    lines = ("Tray", "found,", "saved.") if found else ("Tray", "from", "config,", "saved.")
    shape = ["corners: " + points_text(tray.points), tilt_line(tray)]
    if before:
        lines = ("Tray" if found else "Config", "found," if found else "tray", "saved;", "old one", "gone.")
        shape.append(f"replaced the outline stored before ({before})")
    done = report("tray outline", found, "tray.corners", frame, shape, paths, use)
    tilt = leaning(tray)
    if tilt is None:
        return Calibrated(done, tray_view(frame, tray, lines))
    return Calibrated(done, tray_view(frame, tray, ("Tray", "saved,", "camera", "leans", f"{tilt:.0f} deg."), OLED_LINE),
                      (advice(tilt),))


def _stored_tray(config: DeviceConfig) -> str:
    """What outline the data folder held before ("" for none), in words for the report."""
    try:
        stored = load_tray(config.data_dir)
    except TrayError:
        return "an unreadable file"
    return "" if stored is None else "corners: " + points_text(stored.points)


def _outline(config: DeviceConfig, frame: np.ndarray) -> tuple[TrayOutline, bool]:
    """The outline of ``frame``'s tray, and whether it was found (else taken from the corners)."""
    size = (frame.shape[1], frame.shape[0])
    corners = config.tray.corners
    if corners is not None:
        try:
            return TrayOutline(corners, size), False
        except TrayError as error:
            raise Refusal(f"tray.corners: {error}", ("Corners", "outside", "frame.", *NOTHING_SAVED), frame) from error
    if _stepped_board(frame):
        raise Refusal(
            "the camera sees a stepped board, not a dice tray: a game played on a board (Tumblin' Dice) "
            "is calibrated with its levels, dice-companion calibrate --game tumblin",
            ("Board", "seen.", "Use", "--game", "tumblin"), frame,
        )
    tray = find_tray(frame)
    if tray is None:
        raise Refusal(
            "no tray found in the camera's view: the empty tray must lie under the middle of the picture, "
            "its whole edge in view and clearly set off from the desk; or give its corners as "
            "[tray] corners = [[x, y], [x, y], [x, y], [x, y]] in the configuration",
            ("No tray", "found.", *NOTHING_SAVED), frame,
        )
    return tray, True


def _stepped_board(frame: np.ndarray) -> bool:
    """Whether ``frame`` shows a board of stacked levels: its highest band is no tray (the dice on
    the lower levels would all be left out)."""
    try:
        find_levels(frame)
    except LevelMapError:
        return False
    return True


def _show(display: Display, picture: Image.Image, err: TextIO) -> None:
    """Show the picture; a display that fails is reported, the calibration stands."""
    try:
        display.show(picture)
    except DisplayError as error:
        print(f"dice-companion calibrate: the display failed: {error}", file=err)
