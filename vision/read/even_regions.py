"""Large regions of even colour in a picture, split at sharp colour changes: how the tray and the
board's levels are found on a picture of them empty. The search runs on a copy a few hundred
pixels wide (fast, and grain and noise smaller than a pixel of it vanish); outlines found there
are carried back to the frame's pixels."""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from vision.read.frame_outline import Outline


class Smoothing(Protocol):
    """The tuned numbers a finder gives: working width, bilateral smoothing, edge contrast."""

    work_width: int  # px: the frame is searched at this width
    smooth_spatial_px: float  # px of the working image: bilateral filter's reach
    smooth_colour: float  # BGR levels: bilateral filter's colour sigma
    smooth_passes: int
    edge_contrast: float  # BGR levels: a change above this within 3x3 working px is an edge


def working_copy(image: np.ndarray, params: Smoothing) -> np.ndarray:
    """The BGR frame shrunk to ``params.work_width`` px wide, its shape kept."""
    height, width = image.shape[:2]
    size = (params.work_width, max(1, round(height * params.work_width / width)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def in_frame(points: np.ndarray, small: np.ndarray, frame_size: tuple[int, int]) -> Outline:
    """Points (x, y) in the working copy's pixels, in pixels of the frame (``frame_size``)."""
    width, height = frame_size
    scale = np.array([width / small.shape[1], height / small.shape[0]])
    full = np.clip((points + 0.5) * scale - 0.5, 0, [width, height])  # pixel centres of the small frame in the full one
    return tuple((float(x), float(y)) for x, y in full)


def even_regions(small: np.ndarray, params: Smoothing, least_px: float) -> list[np.ndarray]:
    """uint8 masks of the regions of at least ``least_px`` pixels between sharp colour changes in
    the working copy, each grown back over half the edge band."""
    smooth = small
    for _ in range(params.smooth_passes):
        smooth = cv2.bilateralFilter(smooth, 0, params.smooth_colour, params.smooth_spatial_px)
    kernel = np.ones((3, 3), np.uint8)
    change = cv2.morphologyEx(smooth, cv2.MORPH_GRADIENT, kernel).max(axis=2)
    even = (change <= params.edge_contrast).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(even, connectivity=4)
    return [
        cv2.dilate((labels == label).astype(np.uint8), kernel)
        for label in range(1, count) if stats[label, cv2.CC_STAT_AREA] >= least_px
    ]
