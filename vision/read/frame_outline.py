"""What every outline drawn on the camera's frames shares (the tray's, the board's levels): corners
inside the frame, rescaling to frames of another size of the same shape, and the JSON file that
stores it with its format, version and frame size."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

Point = tuple[float, float]
Outline = tuple[Point, ...]


def polygon(points: Sequence[Point]) -> np.ndarray:
    """The points as OpenCV's float32 polygon."""
    return np.array(points, np.float32)


def area(points: Sequence[Point]) -> float:
    """The area inside the outline, px²."""
    return float(abs(cv2.contourArea(polygon(points))))


def offset(corners: np.ndarray, by: float) -> np.ndarray:
    """A convex polygon (N x 2 px) with every side moved ``by`` px outwards."""
    points = corners.astype(np.float64)
    sides = np.roll(points, -1, axis=0) - points
    normals = np.column_stack([sides[:, 1], -sides[:, 0]]) / np.linalg.norm(sides, axis=1, keepdims=True)
    if np.dot(normals[0], points[0] - points.mean(axis=0)) < 0:
        normals = -normals  # the polygon runs the other way round
    before = np.roll(normals, 1, axis=0)  # the normal of the side that ends at each corner
    return points + by * (before + normals) / (1 + np.sum(before * normals, axis=1, keepdims=True))


def middle(points: Sequence[Point]) -> Point:
    """The centre of the area inside the outline (the corners' mean when it encloses none), px."""
    moments = cv2.moments(polygon(points))
    if moments["m00"] == 0:
        x, y = np.mean(np.array(points, np.float64), axis=0)
        return float(x), float(y)
    return moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]


def corner_outside(points: Sequence[Point], frame_size: tuple[int, int]) -> Point | None:
    """The first corner that is not a finite point of a frame of ``frame_size``, if any."""
    width, height = frame_size
    for x, y in points:
        if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= width and 0 <= y <= height):
            return x, y
    return None


def same_shape(made_for: tuple[int, int], frame_size: tuple[int, int], tolerance: float) -> bool:
    """Whether frames of ``frame_size`` have the shape (width/height within ``tolerance``) of ``made_for``."""
    width, height = frame_size
    return abs(width * made_for[1] / (height * made_for[0]) - 1) <= tolerance


def rescaled(points: Sequence[Point], made_for: tuple[int, int], frame_size: tuple[int, int]) -> Outline:
    """The points, drawn on frames of ``made_for``, in frames of ``frame_size``."""
    sx, sy = frame_size[0] / made_for[0], frame_size[1] / made_for[1]
    return tuple((x * sx, y * sy) for x, y in points)


def stored(format_: str, version: int, frame_size: tuple[int, int], **fields: Any) -> str:
    """The JSON text of a file of this format and version, for frames of ``frame_size``."""
    return json.dumps({"format": format_, "version": version, "frame": list(frame_size), **fields}) + "\n"


def rounded(points: Sequence[Point]) -> list[list[float]]:
    """Points as JSON pairs, to a hundredth of a pixel."""
    return [[round(x, 2), round(y, 2)] for x, y in points]


def load_stored(text: str, format_: str, version: int, what: str, error: type[ValueError]) -> tuple[dict[str, Any], tuple[int, int]]:
    """The fields of a file written by :func:`stored` and its frame size; ``error`` says what is
    wrong with anything else, naming the file as ``what`` ("tray outline")."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as problem:
        raise error(f"not JSON: {problem}") from problem
    if not isinstance(data, dict) or data.get("format") != format_:
        raise error(f'not a {what} (no "format": "{format_}")')
    if data.get("version") != version:
        raise error(f"{what} version {data.get('version')!r}: this companion reads version {version}")
    frame = data.get("frame")
    if not is_pair(frame, int):
        raise error(f'"frame" must be [width, height] in whole px, got {frame!r}')
    return data, (frame[0], frame[1])


def is_outline(value: object) -> bool:
    """Whether a JSON value is a list of [x, y] points."""
    return isinstance(value, list) and all(is_pair(p, (int, float)) for p in value)


def is_pair(value: object, kind: type | tuple[type, ...]) -> bool:
    """Whether a JSON value is a list of two numbers of ``kind`` (never booleans)."""
    return (
        isinstance(value, list) and len(value) == 2
        and all(isinstance(v, kind) and not isinstance(v, bool) for v in value)
    )
