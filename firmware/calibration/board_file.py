"""The calibrated board in the data folder: ``levels.json`` (the outline of each level) and
``levels.png`` (the view they were outlined on, drawn and numbered), both written atomically
(:mod:`firmware.calibration._calibration_file`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from firmware.calibration._calibration_file import load_calibration, save_calibration
from vision.board.board_levels import LevelMap, LevelMapError

LEVELS_NAME = "levels.json"
LEVELS_PICTURE_NAME = "levels.png"


def load_levels(data_dir: Path) -> LevelMap | None:
    """The stored level map, or None when the board was never calibrated; LevelMapError naming the
    file when it cannot be read or used."""
    return load_calibration(data_dir / LEVELS_NAME, "board level map", LevelMap.from_json, LevelMapError,
                            "run dice-companion calibrate --game tumblin again")


def save_levels(data_dir: Path, levels: LevelMap, picture: np.ndarray) -> tuple[Path, Path]:
    """Store the level map and the picture of the view (BGR); returns their paths (levels, picture)."""
    return save_calibration(data_dir / LEVELS_NAME, levels.to_json(), data_dir / LEVELS_PICTURE_NAME, picture)
