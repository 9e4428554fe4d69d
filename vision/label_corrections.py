"""The reviewed corrections of wrong labels in the photo sets, applied whenever a set is read.

``vision/label_corrections.csv`` lists each corrected die by its file and its labelled box (as the
set's ``boxes.csv`` gives it), the label it had, the face its pips show (0 where no face can be
read), and a few words of why. Every row was looked at by a person, die by die, after
``python -m vision.training.label_review`` flagged it; a face is corrected only to what the pips
show, never to agree with the reader. The sets in ``../shared`` are never edited.
"""

from __future__ import annotations

import csv
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CORRECTIONS = Path(__file__).resolve().parent / "label_corrections.csv"
SAME_BOX = 0.5  # px: a correction's box is the labelled box whose corners are all this close


@dataclass(frozen=True)
class Correction:
    file: str
    box: tuple[float, float, float, float]
    old: int
    new: int
    why: str

    def names(self, box: tuple[float, float, float, float, int]) -> bool:
        """Whether this correction is of ``box`` (x0, y0, x1, y1, value)."""
        return box[4] == self.old and all(abs(a - b) <= SAME_BOX for a, b in zip(box[:4], self.box))


@lru_cache(maxsize=4)
def corrections(path: Path = CORRECTIONS) -> dict[str, tuple[Correction, ...]]:
    """The corrections of ``path`` by file name (ValueError naming the line of a malformed row)."""
    by_file: dict[str, list[Correction]] = {}
    with path.open(newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                correction = Correction(row["file"], tuple(float(row[k]) for k in ("x0", "y0", "x1", "y1")),
                                        int(row["old"]), int(row["new"]), row["why"])
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{path} line {line}: needs file, x0, y0, x1, y1, old, new and why") from None
            if not (0 <= correction.new <= 6 and 1 <= correction.old <= 6) or correction.new == correction.old:
                raise ValueError(f"{path} line {line}: old must be 1-6 and new 0-6, and they must differ")
            by_file.setdefault(correction.file, []).append(correction)
    return {file: tuple(rows) for file, rows in by_file.items()}


def corrected(
    file: str, values: tuple[int, ...], boxes: tuple[tuple, ...], table: dict[str, tuple[Correction, ...]] | None = None
) -> tuple[tuple[int, ...], tuple[tuple, ...]]:
    """A photo's sorted values and its boxes with the reviewed corrections of that file applied
    (those of ``table``, by default the project's list)."""
    mine = (corrections() if table is None else table).get(file, ())
    if not mine:
        return values, boxes
    left = Counter(values)
    fixed = []
    for box in boxes:
        correction = next((c for c in mine if c.names(box)), None)
        if correction is not None and left[correction.old] > 0:
            left[correction.old] -= 1
            left[correction.new] += 1
            box = (*box[:4], correction.new)
        fixed.append(box)
    return tuple(sorted(left.elements())), tuple(fixed)
