"""A synthetic dice tray: dice with known values, drawn top-down with varied looks.

It feeds the tests now and the simulated camera later, so that every simulated roll is
read by the real reader. Drawing is done at ``SUPERSAMPLE`` times the size and shrunk,
which gives anti-aliased edges like a camera's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

SUPERSAMPLE = 2

# Pip centres on a face whose side runs from -1 to 1 (before rotation).
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}

# (die body, pips) in BGR: the looks of common dice.
DIE_LOOKS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((235, 238, 240), (25, 25, 25)),  # white, black pips
    ((205, 235, 245), (30, 30, 40)),  # ivory
    ((40, 40, 200), (245, 245, 245)),  # red, white pips
    ((35, 35, 35), (240, 240, 240)),  # black, white pips
    ((60, 150, 40), (240, 240, 240)),  # green
    ((170, 80, 30), (245, 245, 245)),  # blue
    ((40, 200, 230), (30, 30, 30)),  # yellow, black pips
    ((140, 50, 110), (60, 220, 240)),  # purple, yellow pips
    ((235, 238, 240), (40, 40, 190)),  # white, red pips
)

BACKGROUNDS: tuple[tuple[int, int, int], ...] = (
    (40, 90, 30),  # green felt
    (70, 40, 25),  # navy tray
    (60, 95, 140),  # wood
    (225, 225, 225),  # white card
    (45, 45, 50),  # dark tray
)


@dataclass(frozen=True)
class PlacedDie:
    """Where a die was drawn: its value, centre (x, y) in pixels, side in pixels, rotation in degrees."""

    value: int
    centre: tuple[float, float]
    side: float
    angle: float


@dataclass(frozen=True)
class TrayLook:
    """How a tray is drawn. Colours are BGR 0-255; blur and noise are in pixels and grey levels."""

    background: tuple[int, int, int]
    body: tuple[int, int, int]
    pips: tuple[int, int, int]
    light_gradient: float  # brightness change across the frame, as a fraction (0.3 = +-15 %)
    blur_sigma: float  # Gaussian blur, pixels
    noise_sigma: float  # Gaussian sensor noise, grey levels
    shadow: float  # how dark the shadow under each die is, 0..1


def random_look(rng: np.random.Generator) -> TrayLook:
    """A plausible look, chosen so the dice always stand out from the tray."""
    body, pips = DIE_LOOKS[rng.integers(len(DIE_LOOKS))]
    backgrounds = [b for b in BACKGROUNDS if _colour_distance(b, body) > 80]
    background = backgrounds[rng.integers(len(backgrounds))]
    return TrayLook(
        background=background,
        body=body,
        pips=pips,
        light_gradient=float(rng.uniform(0.0, 0.35)),
        blur_sigma=float(rng.uniform(0.0, 1.0)),
        noise_sigma=float(rng.uniform(0.0, 5.0)),
        shadow=float(rng.uniform(0.2, 0.5)),
    )


def _colour_distance(a: Sequence[int], b: Sequence[int]) -> float:
    return float(np.linalg.norm(np.subtract(a, b, dtype=float)))


def place_dice(
    values: Sequence[int],
    rng: np.random.Generator,
    size: tuple[int, int],
    side_range: tuple[float, float],
) -> tuple[PlacedDie, ...]:
    """Scatter dice of one random side over a ``size`` (width, height) tray without overlaps."""
    width, height = size
    for _ in range(50):
        side = float(rng.uniform(*side_range))
        placed: list[PlacedDie] = []
        for value in values:
            spot = _free_spot(placed, side, width, height, rng)
            if spot is None:
                break
            placed.append(PlacedDie(int(value), spot, side, float(rng.uniform(0, 90))))
        else:
            return tuple(placed)
        side_range = (side_range[0] * 0.9, side_range[1] * 0.9)
    raise ValueError(f"cannot fit {len(values)} dice in a {width}x{height} tray")


def _free_spot(
    placed: list[PlacedDie], side: float, width: int, height: int, rng: np.random.Generator
) -> tuple[float, float] | None:
    reach = side * math.sqrt(2) / 2  # half the diagonal: room for any rotation
    if width < 2 * reach + 4 or height < 2 * reach + 4:
        return None
    for _ in range(200):
        x = float(rng.uniform(reach + 2, width - reach - 2))
        y = float(rng.uniform(reach + 2, height - reach - 2))
        if all(math.dist((x, y), d.centre) > reach + d.side * math.sqrt(2) / 2 + 2 for d in placed):
            return x, y
    return None


def render_tray(
    values: Sequence[int],
    rng: np.random.Generator,
    size: tuple[int, int] = (640, 480),
    side_range: tuple[float, float] = (48.0, 80.0),
    look: TrayLook | None = None,
) -> tuple[np.ndarray, tuple[PlacedDie, ...]]:
    """A BGR image of dice showing ``values`` and where each was drawn."""
    look = look or random_look(rng)
    dice = place_dice(values, rng, size, side_range)
    width, height = size
    canvas = np.empty((height * SUPERSAMPLE, width * SUPERSAMPLE, 3), np.uint8)
    canvas[:] = look.background
    for die in dice:
        _draw_die(canvas, die, look)
    image = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    texture = rng.normal(0, 5, image.shape[:2]).astype(np.float32)  # felt or wood grain
    image += (texture * _off_dice(dice, size))[..., None]
    image *= (_light_field(size, look.light_gradient, rng) * _shadows(dice, size, look.shadow))[..., None]
    if look.blur_sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), look.blur_sigma)
    image += rng.normal(0, look.noise_sigma, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8), dice


def _outline(die: PlacedDie, scale: float = 1.0, offset: tuple[float, float] = (0, 0)) -> np.ndarray:
    """The die's rounded square outline in supersampled pixels."""
    half = die.side * scale / 2
    corner = half * 0.22
    points = []
    for cx, cy, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for step in range(7):
            theta = math.radians(start + step * 15)
            points.append(
                ((half - corner) * cx + corner * math.cos(theta), (half - corner) * cy + corner * math.sin(theta))
            )
    return _to_canvas(np.array(points), die, offset)


def _to_canvas(points: np.ndarray, die: PlacedDie, offset: tuple[float, float] = (0, 0)) -> np.ndarray:
    theta = math.radians(die.angle)
    rotation = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    moved = points @ rotation.T + np.add(die.centre, offset)
    return np.round(moved * SUPERSAMPLE * 16).astype(np.int32)  # 4 fractional bits


def _dice_mask(dice: Sequence[PlacedDie], size: tuple[int, int], scale: float, shift: float) -> np.ndarray:
    """1.0 inside the (scaled, shifted) die outlines, at image resolution."""
    mask = np.zeros((size[1], size[0]), np.float32)
    polygons = [_outline(d, scale, (d.side * shift, d.side * shift)) // SUPERSAMPLE for d in dice]
    cv2.fillPoly(mask, polygons, 1.0, cv2.LINE_AA, shift=4)
    return mask


def _shadows(dice: Sequence[PlacedDie], size: tuple[int, int], darkness: float) -> np.ndarray:
    """Brightness factor of soft shadows cast down and to the right of each die."""
    side = float(np.mean([d.side for d in dice])) if dice else 1.0
    shade = cv2.GaussianBlur(_dice_mask(dice, size, 1.04, 0.08), (0, 0), side * 0.06)
    return 1 - darkness * shade * (1 - _dice_mask(dice, size, 1.0, 0.0))


def _off_dice(dice: Sequence[PlacedDie], size: tuple[int, int]) -> np.ndarray:
    return 1 - _dice_mask(dice, size, 1.0, 0.0)


def _draw_die(canvas: np.ndarray, die: PlacedDie, look: TrayLook) -> None:
    edge = tuple(c * 0.75 for c in look.body)
    cv2.fillPoly(canvas, [_outline(die)], edge, cv2.LINE_AA, shift=4)
    cv2.fillPoly(canvas, [_outline(die, 0.92)], look.body, cv2.LINE_AA, shift=4)
    pip_radius = die.side * 0.095 * SUPERSAMPLE * 16
    spread = die.side * 0.26
    for px, py in PIP_LAYOUTS[die.value]:
        (centre,) = _to_canvas(np.array([[px * spread, py * spread]]), die)
        cv2.circle(canvas, tuple(int(v) for v in centre), int(pip_radius), look.pips, -1, cv2.LINE_AA, shift=4)


def _light_field(size: tuple[int, int], strength: float, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a linear ramp in a random direction, ``strength`` from dark to bright side."""
    width, height = size
    theta = rng.uniform(0, 2 * math.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (xs / width - 0.5) * math.cos(theta) + (ys / height - 0.5) * math.sin(theta)
    return (1 + strength * ramp).astype(np.float32)
