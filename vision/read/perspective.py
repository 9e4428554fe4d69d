"""What the four corners of a rectangle in the picture (the tray's outline) say of the camera that
sees it: where the table's horizon lies, and how far the camera leans from straight down.

A rectangle seen straight from above stays a parallelogram; seen obliquely, each pair of opposite
sides runs together towards a vanishing point, and the two points lie on the horizon. With the
lens's focal length the horizon gives the table's slant as the camera sees it: in the camera's own
units (pixels from the picture's middle over the focal length) the horizon's line a*x + b*y + c = 0
has the table's normal (a, b, c) as its coefficients. The tilt is the angle between that normal
and the line of sight to the tray's middle (where its diagonals cross): how steeply the camera
looks at the dice, the angle that shows their side faces. For a camera aimed at the tray's middle
it is the camera's own tilt from straight down; a camera straight down but beside the tray leans
too, as its dice show.

A rectangle of unknown proportions cannot tell the focal length when the camera leans along one of
its sides (one vanishing point lies at infinity), so the lens is assumed: ``ASSUMED_FIELD_OF_VIEW``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

# degrees across the picture's width: a lens between the Raspberry Pi camera modules' 53.5 (v1),
# 62.2 (v2) and 66 (v3) and the 40-65 of render3d's cameras. Another lens scales tan(tilt) by
# tan(its field / 2) / tan(ASSUMED / 2): a 30-degree tilt reads 22 degrees through a 40-degree
# lens and 36 through a 66-degree one (a wide lens is told to rise a little early).
ASSUMED_FIELD_OF_VIEW = 55.0


def horizon(corners: Sequence[tuple[float, float]]) -> np.ndarray | None:
    """The line (a, b, c) through the points where the quadrilateral's opposite sides meet, in
    the corners' units, or None when they meet in one point (three corners on a line)."""
    points = [np.array([x, y, 1.0]) for x, y in corners]
    sides = [np.cross(points[i], points[(i + 1) % 4]) for i in range(4)]
    line = np.cross(np.cross(sides[0], sides[2]), np.cross(sides[1], sides[3]))
    return None if not np.any(line) else line


def camera_tilt(corners: Sequence[tuple[float, float]], frame_size: tuple[int, int],
                field_of_view: float = ASSUMED_FIELD_OF_VIEW) -> float | None:
    """Degrees between straight down and the camera's line of sight to the middle of the
    rectangle whose four ``corners`` (px of frames of ``frame_size``, in order round it) it sees
    through a lens of ``field_of_view`` degrees across the width; None without four usable corners.

    Checked on rectangles projected by render3d's camera (Mitsuba's own projection; tilts 0-40
    degrees, trays turned any way, the camera aimed near their middle): exact (0.01 degree) through
    the assumed lens; through lenses drawn from 40-65 degrees off by at most 3.5 degrees below a
    tilt of 10, 6 at 10-20, 9 at 20-30 and 10 at 30-40 (root mean square 1.1, 1.8, 3.3, 4.1). The
    tray finder's corners on drawn desks add up to a degree."""
    if len(corners) != 4:
        return None
    width, height = frame_size
    focal = width / 2 / math.tan(math.radians(field_of_view) / 2)
    seen = [((x - width / 2) / focal, (y - height / 2) / focal) for x, y in corners]
    normal = horizon(seen)
    a, b, c, d = (np.array([x, y, 1.0]) for x, y in seen)
    middle = np.cross(np.cross(a, c), np.cross(b, d))  # where the diagonals cross
    if normal is None or abs(middle[2]) < 1e-12:
        return None
    sight = middle / middle[2]
    cosine = abs(float(sight @ normal)) / (float(np.linalg.norm(sight)) * float(np.linalg.norm(normal)))
    return math.degrees(math.acos(min(1.0, cosine)))
