"""Measure the reader against labelled photos: accuracy per die and per photo, silent errors, speed.

The rules are those of a player at the table:
  * a photo is *exact* only if every labelled die is read right and nothing else is reported
    (an extra die, read or unreadable, spoils it);
  * a photo is *silently wrong* when the companion would have taken a wrong roll without a word:
    as many dice read as labelled, none unreadable, and yet not exact;
  * where the folder has ``boxes.csv``, reported dice are matched to labelled dice by location
    (either box's centre lies inside the other box grown by ``MATCH_GROWTH``: some sets draw
    their boxes tight round the pips, others round the whole die), one to one, nearest first, so a
    right value read off the wrong die does not count; without boxes values are matched as multisets.
A label of 0 marks a die whose value is unclear (cut off, hidden): it is not counted per die, and
a die reported at its place is neither right nor extra.
"""

from __future__ import annotations

import csv
import hashlib
import math
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

import numpy as np

from vision.measure import label_corrections
from vision.read.classify import NOT_A_DIE, logits_and_features, softmax
from vision.read.image_file import ImageFileError, read_image
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import closer_look, crops_at, face_probabilities, said_face, taken
from vision.read.reading import DiceReading, Die

Reader = Callable[[np.ndarray, ReaderParams], DiceReading]
# Where the camera's far side lies in the photos measured (``ReaderParams.up``): degrees, None for
# cameras straight down, or PHOTOS_OWN_UP for each photo's own (the manifest's ``up`` column, as a
# tray's outline would tell the reader at the table; straight down where it says nothing, as the
# labelled sets' photos were taken).
PHOTOS_OWN_UP = "photo"
Up = float | str | None
Box = tuple[float, float, float, float, int]  # x0, y0, x1, y1 in photo px, and the labelled value (0 = unclear)

MATCH_GROWTH = 1.25  # -: a box is grown by this about its centre before a centre is tested against it
UNCLEAR = 0


class DatasetError(ValueError):
    """A photo folder that cannot be evaluated (no manifest, bad rows, unreadable images)."""


@dataclass(frozen=True)
class LabelledPhoto:
    file: str
    values: tuple[int, ...]  # sorted; 0 = a die whose value is unclear
    split: str = ""
    boxes: tuple[Box, ...] = ()
    source: str = ""  # where the photo comes from (the manifest's ``source_repo``): one table, camera and dice set
    up: float | None = None  # where the camera's far side lies (the manifest's ``up``, degrees), if known

    @property
    def group(self) -> str:
        """The file-name prefix before the first ``_`` (the photo's source)."""
        return self.file.split("_", 1)[0]

    @property
    def clear_values(self) -> tuple[int, ...]:
        return tuple(v for v in self.values if v != UNCLEAR)


def _inside_grown(point: tuple[float, float], centre: tuple[float, float], half: tuple[float, float]) -> bool:
    """Whether ``point`` lies inside the box of ``centre`` and half sides ``half``, grown by MATCH_GROWTH."""
    return all(abs(p - c) <= h * MATCH_GROWTH for p, c, h in zip(point, centre, half))


def box_place(box: Box) -> tuple[tuple[float, float], float]:
    """A labelled box's centre and size (its longer side), in photo px."""
    x0, y0, x1, y1, _ = box
    return ((x0 + x1) / 2, (y0 + y1) / 2), max(x1 - x0, y1 - y0, 1.0)


def photo_params(photo: LabelledPhoto, up: Up, params: ReaderParams = DEFAULT_PARAMS) -> ReaderParams:
    """``params`` told where the camera's far side lies in ``photo``: ``up`` degrees, or with
    PHOTOS_OWN_UP the photo's own (straight down where the manifest says nothing)."""
    return replace(params, up=photo.up if up == PHOTOS_OWN_UP else up)


def box_readings(image: np.ndarray, boxes: tuple[Box, ...],
                 params: ReaderParams = DEFAULT_PARAMS) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the classifier reads on a crop of each labelled box, the box taken as the die, each crop
    cut and read once (:mod:`vision.measure.ceiling`):

    * its likeliest face (1-6): what the pipeline would read if it found every die where it lies;
    * the face the reader would say there, 0 where it would not: where it finds no die (more than
      ``max_not_die_probability`` likely none) or keeps the face unsure, its faces weighed as the
      reader weighs a die's (an unsure one with its other views) at the camera's threshold. A face
      read right on a perfect box but not surely is lost on that box."""
    if not boxes:
        return (), ()
    crops = crops_at(image, [box_place(b) for b in boxes], params)
    seen = softmax(logits_and_features(crops, params)[0])
    faces = tuple(int(face) + 1 for face in np.argmax(seen[:, :NOT_A_DIE], axis=1))
    said = tuple(said_face(probabilities, params) for probabilities in face_probabilities(crops, params, seen=seen))
    return faces, said


def match_by_location(boxes: tuple[Box, ...], dice: tuple[Die, ...]) -> dict[int, int]:
    """Labelled box index -> reported die index: pairs where either box's centre lies inside the
    other grown by MATCH_GROWTH, nearest centres first (in box sizes), each box and die used once."""
    pairs = []
    for b, (x0, y0, x1, y1, _) in enumerate(boxes):
        centre, half = ((x0 + x1) / 2, (y0 + y1) / 2), ((x1 - x0) / 2, (y1 - y0) / 2)
        size = max(x1 - x0, y1 - y0, 1.0)
        for d, die in enumerate(dice):
            die_half = (die.size / 2, die.size / 2)
            if _inside_grown(die.centre, centre, half) or _inside_grown(centre, die.centre, die_half):
                pairs.append((math.dist(die.centre, centre) / size, b, d))
    matched: dict[int, int] = {}
    for _, b, d in sorted(pairs):
        if b not in matched and d not in matched.values():
            matched[b] = d
    return matched


@dataclass(frozen=True)
class CloserLook:
    """A photo read again as the companion reads a throw it found short at the table
    (:func:`vision.read.reader.closer_look`): each look only when asked and once, the image loaded
    again then, so that a set's results hold no images."""

    read: Reader
    image_file: Path
    params: ReaderParams
    _readings: dict[int, DiceReading] = field(default_factory=dict, init=False, compare=False, repr=False)

    def of(self, image: np.ndarray, look: int) -> DiceReading:
        """The photo's ``image``, already loaded, read as the ``look``-th closer look."""
        return self.read(image, closer_look(self.params, look))

    def reading(self, look: int) -> DiceReading:
        """The ``look``-th closer look at the photo, read the first time it is asked for."""
        if look not in self._readings:
            self._readings[look] = self.of(load_image(self.image_file), look)
        return self._readings[look]


@dataclass(frozen=True)
class PhotoResult:
    photo: LabelledPhoto
    reading: DiceReading
    milliseconds: float
    box_faces: tuple[int, ...] = ()  # the classifier's face on each labelled box (``box_readings``)
    box_said: tuple[int, ...] = ()  # the face the reader would say on each labelled box, 0 none (``box_readings``)
    frame_size: tuple[int, int] = (0, 0)  # the photo's width and height, px: the frame a tray is placed in
    closer: CloserLook | None = field(default=None, compare=False, repr=False)  # how to read the photo again closer, when asked

    @cached_property
    def _tally(self) -> tuple[int, int]:
        """(labelled dice read right, reported dice that answer to no labelled die)."""
        dice = self.reading.dice
        if not self.photo.boxes:
            right = sum((Counter(self.reading.values) & Counter(self.photo.clear_values)).values())
            return right, max(0, len(dice) - len(self.photo.values))
        return len(self.right_boxes), len(dice) - len(match_by_location(self.photo.boxes, dice))

    @cached_property
    def right_boxes(self) -> frozenset[int]:
        """The labelled boxes whose die was read right (matched by location; none without boxes)."""
        dice = self.reading.dice
        matched = match_by_location(self.photo.boxes, dice)
        return frozenset(b for b, d in matched.items() if self.photo.boxes[b][4] == dice[d].value != UNCLEAR)

    @property
    def dice_right(self) -> int:
        return self._tally[0]

    @property
    def extra_dice(self) -> int:
        return self._tally[1]

    @property
    def is_exact(self) -> bool:
        return self.dice_right == len(self.photo.clear_values) and self.extra_dice == 0 and (
            bool(self.photo.boxes) or not self.reading.unreadable
        )

    @property
    def count_is_right(self) -> bool:
        return len(self.reading.dice) == len(self.photo.values)

    @property
    def is_silently_wrong(self) -> bool:
        """The companion would take this reading (right count, all read) although it is wrong."""
        return not self.is_exact and not self.reading.unreadable and len(self.reading.dice) == len(self.photo.values)

    @property
    def table_outcome(self) -> str:
        """How a companion taking this reading of the photo's throw fares (:func:`table_outcome`)."""
        return table_outcome(self.reading, len(self.photo.values), self.is_exact)


@dataclass(frozen=True)
class Figures:
    """Accuracy and speed over a set of photos, as percentages and milliseconds."""

    name: str
    photos: int
    dice: int
    per_die: float
    per_photo: float
    count: float
    silent: float
    median_ms: float

    def line(self) -> str:
        return (
            f"{self.name}: per-die {self.per_die:.1f}% per-photo {self.per_photo:.1f}% "
            f"count {self.count:.1f}% silent {self.silent:.1f}% median-ms {self.median_ms:.1f}"
        )


def read_boxes(folder: Path) -> dict[str, tuple[Box, ...]]:
    """The per-die boxes of ``folder/boxes.csv`` by file name; empty if the folder has none."""
    path = folder / "boxes.csv"
    if not path.is_file():
        return {}
    boxes: dict[str, list[Box]] = defaultdict(list)
    with path.open(newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            try:
                x0, y0, x1, y1 = (float(row[k]) for k in ("x0", "y0", "x1", "y1"))
                value = int(row["value"])
            except (KeyError, TypeError, ValueError):
                raise DatasetError(f"{path} line {line}: needs numbers in x0, y0, x1, y1 and value") from None
            boxes[row["file"]].append((x0, y0, x1, y1, value))
    return {file: tuple(rows) for file, rows in boxes.items()}


def read_manifest(folder: Path, splits: Iterable[str] | None = None, corrected: bool = True) -> list[LabelledPhoto]:
    """The photos listed in ``folder/manifest.csv`` (columns ``file``, ``values``, optionally ``split``).

    ``splits`` keeps only the rows whose ``split`` column is one of them. Boxes come from
    ``boxes.csv`` where it exists. With ``corrected`` (the default) the reviewed corrections of
    wrong labels are applied (:mod:`vision.measure.label_corrections`); without, the set's own labels.
    """
    manifest = folder / "manifest.csv"
    if not manifest.is_file():
        raise DatasetError(f"{manifest} not found: a photo folder needs manifest.csv and images/")
    wanted = None if splits is None else set(splits)
    boxes = read_boxes(folder)
    photos = []
    with manifest.open(newline="") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or not {"file", "values"} <= set(reader.fieldnames):
            raise DatasetError(f"{manifest} needs the columns 'file' and 'values'")
        if wanted is not None and "split" not in reader.fieldnames:
            raise DatasetError(f"{manifest} has no 'split' column to choose {', '.join(sorted(wanted))} from")
        for line, row in enumerate(reader, start=2):
            try:
                values = tuple(sorted(int(v) for v in row["values"].split()))
            except ValueError:
                raise DatasetError(f"{manifest} line {line}: values must be numbers, got {row['values']!r}") from None
            if not all(0 <= v <= 6 for v in values):
                raise DatasetError(f"{manifest} line {line}: values must be 1 to 6 (0: unclear), got {row['values']!r}")
            split = row.get("split") or ""
            up = _manifest_up(row.get("up") or "", manifest, line)
            if wanted is None or split in wanted:
                photo_boxes = boxes.get(row["file"], ())
                if corrected:
                    try:
                        values, photo_boxes = label_corrections.corrected(row["file"], values, photo_boxes)
                    except label_corrections.CorrectionsError as error:
                        raise DatasetError(str(error)) from None
                photos.append(LabelledPhoto(row["file"], values, split, photo_boxes, row.get("source_repo") or "", up))
    if wanted is not None and not photos:
        raise DatasetError(f"{manifest} has no rows whose split is {', '.join(sorted(wanted))}")
    return photos


def _manifest_up(text: str, manifest: Path, line: int) -> float | None:
    """A row's ``up`` (degrees, any finite number), or None where the row leaves it empty."""
    if not text.strip():
        return None
    try:
        up = float(text)
    except ValueError:
        up = math.nan
    if not math.isfinite(up):
        raise DatasetError(f"{manifest} line {line}: up must be degrees (a number), got {text!r}")
    return up % 360.0


def load_image(path: Path) -> np.ndarray:
    """A BGR image from disk, or a DatasetError naming the file and what is wrong with it."""
    try:
        return read_image(path)
    except ImageFileError as error:
        raise DatasetError(str(error)) from None


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes: how the reader's training records the photos it saw."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise DatasetError(f"cannot read image {path}: {error.strerror}") from None


def trained_on(listing: Path) -> frozenset[str]:
    """The digests in a ``trained-on.txt`` (``<sha256>  <file>`` lines); empty if there is none."""
    if not listing.is_file():
        return frozenset()
    return frozenset(line.split()[0] for line in listing.read_text().splitlines() if line.strip())


def unseen(folder: Path, photos: list[LabelledPhoto], seen: frozenset[str]) -> list[LabelledPhoto]:
    """The photos whose image files are not among the ``seen`` digests: only these measure a trained reader."""
    return [photo for photo in photos if file_digest(folder / "images" / photo.file) not in seen]


def evaluate(
    folder: Path, read: Reader, photos: Iterable[LabelledPhoto] | None = None, known_count: bool = False,
    up: Up = PHOTOS_OWN_UP, params: ReaderParams = DEFAULT_PARAMS,
) -> Iterator[PhotoResult]:
    """Read every photo (decoding is not timed) with ``params`` told where its far side lies
    (``up``, :func:`photo_params`) and yield what was read against the label; with ``known_count``
    the reading is cut to the photo's labelled number of dice, as the companion takes a throw
    (:func:`vision.read.reader.taken`: read short, the photo is looked at again closer)."""
    for photo in read_manifest(folder) if photos is None else photos:
        image = load_image(folder / "images" / photo.file)
        told = photo_params(photo, up, params)
        closer = CloserLook(read, folder / "images" / photo.file, told)
        started = time.perf_counter()
        reading = read(image, told)
        if known_count:
            reading = taken(reading, len(photo.values), lambda look: closer.of(image, look), told)
        elapsed = (time.perf_counter() - started) * 1000
        yield PhotoResult(photo, reading, elapsed, *box_readings(image, photo.boxes, told), (image.shape[1], image.shape[0]),
                          closer)


def figures(name: str, results: list[PhotoResult]) -> Figures:
    """Summarise results: dice right over all clearly labelled dice, exact, right counts, silent errors, time."""
    dice = sum(len(r.photo.clear_values) for r in results)
    photos = max(len(results), 1)
    return Figures(
        name=name,
        photos=len(results),
        dice=dice,
        per_die=100 * sum(r.dice_right for r in results) / max(dice, 1),
        per_photo=100 * sum(r.is_exact for r in results) / photos,
        count=100 * sum(r.count_is_right for r in results) / photos,
        silent=100 * sum(r.is_silently_wrong for r in results) / photos,
        median_ms=statistics.median(r.milliseconds for r in results) if results else 0.0,
    )


REFUSALS = ("extra", "unsure", "missed")  # why a throw is refused, in the order they are told apart


def table_outcome(reading: DiceReading, thrown: int, exact: bool) -> str:
    """How a companion fares with ``reading`` of a throw of ``thrown`` dice: refused with an extra
    die (more dice than thrown), a die missed (fewer) or a die unsure (as many, one unreadable), the
    count first as the player is told it first ("Saw 3 dice, need 4"); else taken, ``right`` when
    ``exact`` and ``silent`` (a wrong throw taken without a word) when not."""
    if len(reading.dice) != thrown:
        return "extra" if len(reading.dice) > thrown else "missed"
    if reading.unreadable:
        return "unsure"
    return "right" if exact else "silent"


@dataclass(frozen=True)
class TableFigures:
    """Throws as a companion takes them, counted by outcome (:func:`table_outcome`)."""

    outcomes: Counter[str]

    @classmethod
    def of(cls, outcomes: Iterable[str]) -> TableFigures:
        return cls(Counter(outcomes))

    @property
    def throws(self) -> int:
        return sum(self.outcomes.values())

    @property
    def refused(self) -> int:
        return sum(self.outcomes[why] for why in REFUSALS)

    def percent(self, outcome: str) -> float:
        """The share of throws, %, with that outcome ("refused" for the three refusals together)."""
        count = self.refused if outcome == "refused" else self.outcomes[outcome]
        return 100 * count / max(self.throws, 1)

    def line(self, name: str = "table", unit: str = "") -> str:
        """``name: right R% refused F% silent S%``; with ``unit`` (photos, trays) the refusals apart
        and the throws counted: ``... refused F% (extra e unsure u missed m) silent S% photos n``."""
        apart = f" ({' '.join(f'{why} {self.outcomes[why]}' for why in REFUSALS)})" if unit else ""
        counted = f" {unit} {self.throws}" if unit else ""
        return (f"{name}: right {self.percent('right'):.1f}% refused {self.percent('refused'):.1f}%{apart} "
                f"silent {self.percent('silent'):.1f}%{counted}")


def table_line(results: list[PhotoResult]) -> str:
    """How a companion that knows the number of dice fares, per photo: all of them read right, the
    throw refused (not that many dice, or one unreadable), or a wrong throw taken without a word."""
    return TableFigures.of(r.table_outcome for r in results).line()


def figures_by_group(results: list[PhotoResult]) -> list[Figures]:
    """Figures per file-name prefix, then ``overall`` last."""
    groups = sorted({r.photo.group for r in results})
    by_group = [figures(g, [r for r in results if r.photo.group == g]) for g in groups]
    return by_group + [figures("overall", results)]


def at_threshold(result: PhotoResult, threshold: float) -> PhotoResult:
    """The result as a reader whose face threshold is ``threshold`` would have given it.

    The threshold is the reader's last step, so a reading keeping every face
    (``ReaderParams.keeping_every_face``) holds every answer.
    """
    dice = tuple(
        d if d.value is None or d.confidence >= threshold else replace(d, value=None, reason="unsure")
        for d in result.reading.dice
    )
    return replace(result, reading=DiceReading(dice))


@dataclass(frozen=True)
class ReliabilityRow:
    low: float
    high: float
    dice: int
    mean_confidence: float
    accuracy: float

    def line(self) -> str:
        return (f"confidence {self.low:.2f}-{self.high:.2f}: dice {self.dice:5d} "
                f"mean-confidence {100 * self.mean_confidence:5.1f}% right {100 * self.accuracy:5.1f}%")


RELIABILITY_EDGES = (0.0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0)


def reliability(results: list[PhotoResult]) -> list[ReliabilityRow]:
    """How often a labelled die read at each confidence was right (dice matched by location, or by value)."""
    pairs = []  # (confidence, right)
    for r in results:
        dice = r.reading.dice
        if r.photo.boxes:
            for b, d in match_by_location(r.photo.boxes, dice).items():
                if r.photo.boxes[b][4] != UNCLEAR and dice[d].value is not None:
                    pairs.append((dice[d].confidence, dice[d].value == r.photo.boxes[b][4]))
        else:
            left = Counter(r.photo.clear_values)
            for die in sorted((d for d in dice if d.value is not None), key=lambda d: -d.confidence):
                pairs.append((die.confidence, left[die.value] > 0))
                left[die.value] -= 1
    rows = []
    for low, high in zip(RELIABILITY_EDGES, RELIABILITY_EDGES[1:]):
        inside = [(c, ok) for c, ok in pairs if low <= c < high or (high == 1.0 and c == 1.0)]
        if inside:
            rows.append(ReliabilityRow(low, high, len(inside), float(np.mean([c for c, _ in inside])),
                                       float(np.mean([ok for _, ok in inside]))))
    return rows
