"""Read the top face of each candidate with a small classifier net over a crop around it.

Classes 0-5 are the face values 1-6, class 6 is "no die here" (a false candidate). The crop is
square, ``crop_margin`` die sizes wide, so the net sees the die's edges and what lies around it.
The net answers the 7 logits and then the numbers (features) its last layer makes them from, so a
table's own last layer can be fitted on the dice of that table (:mod:`vision.read.table_tuning`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.read.network import as_net_input, run
from vision.read.params import ReaderParams

NOT_A_DIE = 6
CLASSES = 7


def die_crop(
    bgr: np.ndarray, centre: tuple[float, float], size: float, p: ReaderParams, angle: float = 0.0
) -> np.ndarray:
    """The ``crop_px`` square around a die, ``crop_margin`` x ``size`` wide, turned by ``angle`` degrees.

    The region is first resized with area averaging, so big dice shrink without aliasing.
    """
    side = max(size * p.crop_margin, 1.0)
    room = int(np.ceil(side * (1.5 if angle else 1.0))) + 2  # turning needs the corners
    region = cv2.getRectSubPix(bgr, (room, room), centre)
    scaled = round(p.crop_px * room / side)
    shrinking = scaled < room
    region = cv2.resize(region, (scaled, scaled), interpolation=cv2.INTER_AREA if shrinking else cv2.INTER_LINEAR)
    middle = ((scaled - 1) / 2, (scaled - 1) / 2)
    turn = cv2.getRotationMatrix2D(middle, angle, 1.0)
    turn[:, 2] += (p.crop_px - scaled) / 2
    return cv2.warpAffine(region, turn, (p.crop_px, p.crop_px), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def far_side_degrees(dx: float, dy: float) -> float:
    """The picture's direction (``dx``, ``dy``; y pointing down) as ``ReaderParams.up`` counts it:
    degrees counter-clockwise from the picture's top, 0 to 360."""
    return round(math.degrees(math.atan2(-dx, -dy)), 6) % 360.0


def far_side_direction(up: float) -> tuple[float, float]:
    """The unit direction (dx, dy; y pointing down) in the picture of a far side at ``up`` degrees:
    the inverse of :func:`far_side_degrees`."""
    return -math.sin(math.radians(up)), -math.cos(math.radians(up))


def reader_crop(bgr: np.ndarray, centre: tuple[float, float], size: float, p: ReaderParams) -> np.ndarray:
    """The crop the classifier reads a candidate from: :func:`die_crop` turned so the camera's far
    side (``p.up``) is at its top, as it was trained; as the picture lies for a camera straight down."""
    return die_crop(bgr, centre, size, p, angle=0.0 if p.up is None else -p.up % 360.0)


def mirror_images(crops: np.ndarray) -> np.ndarray:
    """``crops`` (N, H, W, 3) each mirrored left to right: a crop's far side stays at the top, so a
    leaning camera's die reads as rightly so (the classifier was trained on crops mirrored at random)."""
    return np.ascontiguousarray(crops[:, :, ::-1])


def quarter_turns(crop: np.ndarray) -> np.ndarray:
    """``crop`` turned by one, two and three quarters: as right as the crop itself where the camera
    looks straight down (``ReaderParams.up`` None), so more views of a die read unsure."""
    return np.stack([np.rot90(crop, k) for k in (1, 2, 3)])


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def logits_and_features(crops: np.ndarray, p: ReaderParams) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's logits (N, 7) and the features (N, F) they come from, for uint8 BGR crops
    (N, crop_px, crop_px, 3); F is the net's own width (:func:`feature_width`)."""
    if len(crops) == 0:
        return np.zeros((0, CLASSES), np.float32), np.zeros((0, feature_width(p)), np.float32)
    out = run(p.reading_classifier, as_net_input(crops)).reshape(len(crops), -1)
    return out[:, :CLASSES], out[:, CLASSES:]


def feature_width(p: ReaderParams) -> int:
    """How many features the last layer of the classifier reading this camera's crops reads (a
    table's layer, fitted on the straight-down classifier's, must be as wide as that one's)."""
    return _width(p.reading_classifier, p.crop_px)


@lru_cache(maxsize=8)
def _width(model: Path, crop_px: int) -> int:
    return run(model, as_net_input(np.zeros((1, crop_px, crop_px, 3), np.uint8))).size - CLASSES


def classify(crops: np.ndarray, p: ReaderParams) -> np.ndarray:
    """Class probabilities (N, 7) for uint8 BGR crops (N, crop_px, crop_px, 3)."""
    return softmax(logits_and_features(crops, p)[0])
