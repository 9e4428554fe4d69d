"""The camera's view on the 128x64 one-bit OLED: the frame fitted on the left, dithered, outlines
drawn over it (the tray's, or the board's levels numbered), a few words on the right (what
``calibrate`` found), and a warning's one line across the bottom in the tiny font."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageOps

from firmware.drawing.screens import CHAR_PX, FONT, ROW_PX
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width
from hardware.display import MODE, SIZE
from vision.board.board_levels import LevelMap
from vision.read.frame_outline import Outline, middle, rescaled
from vision.read.tray import TrayOutline

PICTURE_SIZE = (84, 64)  # px: the frame is fitted into this box; the text column beside it holds 7 characters
TEXT_LEFT_PX = PICTURE_SIZE[0] + 2
TEXT_CHARS = (SIZE[0] - TEXT_LEFT_PX) // CHAR_PX
WARNING_TOP_PX = SIZE[1] - GLYPH_HEIGHT - 1  # a warning's line, white on a black strip; the picture fits above it


def tray_view(frame: np.ndarray | None, tray: TrayOutline | None, lines: Sequence[str], warning: str = "") -> Image.Image:
    """The 128x64 picture: ``frame`` (BGR; None leaves the picture dark) with ``tray`` drawn over it,
    ``lines`` of up to 7 characters beside it, and ``warning`` (up to 32 characters) under both."""
    return outlined_view(frame, () if tray is None else (tray.points,), lines, warning=warning)


def levels_view(frame: np.ndarray | None, levels: LevelMap | None, lines: Sequence[str]) -> Image.Image:
    """The same for a board: each level's outline drawn and numbered (0 the 0x level)."""
    return outlined_view(frame, () if levels is None else levels.outlines, lines, numbered=True)


def outlined_view(frame: np.ndarray | None, outlines: Sequence[Outline], lines: Sequence[str],
                  numbered: bool = False, warning: str = "") -> Image.Image:
    """``frame`` with ``outlines`` (px of the frame) drawn over it, each numbered by its place if
    ``numbered``, ``lines`` beside it, and ``warning`` under both."""
    screen = Image.new(MODE, SIZE, 0)
    if frame is not None:
        box = (PICTURE_SIZE[0], WARNING_TOP_PX - 2) if warning else PICTURE_SIZE
        picture = _dithered(frame, box)
        offset = (0, (box[1] - picture.height) // 2)
        screen.paste(picture, offset)
        made_for = (frame.shape[1], frame.shape[0])
        shown = [[(x + offset[0], y + offset[1]) for x, y in rescaled(o, made_for, picture.size)] for o in outlines]
        for points in shown:
            _outline(screen, points)
        for number, points in enumerate(shown if numbered else ()):
            _number(screen, points, str(number))
    canvas = ImageDraw.Draw(screen)
    for row, line in enumerate(lines[: SIZE[1] // ROW_PX]):
        canvas.text((TEXT_LEFT_PX, row * ROW_PX), line[:TEXT_CHARS], font=FONT, fill=1)
    if warning:
        canvas.rectangle((0, WARNING_TOP_PX - 1, SIZE[0] - 1, SIZE[1] - 1), fill=0)
        tiny_text(canvas, ((SIZE[0] - tiny_width(warning)) // 2, WARNING_TOP_PX), warning)
    return screen


def _dithered(frame: np.ndarray, box: tuple[int, int]) -> Image.Image:
    """The frame in grey, fitted into ``box`` (width, height px), stretched to full contrast and dithered."""
    height, width = frame.shape[:2]
    scale = min(box[0] / width, box[1] / height)
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    grey = frame if frame.ndim == 2 else cv2.cvtColor(np.ascontiguousarray(frame[..., :3]), cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return ImageOps.autocontrast(Image.fromarray(small), cutoff=1).convert(MODE)  # Floyd-Steinberg


def _outline(screen: Image.Image, points: list[tuple[float, float]]) -> None:
    """The outline in white on a black border, so it shows on any dithered picture."""
    canvas = ImageDraw.Draw(screen)
    canvas.line([*points, points[0]], fill=0, width=3)
    canvas.line([*points, points[0]], fill=1, width=1)


def _number(screen: Image.Image, points: list[tuple[float, float]], text: str) -> None:
    """``text`` in white on a black box at the middle of the outline."""
    x, y = middle(points)
    left, top = round(x - tiny_width(text) / 2), round(y - GLYPH_HEIGHT / 2)
    canvas = ImageDraw.Draw(screen)
    canvas.rectangle((left - 2, top - 1, left + tiny_width(text) + 1, top + GLYPH_HEIGHT), fill=0)
    tiny_text(canvas, (left, top), text)
