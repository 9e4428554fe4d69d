"""The reviewed corrections of wrong labels in the photo sets, applied whenever a set is read.

``vision/measure/label_corrections.csv`` lists each corrected die by its file and its labelled box (as the
set's ``boxes.csv`` gives it), the label it had, the face its pips show (0 where no face can be
read), and a few words of why. A die the labels leave out, plain in the photo, is a row whose old
label is 0 and whose box is where the die lies (no labelled box there): it is added to the photo.
Every row was looked at by a person, die by die, after ``python -m vision.training.label_review``
flagged it (or the reader was refused for an extra die there); a face is corrected only to what the
pips show, never to agree with the reader. The sets in ``../shared`` are never edited.
"""

from __future__ import annotations

import csv
import io
import math
import os
import stat
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CORRECTIONS = Path(__file__).resolve().parent / "label_corrections.csv"
SAME_BOX = 0.5  # px: a correction's box is the labelled box whose corners are all this close
MOST_BYTES = 1 << 20  # a list of corrections is a few kilobytes: a larger file is none


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

    @property
    def adds_a_die(self) -> bool:
        """Whether this row adds a die the labels left out (its old label 0, its box a new one)."""
        return self.old == 0


class CorrectionsError(ValueError):
    """The corrections file cannot be read: one line naming the file, the row and what is wrong."""


@lru_cache(maxsize=4)
def corrections(path: Path = CORRECTIONS) -> dict[str, tuple[Correction, ...]]:
    """The corrections of ``path`` by file name (CorrectionsError naming the row of a malformed one,
    and both rows where two correct one box to different faces)."""
    by_file: dict[str, list[tuple[int, Correction]]] = {}
    rows = csv.DictReader(io.StringIO(_text(path), newline=""))
    line = 1
    try:
        for line, row in enumerate(rows, start=2):
            correction = _correction(row, path, line)
            for earlier, other in by_file.get(correction.file, []):
                if other.old == correction.old and other.names((*correction.box, correction.old)) \
                        and other.new != correction.new:
                    raise CorrectionsError(f"{path} lines {earlier} and {line}: both correct {correction.file}'s box "
                                           f"{_box(correction.box)}, to {other.new} and to {correction.new}")
            by_file.setdefault(correction.file, []).append((line, correction))
    except csv.Error as error:
        raise CorrectionsError(f"{path} line {line + 1}: not a CSV row ({error})") from None
    return {file: tuple(c for _, c in found) for file, found in by_file.items()}


def _text(path: Path) -> str:
    """The file's text: a regular file of at most MOST_BYTES in UTF-8, opened without waiting on a
    pipe or following a link."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as error:
        raise CorrectionsError(f"{path}: cannot be opened ({error.strerror})") from None
    if not stat.S_ISREG(os.fstat(handle).st_mode):  # before fdopen, which refuses a folder in words of its own
        os.close(handle)
        raise CorrectionsError(f"{path}: is no regular file")
    with os.fdopen(handle, "rb") as opened:
        raw = opened.read(MOST_BYTES + 1)
    if len(raw) > MOST_BYTES:
        raise CorrectionsError(f"{path}: larger than {MOST_BYTES} bytes, so no list of corrections")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise CorrectionsError(f"{path} line {line}: a byte that is not UTF-8 (0x{raw[error.start]:02x})") from None


def _correction(row: dict, path: Path, line: int) -> Correction:
    """One row as a Correction, or CorrectionsError naming the row and what is wrong with it."""
    try:
        correction = Correction(row["file"], tuple(float(row[k]) for k in ("x0", "y0", "x1", "y1")),
                                int(row["old"]), int(row["new"]), row["why"])
    except (KeyError, TypeError, ValueError):
        raise CorrectionsError(f"{path} line {line}: needs file, x0, y0, x1, y1, old, new and why, "
                               "the box and faces as numbers") from None
    if not all(math.isfinite(v) for v in correction.box):
        raise CorrectionsError(f"{path} line {line}: the box {_box(correction.box)} must be finite numbers")
    if not (0 <= correction.new <= 6 and 0 <= correction.old <= 6) or correction.new == correction.old:
        raise CorrectionsError(f"{path} line {line}: old must be 0-6 (0: a die the labels leave out) and new 0-6, "
                               "and they must differ")
    return correction


def _box(box: tuple[float, ...]) -> str:
    return "(" + ", ".join(f"{v:g}" for v in box) + ")"


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
        correction = next((c for c in mine if not c.adds_a_die and c.names(box)), None)
        if correction is not None and left[correction.old] > 0:
            left[correction.old] -= 1
            left[correction.new] += 1
            box = (*box[:4], correction.new)
        fixed.append(box)
    for added in (c for c in mine if c.adds_a_die):
        left[added.new] += 1
        fixed.append((*added.box, added.new))
    return tuple(sorted(left.elements())), tuple(fixed)
