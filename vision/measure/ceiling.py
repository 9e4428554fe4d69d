"""How far the pipeline falls short of its own classifier, and why, die by die.

The *ceiling* of a photo set is what the classifier alone reads on a crop of every labelled box
(its likeliest face, the box taken as the die): what the pipeline would read if it found every die
exactly where it lies and dared to say every face; *said on the boxes* is the share it reads right
there surely enough to say it (``evaluation.box_readings``): what a pipeline keeping its threshold
reads on perfect boxes. A labelled die the classifier reads right on its box and the pipeline does
not was *lost by the pipeline*, for one of these causes, checked in this order:

  merged with a neighbour  the die that answers for it also covers another labelled die that no die
                           answers for, or a die lies over it and another labelled die
  box off the die          a die answers for it, but off centre or of another size
  unsure                   a die answers for it, its face kept unreadable
  another face             a die answers for it, read as another face
  cut by the count         read, then left out when the reading was cut to the labelled number of dice
  taken for no die         the detector proposed it, the classifier (or a stronger overlapping candidate) put it aside
  no candidate             the detector never proposed anything there
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Container, Sequence
from dataclasses import dataclass

import numpy as np

from vision.measure.evaluation import UNCLEAR, Box, PhotoResult, box_place, match_by_location
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import candidates_in, read_dice
from vision.read.reading import DiceReading, Die

CAUSES = (
    "merged with a neighbour",
    "box off the die",
    "unsure",
    "another face",
    "cut by the count",
    "taken for no die",
    "no candidate",
)
OFF_CENTRE = 0.25  # box sizes: a die whose centre is further than this from its box's is off the die
SIZE_RATIO = 1.45  # -: or whose size differs from its box's by more than this factor either way


@dataclass(frozen=True)
class Ceiling:
    """Labelled dice (clear ones, in photos with boxes), how many the classifier reads right on
    their boxes, how many of them the pipeline read right, and how many it reads right there surely
    enough to say (None where a result holds no ``box_said``)."""

    dice: int
    boxes_right: int
    pipeline_right: int
    said_right: int | None = None

    def line(self) -> str:
        dice = max(self.dice, 1)
        said = "" if self.said_right is None else f" said-on-boxes {100 * self.said_right / dice:.1f}%"
        return (f"ceiling: label-boxes {100 * self.boxes_right / dice:.1f}% pipeline "
                f"{100 * self.pipeline_right / dice:.1f}%{said}")


def _clear_boxes(result: PhotoResult) -> list[int]:
    return [b for b, box in enumerate(result.photo.boxes) if box[4] != UNCLEAR]


def ceiling(results: Sequence[PhotoResult]) -> Ceiling | None:
    """The ceiling of the photos with boxes (each result read with ``box_readings``); None if none has boxes."""
    boxed = [r for r in results if r.photo.boxes and r.box_faces]
    if not boxed:
        return None
    dice = boxes_right = pipeline_right = said_right = 0
    for result in boxed:
        right = result.right_boxes
        for b in _clear_boxes(result):
            dice += 1
            boxes_right += result.box_faces[b] == result.photo.boxes[b][4]
            pipeline_right += b in right
            said_right += bool(result.box_said) and result.box_said[b] == result.photo.boxes[b][4]
    return Ceiling(dice, boxes_right, pipeline_right, said_right if all(r.box_said for r in boxed) else None)


@dataclass(frozen=True)
class LostDie:
    file: str
    box: int
    label: int
    cause: str

    def line(self) -> str:
        return f"  {self.file} box {self.box + 1} ({self.label}): {self.cause}"


def _inside(point: tuple[float, float], centre: tuple[float, float], size: float) -> bool:
    """Whether ``point`` lies in the square of side ``size`` about ``centre``."""
    return all(abs(p - c) <= size / 2 for p, c in zip(point, centre))


def _merged(die: Die, box: int, boxes: Sequence[Box], answered: Container[int] = ()) -> bool:
    """Whether ``die`` covers the centre of ``box`` and of another labelled box too, one that no
    other die answers for (``answered``): under a leaning camera a die's box holds its side faces,
    and covers the centre of a neighbour found and read on its own."""
    centres = [box_place(b)[0] for b in boxes]
    return _inside(centres[box], die.centre, die.size) and any(
        _inside(c, die.centre, die.size) for i, c in enumerate(centres) if i != box and i not in answered)


def _off(die: Die, box: Box) -> bool:
    centre, size = box_place(box)
    ratio = die.size / size
    return math.dist(die.centre, centre) > OFF_CENTRE * size or not 1 / SIZE_RATIO <= ratio <= SIZE_RATIO


def why_lost(result: PhotoResult, image: np.ndarray, params: ReaderParams = DEFAULT_PARAMS) -> list[LostDie]:
    """Each labelled die of ``result`` that the classifier reads right on its box and the pipeline
    lost, with the cause (see the module docstring); ``image`` is the photo it was read from. The
    causes that need the reading before the count are told from the usual look, also where the count
    had a throw read short looked at again closer (:func:`vision.read.reader.taken`)."""
    boxes, dice = result.photo.boxes, result.reading.dice
    if not result.box_faces:
        return []
    right = result.right_boxes
    lost = [b for b in _clear_boxes(result) if b not in right and result.box_faces[b] == boxes[b][4]]
    if not lost:
        return []
    matched = match_by_location(boxes, dice)
    full: DiceReading = read_dice(image, params)
    candidates = candidates_in(image, params)
    causes = []
    for b in lost:
        if b in matched:
            die = dice[matched[b]]
            cause = ("merged with a neighbour" if _merged(die, b, boxes, matched) else "box off the die" if _off(die, boxes[b])
                     else "unsure" if die.value is None else "another face")
        elif any(_merged(die, b, boxes) for die in dice + full.dice + full.doubtful):
            cause = "merged with a neighbour"
        elif b in match_by_location(boxes, full.dice):
            cause = "cut by the count"
        elif any(_inside(centre, *box_place(boxes[b])) for centre, _ in candidates):
            cause = "taken for no die"
        else:
            cause = "no candidate"
        causes.append(LostDie(result.photo.file, b, boxes[b][4], cause))
    return causes


def why_table(lost: Sequence[LostDie]) -> list[str]:
    """The lost dice counted by cause (every cause, in the order they are checked), then each die."""
    counts = Counter(d.cause for d in lost)
    lines = [f"why: {len(lost)} dice lost by the pipeline that the classifier reads right on the labelled box"]
    lines += [f"why: {cause:<24} {counts[cause]:4d}" for cause in CAUSES]
    return lines + [d.line() for d in lost]
