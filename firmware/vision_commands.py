"""Command-line front ends of the dice reader: read one image, evaluate a photo set, benchmark."""

from __future__ import annotations

import fnmatch
import math
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from firmware.bench.progress import progress
from vision.measure.annotate import annotate
from vision.measure.at_the_table import TRAY_MARGIN, at_the_table, spread_tray
from vision.measure.ceiling import ceiling, why_lost, why_table
from vision.measure.evaluation import (
    PHOTOS_OWN_UP,
    DatasetError,
    LabelledPhoto,
    PhotoResult,
    TableFigures,
    Up,
    at_threshold,
    evaluate,
    figures,
    figures_by_group,
    load_image,
    photo_params,
    read_manifest,
    reliability,
    table_line,
    table_outcome,
    trained_on,
    unseen,
)
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import candidates_in, read_dice
from vision.read.reading import DiceReading, Die
from vision.read.tray import taken_in
from vision.scenes.bench_trays import BENCH_SIZE, TRAY_KINDS, Thrown, TrayKind, throws
from vision.scenes.synthetic import PlacedDie
from vision.measure.tuning_evaluation import evaluate_tuned

Out = Callable[[str], None]


def describe(reading: DiceReading) -> list[str]:
    """The summary line, then one line per die."""
    lines = [reading.summary()]
    for number, die in enumerate(reading.dice, start=1):
        where = f"at ({die.centre[0]:.0f}, {die.centre[1]:.0f}) size {die.size:.0f}px"
        if die.is_readable:
            lines.append(f"die {number}: {die.value} {where} confidence {die.confidence:.2f}")
        else:
            lines.append(f"die {number}: unreadable {where} ({die.reason or 'no clear face'})")
    return lines


def read_command(image_path: Path, out_path: Path | None, out: Out = print, up: float | None = None) -> int:
    """Print what is read in one image, told where the camera's far side lies (``up``; None: a camera
    straight down), and optionally write the annotated picture (a PNG: checked before anything is
    read, so a wrong name costs nothing)."""
    if out_path is not None and out_path.suffix.lower() != ".png":
        raise OSError(f"--out {out_path}: the annotated picture is written as a PNG: name a .png file")
    image = load_image(image_path)
    reading = read_dice(image, up=up)
    for line in describe(reading):
        out(line)
    if out_path is not None:
        _write_png(out_path, annotate(image, reading))
        out(f"annotated picture: {out_path}")
    return 0


SWEEP = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.98)  # thresholds tried by ``eval-vision --calibration``


def measured_photos(folder: Path, splits: list[str] | None, only: str | None, out: Out, raw_labels: bool = False,
                    listings: Sequence[Path] = (DEFAULT_PARAMS.trained_on,), up: Up = PHOTOS_OWN_UP) -> list[LabelledPhoto]:
    """The photos of ``folder`` to measure: of the splits asked for, whose names match ``only``,
    less those the nets were trained on (they would flatter the figures: the digests of every
    ``trained-on.txt`` in ``listings``); their labels with the reviewed corrections, or with
    ``raw_labels`` as the set has them. With ``up`` each photo's own, a line says how many have none."""
    photos = [p for p in read_manifest(folder, splits, corrected=not raw_labels)
              if only is None or fnmatch.fnmatchcase(p.file, only)]
    if not photos:
        raise DatasetError(f"{folder}: no photo's file name matches {only!r}")
    measured = unseen(folder, photos, frozenset().union(*(trained_on(listing) for listing in listings)))
    if len(measured) < len(photos):
        out(f"left out {len(photos) - len(measured)} of {len(photos)} photos: the reader was trained on them")
    unknown = sum(photo.up is None for photo in measured)
    if up == PHOTOS_OWN_UP and 0 < unknown < len(measured):
        out(f"--up photo: {unknown} of {len(measured)} photos have no 'up' in {folder / 'manifest.csv'}: "
            "read as seen from straight above")
    return measured


def with_boxes(photos: list[LabelledPhoto], out: Out) -> list[LabelledPhoto]:
    """The photos with labelled boxes, the only ones whose tray can be placed (:mod:`vision.measure.at_the_table`)."""
    boxed = [photo for photo in photos if photo.boxes]
    if not boxed:
        raise DatasetError("no photo has labelled boxes (boxes.csv) to place its tray by")
    if len(boxed) < len(photos):
        out(f"left out {len(photos) - len(boxed)} of {len(photos)} photos: no labelled boxes to place the tray by")
    return boxed


def read_photos(folder: Path, photos: list[LabelledPhoto], up: Up = PHOTOS_OWN_UP, params: ReaderParams = DEFAULT_PARAMS,
                known_count: bool = False) -> list[PhotoResult]:
    """Every photo read with ``params`` (a progress bar on a terminal): the one reading of a set that
    ``eval-vision`` and ``compare-vision`` both measure."""
    return list(progress(evaluate(folder, read_dice, photos, known_count, up, params), "photos", len(photos)))


def eval_command(
    folder: Path, failures: Path | None, splits: list[str] | None = None, calibration: bool = False,
    table: bool = False, out: Out = print, only: str | None = None, why: bool = False, raw_labels: bool = False,
    up: Up = PHOTOS_OWN_UP, tray_margin: float | None = None,
) -> int:
    """Evaluate a labelled photo folder; the last line is the overall figures (with ``table``, the
    ``table:`` line after them; with ``tray_margin``, the ``at the table:`` line).

    Photos the reader's nets were trained on (listed by digest beside the models) are left out:
    they would flatter the figures. With ``calibration`` the photos are read once with no face
    threshold, and the reliability of each confidence band and the figures at other thresholds
    are printed before the figures at the reader's own threshold. With ``table`` each photo is
    read as at the table, knowing how many dice it holds (its labelled count). ``only`` keeps the
    photos whose file names match that glob; ``raw_labels`` measures against the set's own labels,
    without the reviewed corrections (:mod:`vision.measure.label_corrections`). Where the photos have boxes, the ``ceiling:`` line
    (what the classifier alone reads on the labelled boxes, beside the pipeline) comes just before
    the overall line; with ``why``, the dice the pipeline lost that way, by cause, before the figures.
    ``up`` says where the camera's far side lies in the photos (degrees from the picture's top, or
    each photo's own: :func:`vision.measure.evaluation.photo_params`). With ``tray_margin`` only the
    photos with boxes are read, and each reading is cut to the dice inside its tray (the labelled
    dice's spread grown by that many die sizes, :mod:`vision.measure.at_the_table`) before ``table``
    cuts it to the count, as the companion reads at the table; every figure is of those readings.
    """
    measured = measured_photos(folder, splits, only, out, raw_labels, up=up)
    if tray_margin is not None:
        measured = with_boxes(measured, out)
    params = DEFAULT_PARAMS.keeping_every_face() if calibration else DEFAULT_PARAMS
    results = read_photos(folder, measured, up, params, table and tray_margin is None)
    if tray_margin is not None:
        results = [at_the_table(r, tray_margin, table, params) for r in results]
    if calibration:
        for row in reliability(results):
            out(row.line())
        for threshold in SWEEP:
            out(f"threshold {threshold:.2f}: {figures('sweep', [at_threshold(r, threshold) for r in results]).line()}")
        results = [at_threshold(r, photo_params(r.photo, up, DEFAULT_PARAMS).face_threshold) for r in results]
    for result in results:
        if failures is not None and not result.is_exact:
            image = load_image(folder / "images" / result.photo.file)
            label = " ".join(map(str, result.photo.values))
            note = f"label {label} | read {' '.join(map(str, result.reading.values))}"
            if result.is_silently_wrong:
                note = "SILENT " + note
            _write_png(failures / (Path(result.photo.file).stem + ".png"), annotate(image, result.reading, note))
    if why:
        lost = [d for r in results
                for d in why_lost(r, load_image(folder / "images" / r.photo.file), photo_params(r.photo, up, params))]
        for line in why_table(lost):
            out(line)
    limit = ceiling(results)
    for group in figures_by_group(results):
        if group.name == "overall" and limit is not None:
            out(limit.line())
        out(group.line() if group.name == "overall" else f"{group.line()} photos {group.photos} dice {group.dice}")
    if tray_margin is not None:
        out(TableFigures.of(r.table_outcome for r in results).line("at the table", "photos"))
    elif table:
        out(table_line(results))
    return 0


def adapt_command(folder: Path, first: int, splits: list[str] | None = None, only: str | None = None,
                  out: Out = print, raw_labels: bool = False, up: Up = PHOTOS_OWN_UP) -> int:
    """Play each source of the photos as a table: tune on its ``first`` photos, measure the rest;
    each line of the tuned reader follows the untuned reader's on the same photos, and the last is
    the tuned ``overall:`` line; ``up`` as for :func:`eval_command`."""
    sources = list(evaluate_tuned(folder, measured_photos(folder, splits, only, out, raw_labels, up=up), first, up=up))
    for source in sources:
        out(source.line())
        for tag, results in (("untuned ", source.untuned), ("", source.tuned)):
            group = figures(source.source or "(no source)", results)
            out(f"{tag}{group.line()} photos {group.photos} dice {group.dice}")
    for tag, kind in (("untuned ", "untuned_table"), ("", "tuned_table")):
        out(tag + table_line([r for source in sources for r in getattr(source, kind)]))
    for tag, kind in (("untuned ", "untuned"), ("", "tuned")):
        out(tag + figures("overall", [r for source in sources for r in getattr(source, kind)]).line())
    return 0


@dataclass(frozen=True)
class SyntheticFigures:
    kind: TrayKind
    trays: int
    exact: int
    invented: int  # dice reported where none was drawn (clutter, a side face or garbage read as a die)
    median_ms: float
    wrong: tuple[str, ...]  # one line per tray not read exactly
    threads: int  # threads OpenCV and the nets used while the trays were read
    counted: int = 0  # trays where as many dice were reported as were drawn
    dice: int = 0  # dice drawn in all
    dice_right: int = 0  # of them, read with their value where they lie
    candidates: int = 0  # places the detector handed the classifier, over all trays
    table: TableFigures = field(default_factory=lambda: TableFigures.of(()))  # the trays read as at the table

    def share(self, trays: int) -> float:
        """``trays`` as a percentage of the trays read."""
        return 100 * trays / max(self.trays, 1)

    @property
    def per_die(self) -> float:
        return 100 * self.dice_right / max(self.dice, 1)

    def line(self) -> str:
        """The scene's figures; no per-die share where no die was drawn (garbage): it would read 0.0%."""
        per_die = f"per-die {self.per_die:.1f}% " if self.dice else ""
        return (
            f"synthetic {self.kind.name}: {self.exact}/{self.trays} trays exact "
            f"({self.share(self.exact):.1f}%) invented {self.invented} "
            f"count {self.counted}/{self.trays} {per_die}"
            f"candidates {self.candidates / max(self.trays, 1):.1f} median-ms {self.median_ms:.1f} "
            f"threads {self.threads}"
        )

    def table_line(self) -> str:
        """The trays as the companion takes them at the table (:func:`_at_the_table`)."""
        return self.table.line(f"synthetic {self.kind.name} at the table", "trays")


def _on(die: Die, drawn: PlacedDie) -> bool:
    """Whether ``die`` was read within half a side of ``drawn``'s top face: that die, read."""
    return math.dist(die.centre, drawn.centre) <= drawn.side / 2


def _right_where_drawn(placed: tuple[PlacedDie, ...], dice: tuple[Die, ...]) -> int:
    """How many drawn dice have a die read with their value where they lie (:func:`_on`)."""
    return sum(any(d.value == drawn.value and _on(d, drawn) for d in dice) for drawn in placed)


def _invented(reading: DiceReading, placed: tuple[PlacedDie, ...]) -> int:
    """How many dice of ``reading`` lie on no drawn die."""
    return sum(not any(_on(die, drawn) for drawn in placed) for die in reading.dice)


def _is_exact(reading: DiceReading, placed: tuple[PlacedDie, ...]) -> bool:
    """Every drawn die's value read, no die unreadable, none invented."""
    return reading.values == tuple(sorted(d.value for d in placed)) and not reading.unreadable and not _invented(reading, placed)


def _at_the_table(reading: DiceReading, image: np.ndarray, placed: tuple[PlacedDie, ...], tray_margin: float,
                  params: ReaderParams) -> str:
    """How the companion fares with ``reading`` of ``image`` at the table: the dice inside the drawn
    dice's spread grown by ``tray_margin`` die sizes (the whole picture when none is drawn), the
    count known (a throw read short looked at again closer: :func:`vision.read.tray.taken_in`)."""
    tray = spread_tray([((x, y), side) for x, y, side in (d.box() for d in placed)], tray_margin, BENCH_SIZE)
    chosen = taken_in(tray, reading, len(placed), lambda look: read_dice(image, params, closer=look), params)
    return table_outcome(chosen, len(placed), _is_exact(chosen, placed))


def read_throws(kind: TrayKind, thrown: Iterable[Thrown], params: ReaderParams = DEFAULT_PARAMS,
                tray_margin: float = TRAY_MARGIN, up: float = 0.0) -> SyntheticFigures:
    """Read trays of one kind with ``params`` and count the exact ones, the right counts and dice, and
    invented dice; and how each reading fares at the table (:func:`_at_the_table`). The reader is
    told where a desk's webcam has its far side (``up``, as the trays were drawn) and that every
    other tray is seen from straight above."""
    params = replace(params, up=up if kind.desk else None)
    trays = exact = invented = counted = dice = dice_right = candidates = 0
    times, wrong, outcomes = [], [], []
    for tray, (image, placed) in enumerate(thrown):
        started = time.perf_counter()
        reading = read_dice(image, params)
        times.append((time.perf_counter() - started) * 1000)
        trays += 1
        candidates += len(candidates_in(image, params))
        invented += _invented(reading, placed)
        counted += len(reading.dice) == len(placed)
        dice += len(placed)
        dice_right += _right_where_drawn(placed, reading.dice)
        outcomes.append(_at_the_table(reading, image, placed, tray_margin, params))
        if _is_exact(reading, placed):
            exact += 1
        else:
            values = " ".join(str(v) for v in sorted(d.value for d in placed))
            wrong.append(f"tray {tray}: {values} read as {reading.summary()}")
    return SyntheticFigures(kind, trays, exact, invented, statistics.median(times) if times else 0.0, tuple(wrong),
                            cv2.getNumThreads(), counted, dice, dice_right, candidates, TableFigures.of(outcomes))


def synthetic_accuracy(kind: TrayKind, trays: int, seed: int, up: float = 0.0,
                       tray_margin: float = TRAY_MARGIN) -> SyntheticFigures:
    """Render ``trays`` random trays of one kind (a desk's webcam with its far side ``up``) and read
    them told where that is (:func:`read_throws`)."""
    thrown = progress(throws(kind, trays, seed, up), f"{kind.name} trays", trays)
    return read_throws(kind, thrown, DEFAULT_PARAMS, tray_margin, up)


def bench_vision_command(trays: int, seed: int, threads: int = 1, up: float = 0.0, out: Out = print,
                         tray_margin: float = TRAY_MARGIN) -> int:
    """Synthetic-tray accuracy and speed for each kind of tray in TRAY_KINDS, OpenCV and the nets on
    ``threads`` threads (one, as the Pi's reader shares its cores with the loop and the camera); ``up`` is where
    the desk webcam's far side lies, and the reader is told so. Each kind's line is followed by its
    ``at the table:`` line (the tray: the drawn dice's spread grown by ``tray_margin`` die sizes)."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        for number, kind in enumerate(TRAY_KINDS):
            figures = synthetic_accuracy(kind, trays, seed + number, up, tray_margin=tray_margin)
            out(figures.line())
            out(figures.table_line())
    finally:
        cv2.setNumThreads(before)
    return 0


def _write_png(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
