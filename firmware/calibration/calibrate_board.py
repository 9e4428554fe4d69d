"""``dice-companion calibrate`` of a game played on a stepped board: store the outline of each
level, so that at the table a die counts on the level whose outline holds it.

The outlines are taken from the configuration's ``[board] levels`` or found on the camera's
picture of the empty board (:func:`vision.board.level_finder.find_levels`), and stored in the data
folder with a picture of the view (:mod:`firmware.calibration.board_file`).
"""

from __future__ import annotations

import numpy as np

from firmware.calibration._steps import NOTHING_SAVED, Calibrated, Refusal, points_text, report, store
from firmware.calibration._tray_view import levels_view
from firmware.calibration.board_file import save_levels
from firmware.device_config import DeviceConfig
from vision.measure.annotate import draw_levels
from vision.board.board_levels import LevelMap, LevelMapError
from vision.board.level_finder import find_levels


def calibrate_board(config: DeviceConfig, frame: np.ndarray) -> Calibrated:
    """Outline the levels on ``frame`` (the empty board) and store them; Refusal when nothing is stored."""
    levels, found = _levels(config, frame)
    paths = store(config, "board's levels", frame, lambda picture, width: draw_levels(picture, levels, width),
                  lambda folder, picture: save_levels(folder, levels, picture))
    shape = [f"level {level}: {points_text(outline)}" for level, outline in enumerate(levels.outlines)]
    use = "at the table a die counts on the level whose outline holds it (the board is read with these at every look)"
    lines = ("Board", "found,", "saved.") if found else ("Levels", "from", "config,", "saved.")
    return Calibrated(report("board levels", found, "board.levels", frame, shape, paths, use), levels_view(frame, levels, lines))


def _levels(config: DeviceConfig, frame: np.ndarray) -> tuple[LevelMap, bool]:
    """The level map of ``frame`` and whether it was found (else taken from the configuration)."""
    size = (frame.shape[1], frame.shape[0])
    if config.board.levels is not None:
        try:
            return LevelMap(config.board.levels, size), False
        except LevelMapError as error:
            raise Refusal(f"board.levels: {error}", ("Levels", "outside", "frame.", *NOTHING_SAVED), frame) from error
    try:
        return find_levels(frame), True
    except LevelMapError as error:
        raise Refusal(
            f"{error}; or give the levels' outlines as [board] levels = [[[x, y], ...], ...] in the configuration",
            ("No", "board", "found.", *NOTHING_SAVED), frame,
        ) from error
