"""The levels of a stepped dice board in the camera's view: one outline per level, 0x to 4x.

The camera looks down on the board from a fixed place, so the levels are outlined once (on a
picture of the empty board) and a die is on the level whose outline holds its centre. A die
whose centre lies close to the line between two levels may rest on either (or lean across the
step): it is reported unsure, never guessed; a die outside every level is off the board. The
launch pad is no level. Like the tray's outline (:mod:`vision.read.tray`) the map is stored with the
size of the frames it was drawn on: frames of another size of the same shape get it rescaled,
frames of another shape are refused.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2

from vision.read.frame_outline import (
    Outline,
    Point,
    area,
    corner_outside,
    is_outline,
    load_stored,
    polygon,
    rescaled,
    rounded,
    same_shape,
    stored,
)
FORMAT = "dice-companion board levels"
VERSION = 1
LEVELS = 5
"""Levels 0 (the 0x level, scores nothing) to 4 (the 4x level)."""


class LevelMapError(ValueError):
    """A level map that cannot be used: malformed, outside its frame, or made for frames of another shape."""


@dataclass(frozen=True)
class LevelParams:
    """Every tuned number of placing dice on levels."""

    border_margin: float = 0.2  # die sizes: a centre closer than this to a line between levels is unsure
    aspect_tolerance: float = 0.02  # fraction: frames whose width/height differ less have the same shape


DEFAULT_LEVEL_PARAMS = LevelParams()


@dataclass(frozen=True)
class Placement:
    """Where a die lies: ``level`` 0..4, or None with ``reason`` (on a border, or off the board)."""

    level: int | None
    on_board: bool
    reason: str = ""


@dataclass(frozen=True)
class LevelMap:
    """One outline per level (index = level, 0..4) in pixels of frames of ``frame_size`` (width, height)."""

    outlines: tuple[Outline, ...]
    frame_size: tuple[int, int]

    def __post_init__(self) -> None:
        width, height = self.frame_size
        if width < 1 or height < 1:
            raise LevelMapError(f"a level map needs a frame size of at least 1x1 px, got {width}x{height}")
        if len(self.outlines) != LEVELS:
            raise LevelMapError(f"a level map has one outline per level 0 to 4 ({LEVELS}), got {len(self.outlines)}")
        for level, outline in enumerate(self.outlines):
            if len(outline) < 3:
                raise LevelMapError(f"level {level}'s outline needs at least 3 corners, got {len(outline)}")
            outside = corner_outside(outline, self.frame_size)
            if outside is not None:
                x, y = outside
                raise LevelMapError(f"level {level}'s corner ({x:g}, {y:g}) lies outside the {width}x{height} frame")
            if area(outline) < 1.0:
                raise LevelMapError(f"level {level}'s corners enclose no area (they lie on one line)")

    def fits(self, frame_size: tuple[int, int], params: LevelParams = DEFAULT_LEVEL_PARAMS) -> bool:
        """Whether frames of ``frame_size`` have this map's frames' shape (so it can be rescaled)."""
        return same_shape(self.frame_size, frame_size, params.aspect_tolerance)

    def scaled_to(self, frame_size: tuple[int, int], params: LevelParams = DEFAULT_LEVEL_PARAMS) -> LevelMap:
        """The same map in frames of ``frame_size``; LevelMapError for frames of another shape."""
        if tuple(frame_size) == self.frame_size:
            return self
        if not self.fits(frame_size, params):
            raise LevelMapError(
                f"the board's levels were outlined on {self.frame_size[0]}x{self.frame_size[1]} frames and the camera "
                f"gives {frame_size[0]}x{frame_size[1]}, a picture of another shape: outline the levels again"
            )
        outlines = tuple(rescaled(outline, self.frame_size, frame_size) for outline in self.outlines)
        return LevelMap(outlines, (int(frame_size[0]), int(frame_size[1])))

    def place(self, centre: Point, size: float, params: LevelParams = DEFAULT_LEVEL_PARAMS) -> Placement:
        """The level of a die of ``size`` px whose centre is ``centre`` (px of this map's frames).

        Unsure when the centre is within ``border_margin`` die sizes of two levels' outlines.
        """
        margin = params.border_margin * size
        point = (float(centre[0]), float(centre[1]))
        inside = [cv2.pointPolygonTest(polygon(o), point, True) for o in self.outlines]  # px, > 0 inside
        near = [level for level, distance in enumerate(inside) if distance > -margin]
        holding = [level for level, distance in enumerate(inside) if distance >= 0]
        if len(near) >= 2:
            levels = sorted(near)
            names = ", ".join(str(v) for v in levels[:-1]) + f" and {levels[-1]}"
            return Placement(None, True, f"on the border of levels {names}")
        if not holding:
            return Placement(None, False, "off the board")
        return Placement(holding[0], True)

    def to_json(self) -> str:
        """The map as JSON text, for the data folder."""
        return stored(FORMAT, VERSION, self.frame_size, levels=[rounded(outline) for outline in self.outlines])

    @classmethod
    def from_json(cls, text: str) -> LevelMap:
        """The map stored by :meth:`to_json`; LevelMapError says what is wrong with anything else."""
        data, frame = load_stored(text, FORMAT, VERSION, "board level map", LevelMapError)
        levels = data.get("levels")
        if not isinstance(levels, list) or not all(is_outline(o) for o in levels):
            raise LevelMapError(f'"levels" must be a list of outlines, each a list of [x, y] points, got {levels!r}')
        outlines = tuple(tuple((float(x), float(y)) for x, y in outline) for outline in levels)
        return cls(outlines, frame)
