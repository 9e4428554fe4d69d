"""Read six-sided pip dice in a top-down photo: ``read_dice(image) -> DiceReading``.

Pipeline (all numbers in :class:`vision.params.ReaderParams`):
  1. check and normalise the input (BGR uint8; shrink very large images);
  2. find die candidates: foreground against a local background model, split touching dice
     (:mod:`vision.find_dice`);
  3. per candidate, warp it to a canonical patch and find pip blobs (:mod:`vision.pips`);
  4. read the face from centrally symmetric pip layouts, or report it unreadable (:mod:`vision.faces`).
A candidate without a single pip blob is not reported: it is not a die (or shows nothing readable).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.faces import read_face
from vision.find_dice import find_die_contours
from vision.params import DEFAULT_PARAMS, ReaderParams, VisionInputError
from vision.pips import die_patch, find_blobs
from vision.reading import DiceReading, Die


def as_bgr(image: object) -> np.ndarray:
    """The image as a contiguous BGR uint8 array (never the caller's buffer), or VisionInputError.

    Accepts BGR (H, W, 3), grey (H, W) or (H, W, 1), BGRA (H, W, 4); uint8, or uint16 scaled to 8 bits.
    """
    if not isinstance(image, np.ndarray):
        raise VisionInputError(f"image must be a numpy array of shape (H, W, 3) BGR uint8, got {type(image).__name__}")
    shape_hint = f"image must be a numpy array of shape (H, W, 3) BGR, (H, W) grey or (H, W, 4) BGRA, got shape {image.shape}"
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3, 4)):
        raise VisionInputError(shape_hint)
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise VisionInputError(f"image is empty: shape {image.shape}")
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise VisionInputError(
            f"image must have dtype uint8 (0-255) or uint16, got {image.dtype}; "
            "float images are refused because their value range is ambiguous: convert to uint8 first"
        )
    if image.ndim == 2 or image.shape[2] == 1:
        return cv2.cvtColor(np.ascontiguousarray(image.reshape(image.shape[:2])), cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGRA2BGR)
    return np.array(image, dtype=np.uint8, order="C", copy=True)


def _working_image(bgr: np.ndarray, p: ReaderParams) -> tuple[np.ndarray, float]:
    """The image shrunk so its longest side is at most ``max_working_side_px``, and the scale (input px per working px)."""
    h, w = bgr.shape[:2]
    scale = max(h, w) / p.max_working_side_px
    if scale <= 1:
        return bgr, 1.0
    size = (max(1, round(w / scale)), max(1, round(h / scale)))
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA), scale


def _read_candidate(bgr: np.ndarray, contour: np.ndarray, scale: float, p: ReaderParams) -> Die | None:
    """One die from one candidate contour (working px), in input px; None if it has no pip at all."""
    patch = die_patch(bgr, contour, p)
    if patch is None:
        return None
    blobs = find_blobs(patch, p)
    if not blobs:
        return None
    face = read_face(blobs, p)
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    from_patch = cv2.invertAffineTransform(patch.to_patch)
    pips = cv2.transform(np.array(face.pips, np.float32).reshape(-1, 1, 2), from_patch).reshape(-1, 2)
    outline = cv2.boxPoints(((cx, cy), (w, h), angle))
    return Die(
        value=face.value,
        centre=(float(cx) * scale, float(cy) * scale),
        size=float(np.sqrt(w * h)) * scale,
        confidence=float(face.confidence),
        outline=tuple((float(x) * scale, float(y) * scale) for x, y in outline),
        pips=tuple((float(x) * scale, float(y) * scale) for x, y in pips),
        reason=face.reason,
    )


def reading_order(dice: list[Die], p: ReaderParams) -> tuple[Die, ...]:
    """Top to bottom, then left to right: dice whose centres are within ``row_tolerance`` sizes in y form a row."""
    rows: list[list[Die]] = []
    for die in sorted(dice, key=lambda d: d.centre[1]):
        if rows and die.centre[1] - rows[-1][0].centre[1] < p.row_tolerance * max(die.size, rows[-1][0].size):
            rows[-1].append(die)
        else:
            rows.append([die])
    return tuple(die for row in rows for die in sorted(row, key=lambda d: d.centre[0]))


def read_dice(image: np.ndarray, params: ReaderParams = DEFAULT_PARAMS) -> DiceReading:
    """Every die in ``image`` (BGR uint8; grey and BGRA accepted) with its top-face value or None.

    Raises VisionInputError for inputs that are not images. The input is never modified.
    """
    bgr, scale = _working_image(as_bgr(image), params)
    dice = []
    for contour in find_die_contours(bgr, params):
        die = _read_candidate(bgr, contour, scale, params)
        if die is not None:
            dice.append(die)
    return DiceReading(reading_order(dice, params))
