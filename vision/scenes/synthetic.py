"""A synthetic dice tray: dice with known values, drawn top-down with varied looks.

It feeds the tests now and the simulated camera later, so that every simulated roll is
read by the real reader. Drawing is done at ``SUPERSAMPLE`` times the size and shrunk,
which gives anti-aliased edges like a camera's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.read.classify import far_side_degrees, far_side_direction
from vision.scenes.clutter import ON_A_TABLE, Spot, draw_clutter, draw_keyboard, draw_phone
from vision.scenes.pips import PIP_LAYOUTS

SUPERSAMPLE = 2

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
    """Where a die was drawn: its value, top face centre (x, y) in pixels, side in pixels, rotation in degrees.

    ``lean`` (x, y pixels) is how far the top face lies from the bottom one in the picture, as a
    camera that looks at the tray obliquely sees it: the side faces between them show their own pips.
    """

    value: int
    centre: tuple[float, float]
    side: float
    angle: float
    lean: tuple[float, float] = (0.0, 0.0)

    def corners(self) -> np.ndarray:
        """The top face's four corners (x, y) in pixels, in order around it."""
        theta = math.radians(self.angle)
        along = np.array([math.cos(theta), math.sin(theta)]) * self.side / 2
        across = np.array([-math.sin(theta), math.cos(theta)]) * self.side / 2
        c = np.array(self.centre)
        return np.array([c - along - across, c + along - across, c + along + across, c - along + across])

    def box(self) -> tuple[float, float, float]:
        """Centre (x, y) and longer side of the axis-aligned box around everything seen of the die."""
        points = np.vstack([self.corners(), self.corners() - np.array(self.lean)])
        low, high = points.min(axis=0), points.max(axis=0)
        return float((low[0] + high[0]) / 2), float((low[1] + high[1]) / 2), float(max(high - low))


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
    touching: bool = False,
) -> tuple[PlacedDie, ...]:
    """Scatter dice of one random side over a ``size`` (width, height) tray without overlaps.

    With ``touching`` every die after the first is pressed flat against one already placed where
    there is room, so the dice lie in touching groups.
    """
    width, height = size
    for _ in range(50):
        side = float(rng.uniform(*side_range))
        placed: list[PlacedDie] = []
        for value in values:
            die = _touching_die(placed, int(value), side, width, height, rng) if touching and placed else None
            if die is None:
                spot = _free_spot(placed, side, width, height, rng)
                if spot is None:
                    break
                die = PlacedDie(int(value), spot, side, float(rng.uniform(0, 90)))
            placed.append(die)
        else:
            return tuple(placed)
        side_range = (side_range[0] * 0.9, side_range[1] * 0.9)
    raise ValueError(f"cannot fit {len(values)} dice in a {width}x{height} tray")


def _touching_die(
    placed: list[PlacedDie], value: int, side: float, width: int, height: int, rng: np.random.Generator
) -> PlacedDie | None:
    """A die pressed against a face of a placed one (slid along it, a few degrees askew), or None if none fits."""
    for _ in range(40):
        neighbour = placed[int(rng.integers(len(placed)))]
        angle = neighbour.angle + float(rng.uniform(-4, 4))
        theta = math.radians(neighbour.angle + 90 * int(rng.integers(4)))
        gap = (neighbour.side + side) / 2 + float(rng.uniform(0.5, 2.5))
        slide = float(rng.uniform(-0.45, 0.45)) * side
        x = neighbour.centre[0] + gap * math.cos(theta) - slide * math.sin(theta)
        y = neighbour.centre[1] + gap * math.sin(theta) + slide * math.cos(theta)
        die = PlacedDie(value, (x, y), side, angle)
        corners = die.corners()
        inside = corners.min() >= 2 and corners[:, 0].max() <= width - 2 and corners[:, 1].max() <= height - 2
        if inside and not any(_squares_overlap(die, other) for other in placed):
            return die
    return None


def _squares_overlap(a: PlacedDie, b: PlacedDie) -> bool:
    """Whether two dice's top faces overlap (separating axis test on their outlines, shrunk by 2 %)."""
    shapes = [(d.corners() - d.centre) * 0.98 + d.centre for d in (a, b)]
    for shape in shapes:
        for i in range(4):
            edge = shape[(i + 1) % 4] - shape[i]
            axis = np.array([-edge[1], edge[0]])
            ranges = [(s @ axis).min() for s in shapes], [(s @ axis).max() for s in shapes]
            if ranges[1][0] < ranges[0][1] or ranges[1][1] < ranges[0][0]:
                return False
    return True


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
    *,
    touching: bool = False,
    lean: float = 0.0,
    far_side: float | None = None,
    clutter: int = 0,
    clutter_kinds: Sequence[str] = ON_A_TABLE,
    desk: bool = False,
    translucent: bool = False,
) -> tuple[np.ndarray, tuple[PlacedDie, ...]]:
    """A BGR image of dice showing ``values`` and where each was drawn.

    ``touching`` presses the dice together in groups; ``lean`` (die sides) shows them as an
    oblique camera does, side faces and all, the camera's far side ``far_side`` degrees
    counter-clockwise from the picture's top (any way when None); ``clutter`` draws that many
    things of ``clutter_kinds`` that are not dice (labels, keys, coins, cables...) beside them;
    ``desk`` lays them on a desk as a webcam sees it, a laptop's keyboard along one edge (the dice
    may lie on its deck, never on a key), a phone and cables beside them; ``translucent`` dice let
    the table show through.
    """
    look = look or random_look(rng)
    dice = place_dice(values, rng, size, side_range, touching)
    if lean > 0:
        # the top face lies towards the far side
        if far_side is None:
            turn = rng.uniform(0, 2 * math.pi)
            towards = (math.cos(turn), math.sin(turn))
        else:
            towards = far_side_direction(far_side)
        dice = tuple(replace(d, lean=(d.side * lean * towards[0], d.side * lean * towards[1])) for d in dice)
    width, height = size
    canvas = np.empty((height * SUPERSAMPLE, width * SUPERSAMPLE, 3), np.uint8)
    canvas[:] = look.background
    side = float(np.mean([d.side for d in dice])) if dice else float(np.mean(side_range))
    keep_clear = [(d.centre[0] * SUPERSAMPLE, d.centre[1] * SUPERSAMPLE, d.side * SUPERSAMPLE) for d in dice]
    if desk:
        _draw_desk(canvas, side * SUPERSAMPLE, keep_clear, rng)
    if clutter:
        draw_clutter(canvas, clutter, side * SUPERSAMPLE, keep_clear, rng, clutter_kinds)
    under = canvas.copy() if translucent else canvas
    for die in sorted(dice, key=lambda d: -(d.centre[0] * d.lean[0] + d.centre[1] * d.lean[1])):
        if die.lean != (0.0, 0.0):
            _draw_sides(canvas, die, look, rng)
        draw_die(canvas, die, look)
    if translucent:
        opacity = float(rng.uniform(0.55, 0.8))
        canvas[:] = (under * (1 - opacity) + canvas * opacity).astype(np.uint8)
    image = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    texture = rng.normal(0, 5, image.shape[:2]).astype(np.float32)  # felt or wood grain
    image += (texture * off_dice(dice, size))[..., None]
    image *= (light_field(size, look.light_gradient, rng) * shadows(dice, size, look.shadow))[..., None]
    if look.blur_sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), look.blur_sigma)
    image += rng.normal(0, look.noise_sigma, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8), dice


def tray_far_side(dice: Sequence[PlacedDie]) -> float | None:
    """Where ``render_tray`` put the camera's far side (degrees counter-clockwise from the picture's
    top): the way the dice lean, or None for dice drawn straight from above."""
    leaning = [d.lean for d in dice if d.lean != (0.0, 0.0)]
    if not leaning:
        return None
    x, y = leaning[0]
    return far_side_degrees(x, y)


def _draw_desk(canvas: np.ndarray, side: float, keep_clear: list[Spot], rng: np.random.Generator) -> None:
    """A laptop's keys along one edge (none within reach of a die), a phone where there is room
    (kept clear of from then on), and a cable or two."""
    edge = str(rng.choice(["top", "bottom", "left", "right"], p=[0.4, 0.2, 0.2, 0.2]))
    draw_keyboard(canvas, side * rng.uniform(0.85, 1.25), edge, keep_clear, rng)
    h, w = canvas.shape[:2]
    for _ in range(30):
        spot = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        if all(math.dist(spot, (x, y)) > 2.5 * side + r for x, y, r in keep_clear):
            draw_phone(canvas, spot, side, rng)
            keep_clear.append((*spot, 2.2 * side))
            break
    draw_clutter(canvas, int(rng.integers(1, 3)), side, keep_clear, rng, kinds=("cable",))


def render_garbage(rng: np.random.Generator, size: tuple[int, int] = (640, 480)) -> np.ndarray:
    """A BGR picture with no dice that once fooled the reader: random colours on a coarse grid
    blown up into soft blobs the size of pips and dice, or blurred noise stretched to full contrast."""
    width, height = size
    if rng.random() < 0.75:
        cells = int(rng.choice([8, 16, 32, 64, 128]))
        grid = rng.integers(0, 256, (max(1, cells * height // width), cells, 3), dtype=np.uint8)
        return cv2.resize(grid, size, interpolation=int(rng.choice([cv2.INTER_LINEAR, cv2.INTER_CUBIC])))
    noise = cv2.GaussianBlur(rng.integers(0, 256, (height, width), dtype=np.uint8), (0, 0), float(rng.uniform(3, 16)))
    return cv2.cvtColor(cv2.normalize(noise, None, 0, 255, cv2.NORM_MINMAX), cv2.COLOR_GRAY2BGR)


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


def shadows(dice: Sequence[PlacedDie], size: tuple[int, int], darkness: float) -> np.ndarray:
    """Brightness factor of soft shadows cast down and to the right of each die."""
    side = float(np.mean([d.side for d in dice])) if dice else 1.0
    shade = cv2.GaussianBlur(_dice_mask(dice, size, 1.04, 0.08), (0, 0), side * 0.06)
    return 1 - darkness * shade * (1 - _dice_mask(dice, size, 1.0, 0.0))


def off_dice(dice: Sequence[PlacedDie], size: tuple[int, int]) -> np.ndarray:
    """1 where no die lies, 0 on the dice: the surface's own texture goes only there."""
    return 1 - _dice_mask(dice, size, 1.0, 0.0)


def draw_die(canvas: np.ndarray, die: PlacedDie, look: TrayLook) -> None:
    """One die, its visible side faces and top face with pips, on a canvas SUPERSAMPLE times the frame."""
    edge = tuple(c * 0.75 for c in look.body)
    cv2.fillPoly(canvas, [_outline(die)], edge, cv2.LINE_AA, shift=4)
    cv2.fillPoly(canvas, [_outline(die, 0.92)], look.body, cv2.LINE_AA, shift=4)
    pip_radius = die.side * 0.095 * SUPERSAMPLE * 16
    spread = die.side * 0.26
    for px, py in PIP_LAYOUTS[die.value]:
        (centre,) = _to_canvas(np.array([[px * spread, py * spread]]), die)
        cv2.circle(canvas, tuple(int(v) for v in centre), int(pip_radius), look.pips, -1, cv2.LINE_AA, shift=4)


def _draw_sides(canvas: np.ndarray, die: PlacedDie, look: TrayLook, rng: np.random.Generator) -> None:
    """The side faces an oblique camera sees below the top face, shaded, each with its own pips."""
    top = die.corners()
    down = -np.array(die.lean)
    hidden = {die.value, 7 - die.value}
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        outward = np.array([b[1] - a[1], -(b[0] - a[0])])
        if np.dot(outward, top.mean(axis=0) - a) > 0:
            outward = -outward
        if np.dot(outward, down) <= 0:
            continue
        quad = np.array([a, b, b + down, a + down])
        shade = float(rng.uniform(0.55, 0.85))
        cv2.fillPoly(canvas, [np.round(quad * SUPERSAMPLE * 16).astype(np.int32)],
                     tuple(c * shade for c in look.body), cv2.LINE_AA, shift=4)
        value = int(rng.choice([v for v in range(1, 7) if v not in hidden]))
        hidden |= {value, 7 - value}
        middle, half_along, half_down = (a + b) / 2 + down / 2, (b - a) / 2, down / 2
        circle = np.array([(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 16, endpoint=False)])
        for u, w in PIP_LAYOUTS[value]:
            pip = [middle + (u * 0.52 + 0.19 * cu) * half_along + (w * 0.52 + 0.19 * cw) * half_down
                   for cu, cw in circle]
            cv2.fillPoly(canvas, [np.round(np.array(pip) * SUPERSAMPLE * 16).astype(np.int32)],
                         tuple(c * shade for c in look.pips), cv2.LINE_AA, shift=4)


def light_field(size: tuple[int, int], strength: float, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a linear ramp in a random direction, ``strength`` from dark to bright side."""
    width, height = size
    theta = rng.uniform(0, 2 * math.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (xs / width - 0.5) * math.cos(theta) + (ys / height - 0.5) * math.sin(theta)
    return (1 + strength * ramp).astype(np.float32)
