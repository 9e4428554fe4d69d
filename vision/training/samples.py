"""Training samples: augmented detector windows with their target maps, and augmented die crops.

Augmentations stand in for dice, trays and light we have not seen: any turn and mirror image,
swapped colour channels and inverted colours (dark pips on light dice become light on dark),
brightness, contrast, blur, motion blur (a die still rolling) and sensor noise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.classify import NOT_A_DIE, die_crop
from vision.detect import shrink_and_pad
from vision.params import ReaderParams
from vision.training.photos import Scene

WINDOW = 160  # det px: side of a detector training window
MIN_DET_SIDE, MAX_DET_SIDE = 7.0, 100.0  # det px: the die sizes the detector learns


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, light and camera augmentations of a uint8 BGR image."""
    out = image[..., rng.permutation(3)] if rng.random() < 0.5 else image
    if rng.random() < 0.15:
        out = 255 - out
    out = out.astype(np.float32)
    out = (out - 128) * rng.uniform(0.7, 1.3) + 128 + rng.uniform(-35, 35)
    out *= rng.uniform(0.85, 1.15, 3).astype(np.float32)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 1.2))
    elif rng.random() < 0.15:
        out = cv2.filter2D(out, -1, motion_kernel(float(rng.uniform(2, 0.12 * min(out.shape[:2]))), float(rng.uniform(0, 180))))
    out += rng.normal(0, rng.uniform(0, 6), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line ``length`` px long at ``angle`` degrees: the smear of a die still rolling."""
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    middle = size // 2
    dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
    cv2.line(kernel, (round(middle - dx), round(middle - dy)), (round(middle + dx), round(middle + dy)), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def flip_turn(image: np.ndarray, points: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random one of the 8 mirror/quarter-turn images, with the (x, y) points moved along."""
    h, w = image.shape[:2]
    points = points.copy()
    if rng.random() < 0.5:
        image = image[:, ::-1]
        points[:, 0] = w - points[:, 0]
    for _ in range(int(rng.integers(4))):
        h, w = image.shape[:2]
        image = np.rot90(image)  # counter-clockwise: (x, y) -> (y, w - x)
        points = np.column_stack([points[:, 1], w - points[:, 0]]) if len(points) else points
    return np.ascontiguousarray(image), points


def detector_sample(scene: Scene, rng: np.random.Generator, p: ReaderParams) -> tuple[np.ndarray, np.ndarray]:
    """A WINDOW-square detector input (uint8 BGR) and its target maps (5, WINDOW/stride, WINDOW/stride).

    Target channels: centre heat (1 at a die's cell, a gaussian around it), log size, offset x, y,
    and a mask of the cells where size and offset are learned.
    """
    sizes = [d[2] for d in scene.dice]
    typical = float(np.median(sizes)) if sizes else 60.0
    target_side = np.exp(rng.uniform(np.log(MIN_DET_SIDE + 2), np.log(MAX_DET_SIDE - 10)))
    shrink = max(typical / target_side, 0.5)
    image = shrink_and_pad(scene.image, shrink, 1)
    points = np.array([[d[0] / shrink, d[1] / shrink] for d in scene.dice], np.float32).reshape(-1, 2)
    image, points = flip_turn(image, points, rng)
    h, w = image.shape[:2]
    pad_y, pad_x = max(0, WINDOW - h), max(0, WINDOW - w)
    image = cv2.copyMakeBorder(image, 0, pad_y, 0, pad_x, cv2.BORDER_REFLECT)
    x0 = int(rng.integers(0, image.shape[1] - WINDOW + 1))
    y0 = int(rng.integers(0, image.shape[0] - WINDOW + 1))
    window = recolour(image[y0 : y0 + WINDOW, x0 : x0 + WINDOW], rng)
    return window, centre_targets(points - [x0, y0], [d[2] / shrink for d in scene.dice], p.detector_stride)


def centre_targets(points: np.ndarray, sides: list[float], stride: int) -> np.ndarray:
    """The detector's target maps for dice at ``points`` (det px) of ``sides`` (det px)."""
    cells = WINDOW // stride
    maps = np.zeros((5, cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for (x, y), side in zip(points, sides):
        cx, cy = x / stride, y / stride
        ix, iy = int(np.floor(cx)), int(np.floor(cy))
        if not (0 <= ix < cells and 0 <= iy < cells) or side > MAX_DET_SIDE * 1.2:
            continue
        sigma = max(0.6, 0.12 * side / stride)
        heat = np.exp(-((xs - ix) ** 2 + (ys - iy) ** 2) / (2 * sigma**2))
        maps[0] = np.maximum(maps[0], heat)
        maps[0, iy, ix] = 1.0
        maps[1:5, iy, ix] = (np.log(side), cx - ix, cy - iy, 1.0)
    return maps


POSITIVE_SCALE = (0.6, 1.3)  # -: a die crop's size over the die's labelled size (the detector's own: 0.61-1.24, 5th-95th percentile)
POSITIVE_SHIFT = 0.2  # die sizes: a die crop's centre lies up to this far from the die's, in x and in y
SIGHTING_JITTER = (0.05, 0.03)  # -, die sizes: size and shift jitter of a crop around the detector's own candidate
ON_A_DIE = 0.25  # die sizes: a detector candidate this close to a labelled die's centre is a sighting of it
BESIDE_A_DIE = 0.75  # die sizes: a "no die" crop's centre lies at least this far from every die's centre...
MANY_DICE = 1.6  # die sizes: ...unless the crop is at least this big (two touching dice taken for one)...
PART_OF_A_DIE = 0.45  # die sizes: ...or at most this big and off its centre (a pip, a corner: never the die itself)


@dataclass(frozen=True)
class Sighting:
    """Where the trained detector put a candidate on a training scene, how big it judged it, and
    what the classifier must answer there: the face of the labelled die it lies on (class
    value - 1), or NOT_A_DIE where it lies on no die."""

    centre: tuple[float, float]
    size: float
    label: int


def sightings(scene: Scene, candidates: Iterable[tuple[tuple[float, float], float]]) -> list[Sighting]:
    """The detector's candidates (centre, size) on ``scene`` as the classifier must answer them: on a
    die with a clear face (within ON_A_DIE of its centre), far from every die (BESIDE_A_DIE), or a
    part of a die off its centre (a pip taken for a small die: PART_OF_A_DIE); any other candidate,
    or one on a die whose face is unclear, teaches nothing and is left out."""
    found = []
    for centre, size in candidates:
        distances = [(np.hypot(centre[0] - x, centre[1] - y) / side, size / side, value) for x, y, side, value in scene.dice]
        nearest, relative, value = min(distances, default=(np.inf, 1.0, 0))
        if nearest < ON_A_DIE and value and relative > PART_OF_A_DIE:
            found.append(Sighting(centre, size, value - 1))
        elif nearest >= BESIDE_A_DIE or (nearest >= ON_A_DIE and relative <= PART_OF_A_DIE):
            found.append(Sighting(centre, size, NOT_A_DIE))
    return found


def die_crops(
    scene: Scene, seen: Sequence[Sighting], per_die: int, negatives: int, rng: np.random.Generator, p: ReaderParams
) -> tuple[list[np.ndarray], list[int]]:
    """Fresh crops of one scene for one epoch, as the reader will cut them: of every die with a clear
    face (class value - 1), half around its labelled box shifted and scaled as the detector errs
    (POSITIVE_SHIFT, POSITIVE_SCALE) and half around the detector's own candidates on it; and of no
    die (class 6): the detector's candidates on no die and places at least BESIDE_A_DIE from every
    die, never a slightly tight crop of a real die. Any turn; colours are left to ``recolour``."""
    crops, labels = [], []

    def cut(centre: tuple[float, float], size: float, label: int) -> None:
        crop = die_crop(scene.image, centre, size, p, angle=float(rng.uniform(0, 360)))
        crops.append(crop[:, ::-1] if rng.random() < 0.5 else crop)
        labels.append(label)

    on_dice = [s for s in seen if s.label != NOT_A_DIE]
    for x, y, side, value in scene.dice:
        if not value:
            continue
        mine = [s for s in on_dice if np.hypot(s.centre[0] - x, s.centre[1] - y) < ON_A_DIE * side]
        for index in range(per_die):
            if mine and index % 2:
                s = mine[int(rng.integers(len(mine)))]
                shift = rng.normal(0, SIGHTING_JITTER[1] * side, 2)
                cut((s.centre[0] + shift[0], s.centre[1] + shift[1]), s.size * rng.uniform(1 - SIGHTING_JITTER[0], 1 + SIGHTING_JITTER[0]), value - 1)
            else:
                shift = rng.uniform(-POSITIVE_SHIFT, POSITIVE_SHIFT, 2) * side
                cut((x + shift[0], y + shift[1]), side * np.exp(rng.uniform(*np.log(POSITIVE_SCALE))), value - 1)
    false = [s for s in seen if s.label == NOT_A_DIE]
    for s in (false[i] for i in rng.permutation(len(false))[:negatives]):
        cut(s.centre, s.size * rng.uniform(0.9, 1.1), NOT_A_DIE)
    typical = float(np.median([d[2] for d in scene.dice])) if scene.dice else float(rng.uniform(20, 120))
    made = 0
    for _ in range(negatives * 20):
        if made == negatives - negatives // 2:
            break
        point, size = _negative_place(scene, typical, rng)
        if any(np.hypot(point[0] - x, point[1] - y) < BESIDE_A_DIE * side and PART_OF_A_DIE * side < size < MANY_DICE * side
               for x, y, side, _ in scene.dice):
            continue  # a crop this close to a die shows that die, unless it shows two or only a part
        cut(point, size, NOT_A_DIE)
        made += 1
    return crops, labels


def _negative_place(scene: Scene, typical: float, rng: np.random.Generator) -> tuple[tuple[float, float], float]:
    """Where a crop may show no die, and its size: anywhere, beside a die, two touching dice taken as
    one, or a pip or corner of one die off its centre."""
    h, w = scene.image.shape[:2]
    kind = rng.random()
    if not scene.dice or kind < 0.45:
        return (rng.uniform(0, w), rng.uniform(0, h)), typical * rng.uniform(0.7, 1.4)
    x, y, side, _ = scene.dice[int(rng.integers(len(scene.dice)))]
    angle = rng.uniform(0, 2 * np.pi)
    if kind < 0.6:  # two neighbouring dice taken for one big die: its centre lies between them
        others = [d for d in scene.dice if (d[0], d[1]) != (x, y)]
        if others:
            nx, ny, nside, _ = min(others, key=lambda d: np.hypot(d[0] - x, d[1] - y))
            gap = float(np.hypot(nx - x, ny - y))
            if gap < 1.6 * max(side, nside):
                return ((x + nx) / 2, (y + ny) / 2), (gap + max(side, nside)) * rng.uniform(0.9, 1.1)
    if kind < 0.85:  # beside a die: the table next to it, the gap between two
        reach = rng.uniform(BESIDE_A_DIE, 1.3) * side
        return (x + reach * np.cos(angle), y + reach * np.sin(angle)), typical * rng.uniform(0.7, 1.4)
    reach = rng.uniform(ON_A_DIE, 0.45) * side  # a pip or a corner of one die, as the detector's fine pass may take it
    return (x + reach * np.cos(angle), y + reach * np.sin(angle)), side * rng.uniform(0.2, PART_OF_A_DIE)
