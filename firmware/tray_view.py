"""The camera's view on the 128x64 one-bit OLED: the frame fitted on the left, dithered, the tray's
outline drawn over it, and a few words on the right (what ``calibrate`` found)."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageOps

from firmware.screens import CHAR_PX, FONT, ROW_PX
from hardware.display import MODE, SIZE
from vision.tray import TrayOutline

PICTURE_SIZE = (84, 64)  # px: the frame is fitted into this box; the text column beside it holds 7 characters
TEXT_LEFT_PX = PICTURE_SIZE[0] + 2
TEXT_CHARS = (SIZE[0] - TEXT_LEFT_PX) // CHAR_PX


def tray_view(frame: np.ndarray | None, tray: TrayOutline | None, lines: Sequence[str]) -> Image.Image:
    """The 128x64 picture: ``frame`` (BGR; None leaves the picture dark) with ``tray`` drawn over it,
    and ``lines`` of up to 7 characters beside it."""
    screen = Image.new(MODE, SIZE, 0)
    if frame is not None:
        picture = _dithered(frame)
        screen.paste(picture, (0, (SIZE[1] - picture.height) // 2))
        if tray is not None:
            _outline(screen, tray, picture.size, (0, (SIZE[1] - picture.height) // 2))
    canvas = ImageDraw.Draw(screen)
    for row, line in enumerate(lines[: SIZE[1] // ROW_PX]):
        canvas.text((TEXT_LEFT_PX, row * ROW_PX), line[:TEXT_CHARS], font=FONT, fill=1)
    return screen


def _dithered(frame: np.ndarray) -> Image.Image:
    """The frame in grey, fitted into :data:`PICTURE_SIZE`, stretched to full contrast and dithered."""
    height, width = frame.shape[:2]
    scale = min(PICTURE_SIZE[0] / width, PICTURE_SIZE[1] / height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    grey = frame if frame.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(frame[..., :3]), cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return ImageOps.autocontrast(Image.fromarray(small), cutoff=1).convert(MODE)  # Floyd-Steinberg


def _outline(screen: Image.Image, tray: TrayOutline, size: tuple[int, int], offset: tuple[int, int]) -> None:
    """The outline in white on a black border, so it shows on any dithered picture."""
    scaled = tray.scaled_to(size)
    points = [(x + offset[0], y + offset[1]) for x, y in scaled.points]
    canvas = ImageDraw.Draw(screen)
    canvas.line([*points, points[0]], fill=0, width=3)
    canvas.line([*points, points[0]], fill=1, width=1)
