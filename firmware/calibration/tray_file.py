"""The calibrated tray in the data folder: ``tray.json`` (its outline) and ``tray.png`` (the view
it was found in, outline drawn), both written atomically (:mod:`firmware.calibration._calibration_file`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from firmware.calibration._calibration_file import load_calibration, save_calibration
from vision.read.tray import TrayError, TrayOutline

TRAY_NAME = "tray.json"
TRAY_PICTURE_NAME = "tray.png"


def load_tray(data_dir: Path) -> TrayOutline | None:
    """The stored outline, or None when the tray was never calibrated; TrayError naming the file
    when it cannot be read or used."""
    return load_calibration(data_dir / TRAY_NAME, "tray outline", TrayOutline.from_json, TrayError,
                            "run dice-companion calibrate again")


def save_tray(data_dir: Path, tray: TrayOutline, picture: np.ndarray) -> tuple[Path, Path]:
    """Store the outline and the picture of the view (BGR); returns their paths (outline, picture)."""
    return save_calibration(data_dir / TRAY_NAME, tray.to_json(), data_dir / TRAY_PICTURE_NAME, picture)
