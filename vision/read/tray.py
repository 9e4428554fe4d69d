"""The dice tray in the camera's view: its outline, found once on a picture of the empty tray.

At the table only dice inside the tray count and only movement inside it unsettles the dice,
so papers, cables and hands on the desk around it are never read or waited for. The outline
is stored with the size of the frames it was found on: a camera giving another size of picture
of the same shape gets it rescaled, one of another shape is refused (calibrate again).

:func:`find_tray` looks for the tray as a large region of even colour with a clear edge all
round: the picture is smoothed (a bilateral filter flattens felt grain and sensor noise but keeps
edges), every pixel where the colour changes sharply is an edge, and the regions between edges
are the candidates; dice or a pen left in the tray only make small holes in one. A tray is convex (rectangular, round, hexagonal), large, and lies in the picture
rather than running off it as the desk does; of the candidates that qualify, the one under the
middle of the frame (the camera looks down into the tray) wins, else the largest.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.read.classify import far_side_degrees
from vision.read.even_regions import even_regions, in_frame, working_copy
from vision.read.frame_outline import (
    Point,
    area,
    corner_outside,
    is_outline,
    load_stored,
    offset,
    polygon,
    rescaled,
    rounded,
    same_shape,
    stored,
)
from vision.read.perspective import camera_tilt, horizon
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import as_bgr, taken
from vision.read.reading import DiceReading

FORMAT = "dice-companion tray"
VERSION = 1


class TrayError(ValueError):
    """A tray outline that cannot be used: malformed, outside its frame, or made for frames of another shape."""


@dataclass(frozen=True)
class TrayParams:
    """Every tuned number of the tray finder."""

    work_width: int = 400  # px: the frame is searched at this width
    smooth_spatial_px: float = 2.0  # px of the working image: bilateral filter's reach
    smooth_colour: float = 20.0  # BGR levels: bilateral filter's colour sigma; flattens felt grain, keeps edges
    smooth_passes: int = 2  # bilateral passes
    edge_contrast: float = 14.0  # BGR levels: a change above this within 3x3 working px is an edge
    min_area: float = 0.08  # fraction of the frame: a smaller region is no tray
    max_hole: float = 0.05  # fraction of a region's outline area: smaller holes (dice left in the tray) count as tray
    min_solidity: float = 0.9  # region's pixels / its convex hull's area: a tray is convex and even
    max_on_border: float = 0.4  # fraction of the outline on the frame's edge: more is the desk running off
    # fraction of the square root of the area: how far a side may bend to find four corners (0.02 left a
    # small tray's corners, blunted at the working width, as extra corners when it was turned 30-45 degrees)
    corner_search: float = 0.03
    corner_fit: float = 0.015  # fraction of the region's area: a four-cornered outline this close is kept as four corners
    side_middle: float = 0.7  # fraction of a side: its middle part, where a straight line is fitted
    side_px: float = 3.0  # working px: edge pixels this close to a side belong to it
    outline_px: float = 0.75  # working px: the largest step of the polygon from the region's edge
    aspect_tolerance: float = 0.02  # fraction: frames whose width/height differ less have the same shape
    # fraction: opposite sides of a four-cornered outline whose lengths differ less than this are
    # seen from straight above (no far side); more, and the shorter one is the far side
    min_foreshortening: float = 0.04


DEFAULT_TRAY_PARAMS = TrayParams()


@dataclass(frozen=True)
class TrayOutline:
    """The tray's outline as a polygon in pixels of frames of ``frame_size`` (width, height)."""

    points: tuple[Point, ...]
    frame_size: tuple[int, int]

    def __post_init__(self) -> None:
        width, height = self.frame_size
        if width < 1 or height < 1:
            raise TrayError(f"a tray outline needs a frame size of at least 1x1 px, got {width}x{height}")
        if len(self.points) < 3:
            raise TrayError(f"a tray outline needs at least 3 corners, got {len(self.points)}")
        outside = corner_outside(self.points, self.frame_size)
        if outside is not None:
            raise TrayError(f"tray corner ({outside[0]:g}, {outside[1]:g}) lies outside the {width}x{height} frame")
        if self.area() < 1.0:
            raise TrayError("the tray's corners enclose no area (they lie on one line)")

    def area(self) -> float:
        """The area inside the outline, px²."""
        return area(self.points)

    def fits(self, frame_size: tuple[int, int], params: TrayParams = DEFAULT_TRAY_PARAMS) -> bool:
        """Whether frames of ``frame_size`` have this outline's frames' shape (so it can be rescaled)."""
        return same_shape(self.frame_size, frame_size, params.aspect_tolerance)

    def scaled_to(self, frame_size: tuple[int, int], params: TrayParams = DEFAULT_TRAY_PARAMS) -> TrayOutline:
        """The same outline in frames of ``frame_size``; TrayError for frames of another shape."""
        if tuple(frame_size) == self.frame_size:
            return self
        if not self.fits(frame_size, params):
            raise TrayError(
                f"the tray was calibrated on {self.frame_size[0]}x{self.frame_size[1]} frames and the camera gives "
                f"{frame_size[0]}x{frame_size[1]}, a picture of another shape: run dice-companion calibrate again"
            )
        return TrayOutline(rescaled(self.points, self.frame_size, frame_size), (int(frame_size[0]), int(frame_size[1])))

    def contains(self, point: Point) -> bool:
        """Whether ``point`` (x, y px of this outline's frames) lies inside the tray or on its edge."""
        return cv2.pointPolygonTest(polygon(self.points), (float(point[0]), float(point[1])), False) >= 0

    def mask(self, shape: Sequence[int], params: TrayParams = DEFAULT_TRAY_PARAMS) -> np.ndarray:
        """A uint8 mask (255 inside the tray) for an image of ``shape`` (height, width[, channels])
        showing the same view; TrayError for an image of another shape."""
        height, width = int(shape[0]), int(shape[1])
        scaled = self.scaled_to((width, height), params)
        mask = np.zeros((height, width), np.uint8)
        cv2.fillPoly(mask, [np.round(polygon(scaled.points) * 16).astype(np.int32)], 255, cv2.LINE_8, shift=4)
        return mask

    def far_side(self, params: TrayParams = DEFAULT_TRAY_PARAMS) -> float | None:
        """Where the camera's far side lies, in degrees counter-clockwise from the picture's top
        (``ReaderParams.up``), or None for a camera straight above or an outline without four corners.

        A camera looking at a rectangular tray obliquely sees each pair of its opposite sides run
        together towards a vanishing point; the two points lie on the horizon, and the far side is
        the way from the tray to it. A horizon further from the tray's middle than its size over
        ``min_foreshortening`` (the far side that much shorter than the near one) is no horizon:
        the camera looks straight down."""
        line = horizon(self.points) if len(self.points) == 4 else None
        if line is None:
            return None
        normal = float(np.hypot(line[0], line[1]))
        middle = np.mean(np.array(self.points, float), axis=0)
        if normal < 1e-12:
            return None
        side = (line[0] * middle[0] + line[1] * middle[1] + line[2]) / normal  # the middle's signed distance
        if abs(side) * params.min_foreshortening > math.sqrt(self.area()):
            return None
        towards = -np.sign(side) * line[:2] / normal
        return far_side_degrees(towards[0], towards[1])

    def tilt(self) -> float | None:
        """Degrees between straight down and the camera's line of sight to the tray's middle, from
        the perspective of a four-cornered outline of a rectangular tray through the assumed lens
        (:func:`vision.read.perspective.camera_tilt` says how, and how well); None for other outlines."""
        return camera_tilt(self.points, self.frame_size)

    def to_json(self) -> str:
        """The outline as JSON text, for the data folder."""
        return stored(FORMAT, VERSION, self.frame_size, outline=rounded(self.points))

    @classmethod
    def from_json(cls, text: str) -> TrayOutline:
        """The outline stored by :meth:`to_json`; TrayError says what is wrong with anything else."""
        data, frame = load_stored(text, FORMAT, VERSION, "tray outline", TrayError)
        outline = data.get("outline")
        if not is_outline(outline):
            raise TrayError(f'"outline" must be a list of [x, y] points, got {outline!r}')
        return cls(tuple((float(x), float(y)) for x, y in outline), frame)


def dice_inside(reading: DiceReading, tray: TrayOutline) -> DiceReading:
    """The dice of ``reading`` whose centres lie inside ``tray`` (in the same frame's pixels)."""
    return DiceReading(tuple(die for die in reading.dice if tray.contains(die.centre)),
                       tuple(die for die in reading.doubtful if tray.contains(die.centre)))


def taken_in(tray: TrayOutline | None, reading: DiceReading, expected: int, closer: Callable[[int], DiceReading],
             params: ReaderParams = DEFAULT_PARAMS) -> DiceReading:
    """What the companion takes of a throw of ``expected`` dice in ``tray`` (None: the whole picture):
    :func:`vision.read.reader.taken` of the dice inside it, each closer look (``closer(look)``) cut the same way."""
    if tray is None:
        return taken(reading, expected, closer, params)
    return taken(dice_inside(reading, tray), expected, lambda look: dice_inside(closer(look), tray), params)


def find_tray(image: np.ndarray, params: TrayParams = DEFAULT_TRAY_PARAMS) -> TrayOutline | None:
    """The outline of the empty tray in a BGR camera frame, or None when no region is convincing."""
    image = as_bgr(image)
    height, width = image.shape[:2]
    small = working_copy(image, params)
    least = params.min_area * small.shape[0] * small.shape[1] / 2  # the band grown back may double a thin region
    best = _best_region([_small_holes_filled(region, params) for region in even_regions(small, params, least)], params)
    if best is None:
        return None
    edge = offset(_outline(best, params), 0.5)  # from the outermost pixels' centres to their outer edge
    full = np.array(in_frame(edge, small, (width, height)))
    return TrayOutline(tuple((float(x), float(y)) for x, y in _clockwise_from_top_left(full)), (width, height))


def _small_holes_filled(region: np.ndarray, params: TrayParams) -> np.ndarray:
    """The region with its small holes (dice or a pen left in the tray) filled; large ones (the felt
    inside a rim) stay open."""
    contours, hierarchy = cv2.findContours(region, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return region
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0]):
        if parent >= 0 and cv2.contourArea(contour) < params.max_hole * cv2.contourArea(contours[parent]):
            cv2.drawContours(region, [contour], 0, 1, cv2.FILLED)
    return region


def _best_region(regions: list[np.ndarray], params: TrayParams) -> np.ndarray | None:
    """The tray among the even regions: large, convex, inside the picture; the middle one first."""
    trays = [r for r in regions if _looks_like_a_tray(r, params)]
    if not trays:
        return None
    middle = [r for r in trays if r[r.shape[0] // 2, r.shape[1] // 2]]
    return max(middle or trays, key=np.count_nonzero)


def _contour(region: np.ndarray) -> np.ndarray:
    """The outer edge of a region as (N, 2) float pixel centres."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(contours, key=cv2.contourArea)[:, 0].astype(np.float32)


def _looks_like_a_tray(region: np.ndarray, params: TrayParams) -> bool:
    height, width = region.shape
    area = np.count_nonzero(region)
    if area < params.min_area * height * width:
        return False
    contour = _contour(region)
    hull_area = cv2.contourArea(cv2.convexHull(contour))
    if hull_area <= 0 or area / hull_area < params.min_solidity:
        return False
    xs, ys = contour[:, 0], contour[:, 1]
    on_border = (xs <= 0) | (ys <= 0) | (xs >= width - 1) | (ys >= height - 1)
    return float(np.mean(on_border)) <= params.max_on_border


def _outline(region: np.ndarray, params: TrayParams) -> np.ndarray:
    """The region's outline in working px: four corners where four fit, else a finer polygon."""
    contour = _contour(region)
    hull = cv2.convexHull(contour)[:, 0]
    quad = cv2.approxPolyDP(hull, math.sqrt(cv2.contourArea(hull)) * params.corner_search, True)[:, 0]
    if len(quad) == 4:
        corners = _refined_corners(contour, quad, params)
        # against the edge pixels' own polygon, as the sides were fitted through them: the hull runs
        # half a pixel outside a slanting side's steps, 1.5-2 % of a small tray's area
        region_area = cv2.contourArea(contour)
        if abs(cv2.contourArea(corners) - region_area) <= params.corner_fit * region_area:
            return corners
    return cv2.approxPolyDP(hull, params.outline_px, True)[:, 0]


def _refined_corners(contour: np.ndarray, quad: np.ndarray, params: TrayParams) -> np.ndarray:
    """The four corners where straight lines fitted along the middle of each side meet, so that
    rounded corners (of the tray, or of its pixels) do not pull them inwards."""
    lines = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0)):
        length = float(np.linalg.norm(b - a))
        along = (b - a) / length
        t = (contour - a) @ along
        off = np.abs((contour - a) @ np.array([-along[1], along[0]]))
        end = (1 - params.side_middle) / 2 * length
        side = contour[(t > end) & (t < length - end) & (off < params.side_px)]
        if len(side) < 2:
            return quad
        vx, vy, x0, y0 = cv2.fitLine(side, cv2.DIST_HUBER, 0, 0.01, 0.01)[:, 0]
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    corners = [_crossing(lines[i - 1], lines[i]) for i in range(4)]
    return quad if any(c is None for c in corners) else np.array(corners, np.float32)


def _crossing(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    """Where two lines (point, direction) cross, or None for parallel ones."""
    (p1, d1), (p2, d2) = first, second
    denominator = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denominator) < 1e-6:
        return None
    s = ((p2[0] - p1[0]) * d2[1] - (p2[1] - p1[1]) * d2[0]) / denominator
    return p1 + s * d1


def _clockwise_from_top_left(polygon: np.ndarray) -> np.ndarray:
    """The same polygon going clockwise on the screen, starting at its top left corner."""
    if cv2.contourArea(polygon.astype(np.float32), oriented=True) < 0:
        polygon = polygon[::-1]
    return np.roll(polygon, -int(np.argmin(polygon.sum(axis=1))), axis=0)
