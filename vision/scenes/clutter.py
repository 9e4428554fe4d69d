"""Things that are not dice, drawn beside synthetic dice: a square object with marks on it is no die.

Printed labels and cable tags, barcodes, keyboard keys (loose, or a laptop's rows along an edge),
coins, pawns, playing cards, cables, logos, dominoes, pips printed on a box or a card, buttons and
phones. The reader is trained to reject them and ``bench-vision`` checks it never reports one.
Everything is drawn top-down into a BGR canvas with OpenCV, in canvas pixels.
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.scenes.pips import PIP_LAYOUTS

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


KEY_GLYPHS = tuple(string.ascii_uppercase + string.digits) + ("Esc", "Fn", "Tab", "Alt", "Ctrl", "^", "<", ">", "v")
ARROWS = {"^": (0, -1), "v": (0, 1), "<": (-1, 0), ">": (1, 0)}


def keycap(side: int, rng: np.random.Generator) -> np.ndarray:
    """A keyboard key ``side`` px square: a dark or light rounded cap with a letter, a word or an arrow.

    No '.' or ':' on it: from above such a key would show what a die's one or two shows."""
    cap = _colour(rng, 0, 60) if rng.random() < 0.6 else _colour(rng, 185, 256)
    ink = tuple(255 - c for c in cap)
    patch = np.full((side, side, 3), cap, np.uint8)
    cv2.rectangle(patch, (1, 1), (side - 2, side - 2), tuple(int(c * 0.8) for c in cap), max(1, side // 12))
    glyph = str(rng.choice(KEY_GLYPHS))
    if glyph in ARROWS:
        dx, dy = ARROWS[glyph]
        half = side * rng.uniform(0.15, 0.25)
        middle = np.array([side / 2, side / 2])
        start, end = middle - np.array([dx, dy]) * half, middle + np.array([dx, dy]) * half
        cv2.arrowedLine(patch, tuple(int(v) for v in start), tuple(int(v) for v in end), ink, max(1, side // 14),
                        cv2.LINE_AA, tipLength=0.45)
    else:
        scale = side / (40 + 14 * (len(glyph) - 1))
        corner = rng.random() < 0.4  # a laptop's letter sits in a corner as often as in the middle
        origin = (side // 8, side // 3) if corner else (side // 4, int(side * 0.7))
        cv2.putText(patch, glyph, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, max(1, int(scale * 2)), cv2.LINE_AA)
    return patch


def _key(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A keyboard key lying loose, turned a little."""
    _paste(canvas, keycap(max(4, int(size)), rng), centre, float(rng.uniform(-20, 20)))


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


def _domino(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A domino: two squares of pips side by side with a line between, as a die's face twice."""
    half = max(6, int(size * rng.uniform(0.7, 1.0)))
    body, pips = ((235, 235, 230), (20, 20, 20)) if rng.random() < 0.6 else ((25, 25, 25), (235, 235, 235))
    patch = np.full((half, 2 * half, 3), body, np.uint8)
    cv2.line(patch, (half, half // 8), (half, half - half // 8), pips, max(1, half // 20), cv2.LINE_AA)
    for offset in (0, half):
        _pips(patch, (offset + half / 2, half / 2), half, int(rng.integers(0, 7)), pips)
    _paste(canvas, patch, centre, float(rng.uniform(0, 180)))


def _printed_pips(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A box or a card printed with a die's face: flat pips on a sheet larger than a die, with print around them."""
    w, h = int(size * rng.uniform(1.6, 2.6)), int(size * rng.uniform(1.6, 2.6))
    paper = _colour(rng, 150, 256)
    patch = np.full((h, w, 3), paper, np.uint8)
    ink = _colour(rng, 0, 100)
    face = int(size * rng.uniform(0.4, 0.7))
    x, y = rng.uniform(face / 2, w - face / 2), rng.uniform(face / 2, h - face / 2)
    if rng.random() < 0.5:
        cv2.rectangle(patch, (int(x - face / 2), int(y - face / 2)), (int(x + face / 2), int(y + face / 2)), ink, 1,
                      cv2.LINE_AA)
    _pips(patch, (x, y), face, int(rng.integers(1, 7)), ink)
    cv2.putText(patch, _text(rng, int(rng.integers(3, 8))), (2, h - 4), cv2.FONT_HERSHEY_SIMPLEX, max(0.25, h / 160),
                ink, 1, cv2.LINE_AA)
    _paste(canvas, patch, centre, float(rng.uniform(0, 180)))


def _button(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A round push button or a shirt button: a disc with a ring, a symbol or two to four holes."""
    radius = size * rng.uniform(0.3, 0.5)
    body = _colour(rng)
    ink = tuple(255 - c for c in body)
    c = (int(centre[0]), int(centre[1]))
    cv2.circle(canvas, c, max(2, int(radius)), body, -1, cv2.LINE_AA)
    cv2.circle(canvas, c, max(1, int(radius * 0.8)), tuple(int(v * 0.75) for v in body), max(1, int(radius / 8)), cv2.LINE_AA)
    holes = int(rng.integers(0, 5))
    if holes >= 2:
        for k in range(holes):
            t = 2 * math.pi * k / holes + rng.uniform(0, math.pi)
            hole = (int(c[0] + radius * 0.3 * math.cos(t)), int(c[1] + radius * 0.3 * math.sin(t)))
            cv2.circle(canvas, hole, max(1, int(radius * 0.12)), ink, -1, cv2.LINE_AA)
    else:
        cv2.circle(canvas, c, max(1, int(radius * 0.35)), ink, max(1, int(radius / 10)), cv2.LINE_AA)


def _pips(patch: np.ndarray, middle: tuple[float, float], side: float, value: int, ink: tuple[int, ...]) -> None:
    """A die face's pips (``PIP_LAYOUTS``, none for 0) ``side`` px wide, drawn flat at ``middle``."""
    for px, py in PIP_LAYOUTS.get(value, ()):
        point = (int(middle[0] + px * side * 0.27), int(middle[1] + py * side * 0.27))
        cv2.circle(patch, point, max(1, int(side * 0.09)), ink, -1, cv2.LINE_AA)


def draw_keyboard(canvas: np.ndarray, key: float, edge: str, keep_clear: Sequence[Spot], rng: np.random.Generator) -> int:
    """A laptop keyboard along one ``edge`` of the canvas (top, bottom, left, right), two to four rows of
    keys ``key`` px wide, the outer row cut by the frame; keys within reach of a ``keep_clear`` spot are
    left out. Returns how many keys were drawn."""
    h, w = canvas.shape[:2]
    along, across = (w, h) if edge in ("top", "bottom") else (h, w)
    pitch, rows = key * rng.uniform(1.12, 1.25), int(rng.integers(2, 5))
    deck = _colour(rng, 20, 80) if rng.random() < 0.5 else _colour(rng, 150, 220)
    depth = rows * pitch - key * rng.uniform(0.2, 0.6)  # the outer row partly out of frame
    band = np.array([[0, 0], [along, 0], [along, depth], [0, depth]], np.float32)
    drawn = 0
    cv2.fillPoly(canvas, [np.round(_to_edge(band, edge, along, across)).astype(np.int32)], deck, cv2.LINE_AA)
    for row in range(rows):
        start = -rng.uniform(0, pitch)
        for column in range(int(along / pitch) + 2):
            x, y = start + column * pitch + row * pitch * 0.3, depth - (row + 0.5) * pitch
            (cx, cy), = _to_edge(np.array([[x, y]], np.float32), edge, along, across)
            if all(math.dist((cx, cy), (sx, sy)) > key + r for sx, sy, r in keep_clear):
                _paste(canvas, keycap(max(4, int(key)), rng), (float(cx), float(cy)), 0.0)
                drawn += 1
    return drawn


def _to_edge(points: np.ndarray, edge: str, along: float, across: float) -> np.ndarray:
    """Points laid out along the top edge (x along it, y into the canvas) moved to ``edge``."""
    x, y = points[:, 0], points[:, 1]
    placed = {"top": (x, y), "bottom": (x, across - y), "left": (y, x), "right": (across - y, x)}[edge]
    return np.column_stack(placed)


def draw_phone(canvas: np.ndarray, centre: tuple[float, float], size: float, rng: np.random.Generator) -> None:
    """A phone lying flat: a dark rounded slab with a lit or dark screen and a camera dot."""
    w, h = int(size * rng.uniform(1.6, 2.2)), int(size * rng.uniform(3.2, 4.4))
    patch = np.full((h, w, 3), _colour(rng, 10, 50), np.uint8)
    screen = _colour(rng, 30, 256) if rng.random() < 0.5 else (25, 25, 25)
    cv2.rectangle(patch, (w // 12, h // 14), (w - w // 12, h - h // 14), screen, -1)
    cv2.circle(patch, (w // 2, h // 28), max(1, w // 25), (70, 70, 70), -1, cv2.LINE_AA)
    _paste(canvas, patch, centre, float(rng.uniform(0, 180)))


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
    "domino": _domino,
    "printed": _printed_pips,
    "button": _button,
}
# What lies beside a tray in the scenes the tests and benchmarks have always drawn; training draws
# every kind (dominoes, printed pips and buttons look most like dice of all).
ON_A_TABLE = ("label", "barcode", "key", "coin", "pawn", "card", "cable", "logo")


def draw_clutter(
    canvas: np.ndarray, count: int, size: float, keep_clear: Sequence[Spot], rng: np.random.Generator,
    kinds: Sequence[str] = ON_A_TABLE,
) -> int:
    """Draw up to ``count`` random objects of ``kinds`` about ``size`` px big, none within reach of a
    ``keep_clear`` spot.

    Returns how many were drawn (a crowded canvas may leave no room).
    """
    h, w = canvas.shape[:2]
    drawn = 0
    for _ in range(count * 30):
        if drawn == count:
            break
        kind = str(rng.choice(list(kinds)))
        reach = size * (3.0 if kind == "cable" else 1.2)
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        if all(math.dist((x, y), (sx, sy)) > reach + r for sx, sy, r in keep_clear):
            CLUTTER[kind](canvas, (x, y), size * rng.uniform(0.7, 1.3), rng)
            drawn += 1
    return drawn
