"""Find die candidates with a small fully convolutional net: centre heatmap, size and sub-cell offset.

The net sees the working image shrunk by a pass's factor and answers on a grid ``detector_stride``
det px apart: channel 0 is the logit that a die's centre lies in the cell, channel 1 the log of
the die's size in det px, channels 2-3 where in the cell the centre lies (0..1, x then y).
Two passes at different shrink factors cover small and big dice alike. A camera that leans (told
its far side, ``ReaderParams.up``) has a detector of its own, which sees the picture turned so that
far side is at its top, as it was trained: each die's top face then lies above the side face turned
to the camera, and a die's mirror image left to right is a die seen as it could be, so its centre
logits are also read on the picture mirrored so, and the two averaged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import cv2
import numpy as np

from vision.read.network import as_net_input, run
from vision.read.params import ReaderParams


@dataclass(frozen=True)
class Candidate:
    """A place that looks like a die: centre (x, y) and size in working px, and the heatmap peak (0..1)."""

    centre: tuple[float, float]
    size: float
    score: float


def shrink_and_pad(bgr: np.ndarray, shrink: float, multiple: int) -> np.ndarray:
    """The image shrunk by ``shrink`` (area averaging), padded right and bottom to a multiple of ``multiple``."""
    h, w = bgr.shape[:2]
    size = (max(1, round(w / shrink)), max(1, round(h / shrink)))
    small = bgr if shrink == 1 else cv2.resize(bgr, size, interpolation=cv2.INTER_AREA)
    pad_y, pad_x = -small.shape[0] % multiple, -small.shape[1] % multiple
    return cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)


def decode(maps: np.ndarray, stride: int, threshold: float) -> list[Candidate]:
    """Candidates (det px) at the local maxima of the centre heatmap above ``threshold``."""
    heat = 1.0 / (1.0 + np.exp(-maps[0].astype(np.float32)))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat >= threshold)
    candidates = []
    for y, x in zip(*np.nonzero(peaks)):
        centre = (float(x + maps[2, y, x]) * stride, float(y + maps[3, y, x]) * stride)
        candidates.append(Candidate(centre, float(np.exp(maps[1, y, x])), float(heat[y, x])))
    return candidates


def far_side_up(bgr: np.ndarray, up: float) -> tuple[np.ndarray, np.ndarray]:
    """The picture turned so that the camera's far side (``up``: degrees counter-clockwise from its
    top) is at its top, on a canvas holding all of it (its edges drawn out into the corners), and
    the 2x3 matrix taking the picture's points to the turned one's."""
    h, w = bgr.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), -up, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    width, height = int(np.ceil(h * sin + w * cos)), int(np.ceil(h * cos + w * sin))
    turn[:, 2] += (width - w) / 2, (height - h) / 2
    turned = cv2.warpAffine(bgr, turn, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return turned, turn


def _maps(image: np.ndarray, p: ReaderParams) -> np.ndarray:
    """The detector's maps for one padded image; a leaning camera's centre logits averaged with those
    of the image mirrored left to right (its far side stays at the top; the width is a whole number
    of cells, so the mirrored map turned back lies cell on cell)."""
    maps = run(p.reading_detector, as_net_input(image))[0]
    if p.up is None:
        return maps
    mirrored = run(p.reading_detector, as_net_input(np.ascontiguousarray(image[:, ::-1])))[0]
    maps = maps.copy()
    maps[0] = (maps[0] + mirrored[0, :, ::-1]) / 2
    return maps


def _pass(bgr: np.ndarray, shrink: int, p: ReaderParams) -> list[Candidate]:
    """One detector pass; candidates in working px."""
    image = shrink_and_pad(bgr, shrink, p.detector_multiple)
    maps = _maps(image, p)
    h, w = bgr.shape[:2]
    found = []
    for c in decode(maps, p.detector_stride, p.detection_threshold):
        x, y = c.centre[0] * shrink, c.centre[1] * shrink
        if 0 <= x < w and 0 <= y < h:
            found.append(Candidate((x, y), c.size * shrink, c.score))
    return found


class Placed(Protocol):
    """Anything with a place in one picture: a candidate, or a die read (centre and size in its px)."""

    @property
    def centre(self) -> tuple[float, float]: ...

    @property
    def size(self) -> float: ...


def same_die(a: Placed, b: Placed, distance: float) -> bool:
    """Whether two places' centres are closer than ``distance`` x the bigger size: one die."""
    return bool(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < distance * max(a.size, b.size))


def drop_duplicates(candidates: list[Candidate], distance: float) -> list[Candidate]:
    """Keep the strongest of candidates that are the same die (:func:`same_die`)."""
    kept: list[Candidate] = []
    for c in sorted(candidates, key=lambda c: -c.score):
        if not any(same_die(c, k, distance) for k in kept):
            kept.append(c)
    return kept


def find_candidates(bgr: np.ndarray, p: ReaderParams) -> list[Candidate]:
    """Die candidates in a BGR working image: small dice from the fine pass, big ones from the coarse pass.

    The passes may find the same die, and the fine pass can take a big die's pips for small dice:
    the reader settles that once the classifier has said which candidates are dice. A leaning
    camera's picture is read turned far side up (:func:`far_side_up`), its candidates turned back.
    """
    if p.up is None:
        return _passes(bgr, p)
    turned, turn = far_side_up(bgr, p.up)
    back = cv2.invertAffineTransform(turn)
    h, w = bgr.shape[:2]
    found = []
    for c in _passes(turned, p):
        x, y = back @ (c.centre[0], c.centre[1], 1.0)
        if 0 <= x < w and 0 <= y < h:
            found.append(Candidate((float(x), float(y)), c.size, c.score))
    return found


def _passes(bgr: np.ndarray, p: ReaderParams) -> list[Candidate]:
    """The fine pass's small dice and the coarse pass's big ones, each pass's duplicates dropped."""
    fine = [c for c in _pass(bgr, p.fine_shrink, p) if c.size <= p.fine_max_side_px]
    coarse = []
    if max(bgr.shape[:2]) / p.coarse_shrink >= p.detector_multiple:
        coarse = [c for c in _pass(bgr, p.coarse_shrink, p) if c.size >= p.coarse_min_side_px]
    return drop_duplicates(fine, p.duplicate_distance) + drop_duplicates(coarse, p.duplicate_distance)
