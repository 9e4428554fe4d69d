"""Debug pictures: each die outlined and labelled with its value; unreadable dice marked; the tray's
outline; the board's levels, numbered."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.board_levels import LevelMap
from vision.read.frame_outline import Outline, middle
from vision.read.reader import as_bgr
from vision.read.reading import DiceReading
from vision.read.tray import TrayOutline

READ_COLOUR = (40, 200, 40)  # BGR green
UNREADABLE_COLOUR = (30, 30, 230)  # BGR red
TRAY_COLOUR = (0, 200, 255)  # BGR amber
LEVEL_COLOUR = (255, 220, 60)  # BGR light blue


def annotate(image: np.ndarray, reading: DiceReading, note: str = "", tray: TrayOutline | None = None) -> np.ndarray:
    """A copy of ``image`` (BGR) with every die outlined, and its value (or ``?``) above it; with
    ``tray``, its outline too (rescaled to the image; TrayError for an image of another shape)."""
    canvas = as_bgr(image)
    scale = max(canvas.shape[:2]) / 640
    thickness = max(1, round(2 * scale))
    if tray is not None:
        draw_tray(canvas, tray, thickness)
    for die in reading.dice:
        colour = READ_COLOUR if die.is_readable else UNREADABLE_COLOUR
        if die.outline:
            points = np.round(np.array(die.outline)).astype(np.int32)
            cv2.polylines(canvas, [points], True, colour, thickness, cv2.LINE_AA)
        label = str(die.value) if die.is_readable else "?"
        _label(canvas, label, die.centre, die.size, colour, scale)
    if note:
        _label(canvas, note, (8 * scale, 20 * scale), 0, (255, 255, 255), scale, anchor_left=True)
    return canvas


def draw_tray(canvas: np.ndarray, tray: TrayOutline, thickness: int = 2) -> None:
    """Draw the tray's outline into ``canvas`` (BGR, changed in place)."""
    _outline(canvas, tray.scaled_to((canvas.shape[1], canvas.shape[0])).points, TRAY_COLOUR, thickness)


def draw_levels(canvas: np.ndarray, levels: LevelMap, thickness: int = 2) -> None:
    """Draw each level's outline into ``canvas`` (BGR, changed in place), its number (0 the 0x
    level) at its middle; LevelMapError for a canvas of another shape."""
    scale = max(canvas.shape[:2]) / 640
    for level, outline in enumerate(levels.scaled_to((canvas.shape[1], canvas.shape[0])).outlines):
        _outline(canvas, outline, LEVEL_COLOUR, thickness)
        _label(canvas, str(level), middle(outline), -20 * scale, LEVEL_COLOUR, scale)  # as if below a die: centred


def _outline(canvas: np.ndarray, points: Outline, colour: tuple[int, int, int], thickness: int) -> None:
    cv2.polylines(canvas, [np.round(np.array(points) * 16).astype(np.int32)], True, colour, thickness, cv2.LINE_AA, shift=4)


def _label(
    canvas: np.ndarray,
    text: str,
    centre: tuple[float, float],
    size: float,
    colour: tuple[int, int, int],
    scale: float,
    anchor_left: bool = False,
) -> None:
    """Text with a dark backing so it reads on any background; placed above the die."""
    font_scale = 0.6 * scale
    thickness = max(1, round(2 * scale))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, font_scale, thickness)
    x = int(centre[0] if anchor_left else centre[0] - w / 2)
    y = int(centre[1] if anchor_left else centre[1] - size / 2 - 4 * scale)
    x = min(max(x, 0), canvas.shape[1] - w)
    y = min(max(y, h + 2), canvas.shape[0] - base)
    cv2.rectangle(canvas, (x - 2, y - h - 2), (x + w + 2, y + base), (0, 0, 0), -1)
    cv2.putText(canvas, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, font_scale, colour, thickness, cv2.LINE_AA)

