"""A simulated dice tray lying on a cluttered desk, as a webcam over an ordinary desk sees it.

The synthetic camera uses it (``camera.desk = true``) so that ``calibrate`` and the tray at the
table can be tried without a camera, and the tray tests build their scenes with it. The desk
is drawn once (wood or paper colour, grain, papers, cables, keys around the tray); the tray's
content (felt and dice, rendered by :mod:`vision.scenes.synthetic`) is laid into it through the tray's
outline, inside a darker rim.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.scenes.clutter import draw_clutter

Point = tuple[float, float]

SUBPIXEL = 16  # polygons are filled with 4 fractional bits of precision


@dataclass(frozen=True)
class Desk:
    """A desk seen from above: ``size`` (width, height) of the frame in px, the tray's felt outline
    ``tray`` (x, y px, in order around it), a rim ``rim_px`` wide around it, ``clutter`` things
    about ``clutter_px`` big lying beside it, and the desk's BGR ``colour``."""

    size: tuple[int, int]
    tray: tuple[Point, ...]
    colour: tuple[int, int, int] = (110, 145, 180)  # light wood
    rim_colour: tuple[int, int, int] = (30, 30, 35)
    rim_px: float = 8.0
    clutter: int = 10
    clutter_px: float = 40.0


def rectangle(size: tuple[int, int], margin: tuple[float, float] = (0.2, 0.14)) -> tuple[Point, ...]:
    """An upright tray leaving ``margin`` (fractions of the width and height) of desk on every side."""
    width, height = size
    left, top = width * margin[0], height * margin[1]
    right, bottom = width - left, height - top
    return ((left, top), (right, top), (right, bottom), (left, bottom))


def polygon(centre: Point, radius: float, corners: int, turn_degrees: float = 0.0) -> tuple[Point, ...]:
    """A regular polygon: many corners make a round tray, four a turned square one."""
    return tuple(
        (centre[0] + radius * math.cos(angle), centre[1] + radius * math.sin(angle))
        for angle in (math.radians(turn_degrees) + 2 * math.pi * i / corners for i in range(corners))
    )


def bounding_box(outline: Sequence[Point]) -> tuple[int, int, int, int]:
    """The whole pixels (x, y, width, height) that hold ``outline``."""
    points = np.array(outline)
    x0, y0 = np.floor(points.min(axis=0)).astype(int)
    x1, y1 = np.ceil(points.max(axis=0)).astype(int)
    return int(x0), int(y0), int(x1 - x0), int(y1 - y0)


def desk_image(desk: Desk, rng: np.random.Generator) -> np.ndarray:
    """The desk with its clutter and the tray's rim, the felt not yet laid in (BGR uint8)."""
    width, height = desk.size
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = desk.colour
    draw_clutter(canvas, desk.clutter, desk.clutter_px, _keep_clear(desk), rng)
    if desk.rim_px > 0:
        cv2.fillPoly(canvas, [_fixed(_grown(desk.tray, desk.rim_px))], desk.rim_colour, cv2.LINE_AA, shift=4)
    image = canvas.astype(np.float32)
    grain = cv2.GaussianBlur(rng.normal(0, 6, (height, width)).astype(np.float32), (0, 0), 1.5)
    image += grain[..., None] + rng.normal(0, 2.0, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def lay_tray(desk_picture: np.ndarray, desk: Desk, felt: np.ndarray) -> np.ndarray:
    """``desk_picture`` with ``felt`` (a picture of the tray's bounding box) shown inside the tray's outline."""
    x, y, w, h = bounding_box(desk.tray)
    if felt.shape[:2] != (h, w):
        raise ValueError(f"the felt picture must be {w}x{h} px (the tray's bounding box), got {felt.shape[1]}x{felt.shape[0]}")
    cover = np.zeros(desk_picture.shape[:2], np.float32)
    cv2.fillPoly(cover, [_fixed(desk.tray)], 1.0, cv2.LINE_AA, shift=4)
    placed = desk_picture.astype(np.float32)
    placed[y : y + h, x : x + w] = felt
    mixed = desk_picture * (1 - cover[..., None]) + placed * cover[..., None]
    return np.clip(np.round(mixed), 0, 255).astype(np.uint8)


def _grown(outline: Sequence[Point], by: float) -> tuple[Point, ...]:
    """The outline pushed ``by`` px away from its centre (a rim around a convex tray)."""
    points = np.array(outline)
    centre = points.mean(axis=0)
    radii = np.linalg.norm(points - centre, axis=1, keepdims=True)
    return tuple(map(tuple, centre + (points - centre) * (1 + by / radii)))


def _fixed(outline: Sequence[Point]) -> np.ndarray:
    return np.round(np.array(outline) * SUBPIXEL).astype(np.int32)


def _keep_clear(desk: Desk) -> list[tuple[float, float, float]]:
    """Spots covering the tray and its rim, so the clutter lies beside it."""
    x, y, w, h = bounding_box(desk.tray)
    step = max(8.0, min(w, h) / 8)
    outline = np.array(desk.tray, np.float32)
    spots = []
    for sy in np.arange(y, y + h + step, step):
        for sx in np.arange(x, x + w + step, step):
            if cv2.pointPolygonTest(outline, (float(sx), float(sy)), True) > -step:
                spots.append((float(sx), float(sy), step * 0.75 + desk.rim_px))
    return spots
