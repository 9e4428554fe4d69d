"""Training samples: augmented detector windows with their target maps, and augmented die crops.

Augmentations stand in for dice, trays and light we have not seen: turns that keep the camera's
far side up (any turn for a scene seen straight from above), left-right mirror images,
swapped colour channels and inverted colours (dark pips on light dice become light on dark),
brightness, contrast, blur, motion blur (a die still rolling) and sensor noise; or, for a classifier
that must keep colours apart (red pips in a translucent die's swirls), the light and blur alone and
gentler (:func:`true_colours`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.classify import NOT_A_DIE, die_crop
from vision.read.detect import far_side_up, shrink_and_pad
from vision.read.params import ReaderParams
from vision.training.photos import Scene, near_a_die

WINDOW = 160  # det px: side of a detector training window
MIN_DET_SIDE, MAX_DET_SIDE = 7.0, 100.0  # det px: the die sizes the detector learns
# degrees a die's crop is turned either way from its scene's far side up: a die is read at any yaw
# (the dice show that), but never with the camera on another side than the one it is on.
SMALL_TURN = 45.0
# degrees a leaning scene's detector window is turned either way from its far side at the top: the
# tray's outline tells the reader its far side within a few degrees
DETECTOR_TURN = 10.0


Look = Callable[[np.ndarray, np.random.Generator], np.ndarray]  # a crop's colour and light augmentation: recolour, true_colours


@dataclass(frozen=True)
class LightAndCamera:
    """How strongly :func:`recolour` and :func:`true_colours` change a crop's light and sharpness."""

    contrast: float  # scale drawn from 1 +- this
    light: float  # brightness shift drawn from +- this
    gain: float  # each channel's gain drawn from 1 +- this
    blur_chance: float
    blur_sigma: float  # most
    motion_chance: float  # of the crops not blurred
    motion_px: float | None  # longest smear, px; None: 0.12 of the crop's side
    noise: float  # most sensor noise's sigma


STRONG = LightAndCamera(0.3, 35, 0.15, 0.3, 1.2, 0.15, None, 6)
GENTLE = LightAndCamera(0.2, 25, 0.1, 0.15, 1.0, 0.1, 4.0, 4)


def _light_and_camera(out: np.ndarray, rng: np.random.Generator, look: LightAndCamera) -> np.ndarray:
    """``out`` with ``look``'s contrast, light, channel gains, blur or smear and sensor noise drawn, in
    that order (the order of draws keeps every recipe's crops as they were)."""
    out = out.astype(np.float32)
    out = (out - 128) * rng.uniform(1 - look.contrast, 1 + look.contrast) + 128 + rng.uniform(-look.light, look.light)
    out *= rng.uniform(1 - look.gain, 1 + look.gain, 3).astype(np.float32)
    if rng.random() < look.blur_chance:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, look.blur_sigma))
    elif rng.random() < look.motion_chance:
        longest = look.motion_px if look.motion_px is not None else 0.12 * min(out.shape[:2])
        out = cv2.filter2D(out, -1, motion_kernel(float(rng.uniform(2, longest)), float(rng.uniform(0, 180))))
    out += rng.normal(0, rng.uniform(0, look.noise), out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def recolour(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Colour, light and camera augmentations of a uint8 BGR image: its channels in a random order
    half the time and its colours inverted 15 % of the time, then :data:`STRONG` light and blur."""
    out = image[..., rng.permutation(3)] if rng.random() < 0.5 else image
    if rng.random() < 0.15:
        out = 255 - out
    return _light_and_camera(out, rng, STRONG)


def true_colours(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Light, camera and blur augmentations of a uint8 BGR image that keep its colours (no swapped
    channels, no inversion) and change contrast, brightness and sharpness less (:data:`GENTLE`).

    Fine-tuning the straight-down classifier on real photos' crops looked so, its dice keep the
    colours that tell their pips from the swirls of translucent dice (red pips on a dark swirled
    die); with :func:`recolour` it fitted neither its training photos' dice nor the held-out ones
    (issue 50: vision/models/README.md, "Colours kept")."""
    return _light_and_camera(image, rng, GENTLE)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line ``length`` px long at ``angle`` degrees: the smear of a die still rolling."""
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    middle = size // 2
    dx, dy = np.cos(np.radians(angle)) * length / 2, np.sin(np.radians(angle)) * length / 2
    cv2.line(kernel, (round(middle - dx), round(middle - dy)), (round(middle + dx), round(middle + dy)), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def mirror_left_right(image: np.ndarray, points: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The image as it is or mirrored left to right, at random, with the (x, y) points moved along:
    the far side stays at the top."""
    if rng.random() >= 0.5:
        return image, points
    points = points.copy()
    points[:, 0] = image.shape[1] - points[:, 0]
    return np.ascontiguousarray(image[:, ::-1]), points


def flip_turn(image: np.ndarray, points: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random one of the 8 mirror/quarter-turn images, with the (x, y) points moved along."""
    image, points = mirror_left_right(image, points, rng)
    for _ in range(int(rng.integers(4))):
        h, w = image.shape[:2]
        image = np.rot90(image)  # counter-clockwise: (x, y) -> (y, w - x)
        points = np.column_stack([points[:, 1], w - points[:, 0]]) if len(points) else points
    return np.ascontiguousarray(image), points


def detector_sample(
    scene: Scene, rng: np.random.Generator, p: ReaderParams, far_side_at_top: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """A WINDOW-square detector input (uint8 BGR) and its target maps (5, WINDOW/stride, WINDOW/stride).

    Target channels: centre heat (1 at a die's cell, a gaussian around it), log size, offset x, y,
    and a mask of the cells where size and offset are learned. The scene is mirrored and turned
    any way, or with ``far_side_at_top`` and a far side known (``Scene.up``), turned so that far
    side is at the top (give or take ``DETECTOR_TURN``) and only mirrored left to right, as the
    leaning camera's detector sees a picture (:func:`vision.read.detect.far_side_up`). A die's size
    stays its box's side in the picture as it lay, as the reader hands sizes back.
    """
    image = scene.image
    points = np.array([[d[0], d[1]] for d in scene.dice], np.float32).reshape(-1, 2)
    upright = far_side_at_top and scene.up is not None
    if upright:
        image, turn = far_side_up(image, scene.up + rng.uniform(-DETECTOR_TURN, DETECTOR_TURN))
        points = (np.hstack([points, np.ones((len(points), 1), np.float32)]) @ turn.T).astype(np.float32)
    sizes = [d[2] for d in scene.dice]
    typical = float(np.median(sizes)) if sizes else 60.0
    target_side = np.exp(rng.uniform(np.log(MIN_DET_SIDE + 2), np.log(MAX_DET_SIDE - 10)))
    shrink = max(typical / target_side, 0.5)
    image = shrink_and_pad(image, shrink, 1)
    points = points / shrink
    if upright:
        image, points = mirror_left_right(image, points, rng)
    else:
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


def crop_turn(scene: Scene, rng: np.random.Generator) -> float:
    """The angle to cut a die's crop at (``die_crop``): its scene's far side up, turned a little
    either way, as the reader cuts it; any angle where the camera looked straight down."""
    if scene.up is None:
        return float(rng.uniform(0, 360))
    return float(-scene.up + rng.uniform(-SMALL_TURN, SMALL_TURN))


def die_crops(
    scene: Scene, per_die: int, negatives: int, rng: np.random.Generator, p: ReaderParams
) -> tuple[list[np.ndarray], list[int]]:
    """Crops of every die with a clear face (class value-1) and of places that are not a die's centre (class 6).

    Each crop is shifted, scaled, turned so the scene's far side is up, give or take ``SMALL_TURN``
    (any way for a scene seen straight from above), and mirrored left to right at random; colours
    are left as they are (``recolour`` them for each use), so the crops can be cut once and kept.
    """
    crops, labels = [], []
    for x, y, side, value in scene.dice:
        for _ in range(per_die if value else 0):
            shift = rng.normal(0, 0.06 * side, 2)
            crop = die_crop(scene.image, (x + shift[0], y + shift[1]), side * rng.uniform(0.85, 1.2), p,
                            angle=crop_turn(scene, rng))
            crops.append(crop[:, ::-1] if rng.random() < 0.5 else crop)
            labels.append(value - 1)
    typical = float(np.median([d[2] for d in scene.dice])) if scene.dice else float(rng.uniform(20, 120))
    made = 0
    for _ in range(negatives * 20):
        if made == negatives:
            break
        point, size = _negative_place(scene, typical, rng)
        whole_die = size > 0.7 * typical
        if whole_die and near_a_die(scene, point):
            continue
        crops.append(die_crop(scene.image, point, size, p, angle=float(rng.uniform(0, 360))))
        labels.append(NOT_A_DIE)
        made += 1
    return crops, labels


def _negative_place(scene: Scene, typical: float, rng: np.random.Generator) -> tuple[tuple[float, float], float]:
    """Where a crop shows no whole die, and its size: anywhere, beside a die, two touching dice as one, or a part of one die."""
    h, w = scene.image.shape[:2]
    kind = rng.random()
    if not scene.dice or kind < 0.35:
        return (rng.uniform(0, w), rng.uniform(0, h)), typical * rng.uniform(0.7, 1.4)
    x, y, side, _ = scene.dice[int(rng.integers(len(scene.dice)))]
    angle = rng.uniform(0, 2 * np.pi)
    if kind < 0.45:  # two neighbouring dice taken for one big die
        others = [d for d in scene.dice if (d[0], d[1]) != (x, y)]
        if others:
            nx, ny, nside, _ = min(others, key=lambda d: np.hypot(d[0] - x, d[1] - y))
            gap = float(np.hypot(nx - x, ny - y))
            if gap < 1.6 * max(side, nside):
                return ((x + nx) / 2, (y + ny) / 2), (gap + max(side, nside)) * rng.uniform(0.9, 1.1)
    if kind < 0.8:  # next to a die: a part of it, or the gap between two
        reach = rng.uniform(0.6, 1.1) * side
        return (x + reach * np.cos(angle), y + reach * np.sin(angle)), typical * rng.uniform(0.7, 1.4)
    reach = rng.uniform(0.15, 0.4) * side  # a part of one die, cropped as if it were a small die
    return (x + reach * np.cos(angle), y + reach * np.sin(angle)), side * rng.uniform(0.35, 0.6)
