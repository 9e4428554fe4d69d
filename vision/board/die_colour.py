"""The body colour of a die, named from a palette of the players' colours.

A camera's white balance shifts every colour (warm lamps, cool daylight), so a body colour is
not compared as it is seen: it is first divided by the colour of white in the same picture.
Dice with white pips carry that white on them: the brightest pixels of each such die are its
pips, and their median over the frame's dice gives the frame's white (a die with dark pips is
measured against that too). The balanced colour is compared in Lab, with lightness weighed less
than hue (uneven light changes lightness more than hue). A colour is named only when one palette
colour is near and clearly nearer than the next: otherwise the die's colour is reported unsure
with the reason, never guessed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.reading import Die

BGR = tuple[int, int, int]


class PaletteError(ValueError):
    """A palette that cannot be used: no colours, a name twice, a colour out of range."""


@dataclass(frozen=True)
class Palette:
    """The players' colours: (name, body BGR as seen under neutral light) pairs."""

    colours: tuple[tuple[str, BGR], ...]

    def __post_init__(self) -> None:
        names = [name for name, _ in self.colours]
        if not names:
            raise PaletteError("a palette needs at least one colour")
        if len(set(names)) != len(names):
            raise PaletteError(f"a palette names each colour once, got {', '.join(names)}")
        for name, bgr in self.colours:
            if len(bgr) != 3 or not all(0 <= v <= 255 for v in bgr):
                raise PaletteError(f"colour {name!r} must be three BGR values 0-255, got {bgr!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.colours)


DEFAULT_PALETTE = Palette(
    (("red", (40, 40, 200)), ("green", (60, 150, 40)), ("blue", (170, 80, 30)), ("black", (35, 35, 35)))
)
"""The four dice of the Tumblin' Dice box."""


@dataclass(frozen=True)
class ColourParams:
    """Every tuned number of the colour reader."""

    face_radius: float = 0.28  # die sizes: the disc measured around a die's centre (inside its top face at any turn)
    pip_fraction: float = 0.03  # -: the brightest this share of the disc's pixels are taken as the pips
    bright_pips: float = 1.6  # -: pips this many times lighter (grey level) than the body are white pips
    white: float = 245.0  # grey level of a white pip under neutral light (the palette's reference)
    lightness_weight: float = 0.4  # -: how much a Lab lightness difference counts against a hue difference
    max_distance: float = 30.0  # weighted Lab units: a nearest palette colour further than this is no match
    min_gap: float = 10.0  # weighted Lab units: the second nearest must be this much further to name the first


DEFAULT_COLOUR_PARAMS = ColourParams()


@dataclass(frozen=True)
class DieColour:
    """A die's colour: the palette ``name`` or None with ``reason``; ``distance`` to the nearest colour."""

    name: str | None
    distance: float
    reason: str = ""


def _disc(image: np.ndarray, die: Die, params: ColourParams) -> np.ndarray:
    """The (N, 3) float BGR pixels of the disc in the middle of the die's top face."""
    height, width = image.shape[:2]
    x, y = die.centre
    radius = max(params.face_radius * die.size, 1.5)
    x0, x1 = max(0, int(x - radius)), min(width, int(x + radius) + 2)
    y0, y1 = max(0, int(y - radius)), min(height, int(y + radius) + 2)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    inside = (xs - x) ** 2 + (ys - y) ** 2 <= radius**2
    return image[y0:y1, x0:x1][inside].astype(np.float32)


def _grey(pixels: np.ndarray) -> np.ndarray:
    return pixels @ np.array([0.114, 0.587, 0.299], np.float32)


def _body_and_pips(pixels: np.ndarray, params: ColourParams) -> tuple[np.ndarray, np.ndarray]:
    """The body's colour (per-channel median: the body covers most of the disc) and the pips' (the brightest)."""
    grey = _grey(pixels)
    count = max(3, int(len(pixels) * params.pip_fraction))
    return np.median(pixels, axis=0), np.median(pixels[np.argsort(grey)[-count:]], axis=0)


def frame_white(image: np.ndarray, dice: Sequence[Die], params: ColourParams = DEFAULT_COLOUR_PARAMS) -> np.ndarray:
    """The B, G, R of white in this frame: the median of the white pips of ``dice``; the frame's
    mean grey (grey world) when no die has white pips."""
    whites = []
    for die in dice:
        pixels = _disc(image, die, params)
        if len(pixels):
            body, pips = _body_and_pips(pixels, params)
            if _grey(pips[None])[0] >= params.bright_pips * max(_grey(body[None])[0], 1.0):
                whites.append(pips)
    if whites:
        return np.median(np.array(whites), axis=0)
    mean = image.reshape(-1, 3).mean(axis=0)
    return (mean / max(float(mean.mean()), 1.0) * params.white).astype(np.float32)


def _lab(bgr: np.ndarray) -> np.ndarray:
    pixel = np.clip(np.asarray(bgr, np.float32).reshape(1, 1, 3) / 255.0, 0, 1)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2Lab)[0, 0]


def _distance(a: np.ndarray, b: np.ndarray, params: ColourParams) -> float:
    d = a - b
    return float(np.sqrt((params.lightness_weight * d[0]) ** 2 + d[1] ** 2 + d[2] ** 2))


def die_colour(
    image: np.ndarray,
    die: Die,
    white: np.ndarray,
    palette: Palette = DEFAULT_PALETTE,
    params: ColourParams = DEFAULT_COLOUR_PARAMS,
) -> DieColour:
    """The palette colour of ``die`` in ``image`` (BGR) whose white is ``white`` (:func:`frame_white`)."""
    pixels = _disc(image, die, params)
    if not len(pixels):
        return DieColour(None, float("inf"), "no pixels of the die in the picture")
    body, _ = _body_and_pips(pixels, params)
    seen = _lab(body * params.white / np.maximum(np.asarray(white, np.float32), 1.0))
    ranked = sorted((_distance(seen, _lab(np.array(bgr, np.float32)), params), name) for name, bgr in palette.colours)
    distance, name = ranked[0]
    if distance > params.max_distance:
        return DieColour(None, distance, f"no player's colour: nearest {name} at {distance:.0f}")
    if len(ranked) > 1 and ranked[1][0] - distance < params.min_gap:
        return DieColour(None, distance, f"{name} or {ranked[1][1]}: too close to call")
    return DieColour(name, distance)
