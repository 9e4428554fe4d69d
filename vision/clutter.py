"""Things that are not dice, drawn beside synthetic dice: a square object with marks on it is no die.

Printed labels and cable tags, barcodes, keyboard keys, coins, pawns, playing cards, cables and
logos. The reader is trained to reject them and ``bench-vision`` checks it never reports one.
Everything is drawn top-down into a BGR canvas with OpenCV, in canvas pixels.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Sequence

import cv2
import numpy as np

Spot = tuple[float, float, float]  # centre x, centre y, radius (px) of a place to keep clear


def _colour(rng: np.random.Generator, low: int = 0, high: int = 256) -> tuple[int, int, int]:
    return tuple(int(c) for c in rng.integers(low, high, 3))


def _turned_rect(centre: tuple[float, float], w: float, h: float, angle: float) -> np.ndarray:
    box = cv2.boxPoints(((centre[0], centre[1]), (w, h), angle))
    return np.round(box).astype(np.int32)


def _text(rng: np.random.Generator, length: int) -> str:
    return "".join(rng.choice(list(string.ascii_uppercase + string.digits + "-/ "), length))


def _label(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A printed label or cable tag: a light rectangle with lines of dark text."""
    w, h = size * rng.uniform(0.8, 2.0), size * rng.uniform(0.5, 1.0)
    angle = float(rng.uniform(0, 180))
    paper = _colour(rng, 180, 256)
    cv2.fillPoly(canvas, [_turned_rect(centre, w, h, angle)], paper, cv2.LINE_AA)
    patch = np.full((int(h), int(w), 3), paper, np.uint8)
    ink = _colour(rng, 0, 90)
    lines = int(rng.integers(1, 4))
    scale = max(0.2, h / lines / 30)
    for line in range(lines):
        y = int((line + 0.8) * h / lines)
        cv2.putText(patch, _text(rng, int(rng.integers(2, 9))), (2, y), cv2.FONT_HERSHEY_SIMPLEX, scale, ink,
                    max(1, int(scale * 2)), cv2.LINE_AA)
    _paste(canvas, patch, centre, angle)


def _barcode(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    w, h = int(size * rng.uniform(0.8, 1.6)), int(size * rng.uniform(0.4, 0.8))
    patch = np.full((max(h, 2), max(w, 2), 3), 245, np.uint8)
    x = 2
    while x < w - 3:
        bar = int(rng.integers(1, 4))
        patch[1:-1, x : x + bar] = 20
        x += bar + int(rng.integers(1, 4))
    _paste(canvas, patch, centre, float(rng.uniform(0, 180)))


def _key(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A keyboard key: a rounded square with a letter, digit or symbol on it."""
    side = int(size)
    cap = _colour(rng, 0, 60) if rng.random() < 0.5 else _colour(rng, 190, 256)
    ink = tuple(255 - c for c in cap)
    patch = np.full((side, side, 3), cap, np.uint8)
    cv2.rectangle(patch, (1, 1), (side - 2, side - 2), tuple(int(c * 0.8) for c in cap), max(1, side // 12))
    glyph = str(rng.choice(list(string.ascii_uppercase + string.digits + ".:;'*#+")))
    scale = side / 40
    cv2.putText(patch, glyph, (side // 4, int(side * 0.7)), cv2.FONT_HERSHEY_SIMPLEX, scale, ink,
                max(1, int(scale * 2)), cv2.LINE_AA)
    _paste(canvas, patch, centre, float(rng.uniform(-20, 20)))


def _coin(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    metal = _colour(rng, 90, 220)
    radius = size * rng.uniform(0.3, 0.5)
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(canvas, c, int(radius), metal, -1, cv2.LINE_AA)
    cv2.circle(canvas, c, int(radius * 0.85), tuple(int(v * 0.8) for v in metal), max(1, int(radius / 10)), cv2.LINE_AA)
    if rng.random() < 0.5:
        cv2.putText(canvas, str(int(rng.integers(1, 51))), (int(c[0] - radius / 2), int(c[1] + radius / 3)),
                    cv2.FONT_HERSHEY_SIMPLEX, radius / 25, tuple(int(v * 0.6) for v in metal), 1, cv2.LINE_AA)


def _pawn(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    body = _colour(rng)
    radius = size * rng.uniform(0.25, 0.45)
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(canvas, c, int(radius), body, -1, cv2.LINE_AA)
    cv2.circle(canvas, c, max(1, int(radius * 0.45)), tuple(min(255, int(v * 1.3) + 30) for v in body), -1, cv2.LINE_AA)


def _card(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A playing card: white, with a corner index and one to a few suit marks."""
    w, h = int(size * rng.uniform(1.0, 1.4)), int(size * rng.uniform(1.4, 2.0))
    patch = np.full((h, w, 3), 240, np.uint8)
    ink = (30, 30, 200) if rng.random() < 0.5 else (20, 20, 20)
    cv2.putText(patch, str(rng.choice(list("A23456789JQK"))), (2, max(8, h // 7)), cv2.FONT_HERSHEY_SIMPLEX,
                h / 180, ink, 1, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 5))):
        x, y = int(rng.uniform(0.25, 0.75) * w), int(rng.uniform(0.25, 0.75) * h)
        cv2.circle(patch, (x, y), max(1, w // 10), ink, -1, cv2.LINE_AA)
    _paste(canvas, patch, centre, float(rng.uniform(0, 180)))


def _cable(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A cable: a thick smooth curve with a highlight along it."""
    angle = rng.uniform(0, math.pi)
    length = size * rng.uniform(2, 5)
    t = np.linspace(-0.5, 0.5, 24)
    bend = rng.uniform(-0.3, 0.3) * length
    xs = centre[0] + t * length * math.cos(angle) - bend * (t**2 - 0.25) * math.sin(angle)
    ys = centre[1] + t * length * math.sin(angle) + bend * (t**2 - 0.25) * math.cos(angle)
    points = np.round(np.column_stack([xs, ys])).astype(np.int32)
    colour = _colour(rng, 0, 256)
    width = max(2, int(size * rng.uniform(0.08, 0.2)))
    cv2.polylines(canvas, [points], False, colour, width, cv2.LINE_AA)
    cv2.polylines(canvas, [points], False, tuple(min(255, c + 60) for c in colour), max(1, width // 4), cv2.LINE_AA)


def _logo(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A square plastic part (a USB hub, a box) with a printed logo: rings, a dot or a letter."""
    side = int(size * rng.uniform(0.8, 1.3))
    body = _colour(rng)
    patch = np.full((side, side, 3), body, np.uint8)
    ink = tuple(255 - c for c in body)
    middle = (side // 2, side // 2)
    kind = rng.integers(3)
    if kind == 0:
        cv2.circle(patch, middle, max(1, side // 4), ink, max(1, side // 16), cv2.LINE_AA)
    elif kind == 1:
        cv2.circle(patch, middle, max(1, side // 8), ink, -1, cv2.LINE_AA)
        cv2.circle(patch, middle, max(1, side // 3), ink, 1, cv2.LINE_AA)
    else:
        cv2.putText(patch, _text(rng, 2), (side // 6, int(side * 0.65)), cv2.FONT_HERSHEY_SIMPLEX, side / 50, ink,
                    max(1, side // 20), cv2.LINE_AA)
    _paste(canvas, patch, centre, float(rng.uniform(0, 90)))


def _paste(canvas: np.ndarray, patch: np.ndarray, centre: tuple[float, float], angle: float) -> None:
    """Draw ``patch`` turned by ``angle`` degrees with its middle at ``centre``."""
    h, w = patch.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turn[:, 2] += (centre[0] - w / 2, centre[1] - h / 2)
    mask = np.full((h, w), 255, np.uint8)
    size = (canvas.shape[1], canvas.shape[0])
    placed = cv2.warpAffine(patch, turn, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpAffine(mask, turn, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    canvas[:] = (canvas * (1 - cover) + placed * cover).astype(np.uint8)


CLUTTER: dict[str, Callable[[np.ndarray, tuple[float, float], float, np.random.Generator], None]] = {
    "label": _label,
    "barcode": _barcode,
    "key": _key,
    "coin": _coin,
    "pawn": _pawn,
    "card": _card,
    "cable": _cable,
    "logo": _logo,
}


def draw_clutter(
    canvas: np.ndarray, count: int, size: float, keep_clear: Sequence[Spot], rng: np.random.Generator
) -> int:
    """Draw up to ``count`` random objects about ``size`` px big, none within reach of a ``keep_clear`` spot.

    Returns how many were drawn (a crowded canvas may leave no room).
    """
    h, w = canvas.shape[:2]
    drawn = 0
    for _ in range(count * 30):
        if drawn == count:
            break
        kind = str(rng.choice(list(CLUTTER)))
        reach = size * (3.0 if kind == "cable" else 1.2)
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if all(math.dist((x, y), (sx, sy)) > reach + r for sx, sy, r in keep_clear):
            CLUTTER[kind](canvas, (x, y), size * rng.uniform(0.7, 1.3), rng)
            drawn += 1
    return drawn
