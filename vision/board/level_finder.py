"""The levels of a stepped dice board proposed from a picture of the empty board.

The players confirm the proposal before it is stored, so a wrong guess costs a look, never a
game; a picture where no board is plain is refused with what was missing. Each level of a
Tumblin' Dice board is a band of even shade, and the bands are stacked: every step between two
of them is a shadowed line across the board, the launch pad lies beyond the 0x level, and the
4x level ends the board. :func:`find_levels` smooths the picture and splits it at sharp colour
changes into regions, like :func:`vision.read.tray.find_tray`; the large, convex regions inside the
picture that share long edges with each other form a stack, whose narrow end is the launch pad.
Straight lines fitted along the five steps cut the board's outline into the five levels, so
neighbouring levels meet on one line, with no gap for a die to fall into.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.board_levels import LEVELS, LevelMap, LevelMapError
from vision.read.even_regions import even_regions, in_frame, working_copy
from vision.read.frame_outline import offset
from vision.read.reader import as_bgr

Line = tuple[np.ndarray, np.ndarray]  # a point on the line and its unit normal
BANDS = LEVELS + 1  # the launch pad and the five levels


@dataclass(frozen=True)
class LevelFinderParams:
    """Every tuned number of the level finder."""

    work_width: int = 400  # px: the frame is searched at this width
    smooth_spatial_px: float = 2.0  # px of the working image: bilateral filter's reach
    smooth_colour: float = 20.0  # BGR levels: bilateral filter's colour sigma; flattens grain, keeps steps
    smooth_passes: int = 2  # bilateral passes
    edge_contrast: float = 12.0  # BGR levels: a change above this within 3x3 working px is an edge
    min_area: float = 0.01  # fraction of the frame: a smaller region is no band of the board
    min_solidity: float = 0.85  # region's pixels / its convex hull's area: a band is convex and even
    max_on_border: float = 0.1  # fraction of the outline on the frame's edge: more is the table running off
    step_gap_px: int = 3  # working px: bands this close across an edge meet at a step
    min_step: float = 0.1  # fraction of the working width: a shorter shared edge is no step
    max_pad_width: float = 0.8  # fraction of the 0x level's width along the step: a wider end band is no launch pad


DEFAULT_LEVEL_FINDER_PARAMS = LevelFinderParams()


def find_levels(image: np.ndarray, params: LevelFinderParams = DEFAULT_LEVEL_FINDER_PARAMS) -> LevelMap:
    """The outlines of levels 0x..4x in a BGR picture of the empty board, for the players to confirm;
    LevelMapError when no launch pad with five stacked levels after it is plain."""
    image = as_bgr(image)
    height, width = image.shape[:2]
    small = working_copy(image, params)
    least = params.min_area * small.shape[0] * small.shape[1]
    bands = _stacked_bands([r for r in even_regions(small, params, least) if _looks_like_a_band(r, params)], params)
    levels = bands[1:]
    steps = [_step_line(levels[k], levels[k + 1], params) for k in range(LEVELS - 1)]
    board = _board_outline(levels)
    outlines = []
    for level in range(LEVELS):
        polygon = board
        if level > 0:
            polygon = _clipped(polygon, steps[level - 1], keep_positive=True)
        if level < LEVELS - 1:
            polygon = _clipped(polygon, steps[level], keep_positive=False)
        outlines.append(in_frame(polygon, small, (width, height)))
    return LevelMap(tuple(outlines), (width, height))


def _looks_like_a_band(region: np.ndarray, params: LevelFinderParams) -> bool:
    height, width = region.shape
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contour = max(contours, key=cv2.contourArea)[:, 0]
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    if hull_area <= 0 or np.count_nonzero(region) / hull_area < params.min_solidity:
        return False
    xs, ys = contour[:, 0], contour[:, 1]
    on_border = (xs <= 0) | (ys <= 0) | (xs >= width - 1) | (ys >= height - 1)
    return float(np.mean(on_border)) <= params.max_on_border


def _shared_edge(first: np.ndarray, second: np.ndarray, params: LevelFinderParams) -> np.ndarray:
    """The (N, 2) float pixels of the strip where two regions come within ``step_gap_px`` of each other."""
    size = 2 * params.step_gap_px + 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    strip = cv2.dilate(first, kernel) & cv2.dilate(second, kernel)
    ys, xs = np.nonzero(strip)
    return np.column_stack([xs, ys]).astype(np.float32)


def _extent(points: np.ndarray, direction: np.ndarray) -> float:
    """How far ``points`` reach along ``direction``."""
    if len(points) == 0:
        return 0.0
    along = points @ direction
    return float(along.max() - along.min())


def _region_points(region: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(region)
    return np.column_stack([xs, ys]).astype(np.float32)


def _step_length(first: np.ndarray, second: np.ndarray, params: LevelFinderParams) -> tuple[float, np.ndarray]:
    """The length of the edge two regions share (0 when they do not meet) and its direction."""
    strip = _shared_edge(first, second, params)
    if len(strip) < 2:
        return 0.0, np.zeros(2, np.float32)
    vx, vy = cv2.fitLine(strip, cv2.DIST_L2, 0, 0.01, 0.01)[:2, 0]
    direction = np.array([vx, vy], np.float32)
    return _extent(strip, direction), direction


def _stacked_bands(regions: list[np.ndarray], params: LevelFinderParams) -> list[np.ndarray]:
    """The launch pad and levels 0x..4x in order: six regions in a row, each meeting the next along a
    step, the launch pad the end narrower than its neighbour."""
    least = params.min_step * regions[0].shape[1] if regions else 0.0
    neighbours: dict[int, list[int]] = {i: [] for i in range(len(regions))}
    for i in range(len(regions)):
        for j in range(i + 1, len(regions)):
            if _step_length(regions[i], regions[j], params)[0] >= least:
                neighbours[i].append(j)
                neighbours[j].append(i)
    chains = _chains(neighbours)
    longest = max((len(c) for c in chains), default=0)
    for chain in chains:
        if len(chain) != BANDS:
            continue
        for ordered in (chain, chain[::-1]):
            pad, first = regions[ordered[0]], regions[ordered[1]]
            shared, direction = _step_length(pad, first, params)
            if shared <= params.max_pad_width * _extent(_region_points(first), direction):
                return [regions[i] for i in ordered]
    raise LevelMapError(
        f"no board found: a board is a launch pad and {LEVELS} levels, bands of even shade stacked one after "
        f"another, and the longest stack in the picture has {longest} band{'s' if longest != 1 else ''}"
        f"{' with no launch pad narrower than the level after it' if longest == BANDS else ''}; photograph the "
        "empty board from the camera's place, in even light, with the whole board and its launch pad in view"
    )


def _chains(neighbours: dict[int, list[int]]) -> list[list[int]]:
    """The groups of regions that meet one after another in a row (no branches, no loops), in order."""
    chains, seen = [], set()
    for start in neighbours:
        if start in seen:
            continue
        group, todo = [], [start]
        while todo:
            node = todo.pop()
            if node not in seen:
                seen.add(node)
                group.append(node)
                todo.extend(neighbours[node])
        ends = [n for n in group if len(neighbours[n]) <= 1]
        if any(len(neighbours[n]) > 2 for n in group) or not ends:
            continue
        chain = [ends[0]]
        while len(chain) < len(group):
            chain.append(next(n for n in neighbours[chain[-1]] if n not in chain))
        chains.append(chain)
    return chains


def _step_line(before: np.ndarray, after: np.ndarray, params: LevelFinderParams) -> Line:
    """The straight line along the step between two levels, its normal pointing into the later one."""
    strip = _shared_edge(before, after, params)
    vx, vy, x0, y0 = cv2.fitLine(strip, cv2.DIST_HUBER, 0, 0.01, 0.01)[:, 0]
    point, normal = np.array([x0, y0], np.float64), np.array([-vy, vx], np.float64)
    if normal @ (_region_points(after).mean(axis=0) - point) < 0:
        normal = -normal
    return point, normal


def _board_outline(levels: list[np.ndarray]) -> np.ndarray:
    """The convex outline around the five levels, its sides on the outer edges of their pixels."""
    union = np.zeros_like(levels[0])
    for level in levels:
        union |= level
    hull = cv2.convexHull(_region_points(union))[:, 0].astype(np.float64)
    return offset(hull, 0.5)


def _clipped(polygon: np.ndarray, line: Line, keep_positive: bool) -> np.ndarray:
    """The part of a convex polygon on one side of ``line`` (the side its normal points to, or the other)."""
    point, normal = line
    side = (polygon - point) @ normal * (1 if keep_positive else -1)
    kept = []
    for i in range(len(polygon)):
        a, b, sa, sb = polygon[i - 1], polygon[i], side[i - 1], side[i]
        if (sa >= 0) != (sb >= 0):
            kept.append(a + (b - a) * sa / (sa - sb))
        if sb >= 0:
            kept.append(b)
    return np.array(kept, np.float64)
