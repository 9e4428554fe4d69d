"""Photos read as the companion reads a throw at the table: only the dice inside the tray count.

At the table the companion keeps the dice inside the tray's outline, then, knowing how many were
thrown, the likeliest that many, a throw read short looked at again closer (``RollWatcher``:
:func:`vision.read.tray.taken_in`). A labelled photo says nothing of its tray, so the tray is taken
as the labelled dice's spread: the bounding rectangle of the labelled dice's centres grown on every
side by ``margin`` times the photo's median die size (a box's longer side), cut to the picture.
A photo without labelled dice has no spread: its whole picture is the tray.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import replace

from vision.measure.evaluation import PhotoResult, box_place
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import likeliest
from vision.read.tray import TrayOutline, dice_inside, taken_in

Place = tuple[tuple[float, float], float]  # a die's centre (x, y) and size, px
TRAY_MARGIN = 1.5  # die sizes: the spread grown by this is the tray (a player's throw lies that loosely)


def spread_tray(places: Sequence[Place], margin: float, frame_size: tuple[int, int]) -> TrayOutline:
    """The rectangle round the centres of ``places`` grown by ``margin`` times their median size, cut
    to a frame of ``frame_size`` (width, height); the whole frame when there are no places."""
    width, height = frame_size
    if not places:
        return TrayOutline(((0.0, 0.0), (width, 0.0), (width, height), (0.0, height)), frame_size)
    grow = margin * statistics.median(size for _, size in places)
    xs, ys = [x for (x, _), _ in places], [y for (_, y), _ in places]
    x0, y0 = max(min(xs) - grow, 0.0), max(min(ys) - grow, 0.0)
    x1, y1 = min(max(xs) + grow, float(width)), min(max(ys) + grow, float(height))
    return TrayOutline(((x0, y0), (x1, y0), (x1, y1), (x0, y1)), frame_size)


def at_the_table(result: PhotoResult, margin: float, known_count: bool,
                 params: ReaderParams = DEFAULT_PARAMS) -> PhotoResult:
    """``result`` as the companion would have taken it: its reading (made without a known count, so
    its doubtful dice are there) cut to the labelled dice's spread grown by ``margin`` die sizes, then
    with ``known_count`` to the photo's labelled number of dice (read short, the photo's closer looks
    cut the same way, where the result has one: :func:`vision.read.reader.taken`), told where the
    photo's far side lay as it was read (a leaning camera's side face: :func:`vision.read.reader.likeliest`)."""
    tray = spread_tray([box_place(box) for box in result.photo.boxes], margin, result.frame_size)
    if not known_count:
        return replace(result, reading=dice_inside(result.reading, tray))
    closer = result.closer
    if closer is None:  # a result made without its photo's file: no closer look to take, no far side told
        return replace(result, reading=likeliest(dice_inside(result.reading, tray), len(result.photo.values), params))
    told = replace(params, up=closer.params.up)  # where the photo's far side lay as it was read
    return replace(result, reading=taken_in(tray, result.reading, len(result.photo.values), closer.reading, told))
