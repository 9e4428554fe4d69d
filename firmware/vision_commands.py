"""Command-line front ends of the dice reader: read one image, evaluate a photo set, benchmark."""

from __future__ import annotations

import fnmatch
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from firmware.bench.progress import progress
from vision.measure.annotate import annotate
from vision.measure.ceiling import ceiling, why_lost, why_table
from vision.measure.evaluation import (
    DatasetError,
    LabelledPhoto,
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
    trained_on,
    unseen,
)
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import candidates_in, read_dice
from vision.read.reading import DiceReading, Die
from vision.scenes.synthetic import PlacedDie, render_garbage, render_tray
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


def read_command(image_path: Path, out_path: Path | None, out: Out = print, up: float = 0.0) -> int:
    """Print what is read in one image, told where the camera's far side lies (``up``), and
    optionally write the annotated picture (a PNG: checked before anything is read, so a wrong
    name costs nothing)."""
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


def _measured(folder: Path, splits: list[str] | None, only: str | None, out: Out,
              raw_labels: bool = False) -> list[LabelledPhoto]:
    """The photos of ``folder`` to measure: of the splits asked for, whose names match ``only``,
    less those the reader's nets were trained on (they would flatter the figures); their labels
    with the reviewed corrections, or with ``raw_labels`` as the set has them."""
    photos = [p for p in read_manifest(folder, splits, corrected=not raw_labels)
              if only is None or fnmatch.fnmatchcase(p.file, only)]
    if not photos:
        raise DatasetError(f"{folder}: no photo's file name matches {only!r}")
    measured = unseen(folder, photos, trained_on(DEFAULT_PARAMS.trained_on))
    if len(measured) < len(photos):
        out(f"left out {len(photos) - len(measured)} of {len(photos)} photos: the reader was trained on them")
    return measured


def eval_command(
    folder: Path, failures: Path | None, splits: list[str] | None = None, calibration: bool = False,
    table: bool = False, out: Out = print, only: str | None = None, why: bool = False, raw_labels: bool = False,
    up: Up = 0.0,
) -> int:
    """Evaluate a labelled photo folder; the last line is the overall figures (with ``table``, the
    ``table:`` line after them).

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
    each photo's own: :func:`vision.measure.evaluation.photo_params`).
    """
    measured = _measured(folder, splits, only, out, raw_labels)
    params = replace(DEFAULT_PARAMS, min_value_probability=0.0) if calibration else DEFAULT_PARAMS
    results = list(progress(evaluate(folder, read_dice, measured, table, up, params), "photos", len(measured)))
    if calibration:
        for row in reliability(results):
            out(row.line())
        for threshold in SWEEP:
            out(f"threshold {threshold:.2f}: {figures('sweep', [at_threshold(r, threshold) for r in results]).line()}")
        results = [at_threshold(r, DEFAULT_PARAMS.min_value_probability) for r in results]
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
    if table:
        out(table_line(results))
    return 0


def adapt_command(folder: Path, first: int, splits: list[str] | None = None, only: str | None = None,
                  out: Out = print, raw_labels: bool = False, up: Up = 0.0) -> int:
    """Play each source of the photos as a table: tune on its ``first`` photos, measure the rest;
    each line of the tuned reader follows the untuned reader's on the same photos, and the last is
    the tuned ``overall:`` line; ``up`` as for :func:`eval_command`."""
    sources = list(evaluate_tuned(folder, _measured(folder, splits, only, out, raw_labels), first, up=up))
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
class TrayKind:
    """A kind of synthetic tray the benchmark throws: how many dice, and how they lie."""

    name: str
    dice: int
    most: int = 0  # with more than ``dice``: each tray throws ``dice`` to ``most`` of them
    touching: bool = False
    clutter: int = 0
    garbage: bool = False  # no tray at all: a picture that once fooled the reader (exact when no die is read)
    desk: bool = False  # beside a laptop's keyboard, a phone and cables, seen by a webcam looking forward
    translucent: float = 0.0  # share of trays whose dice let the table show through


TRAY_KINDS = (
    TrayKind("4 dice", 4),
    TrayKind("5 dice", 5),
    TrayKind("touching", 5, touching=True),
    TrayKind("clutter", 4, clutter=6),
    TrayKind("garbage", 0, garbage=True),
    TrayKind("desk", 4, most=5, desk=True),
    TrayKind("crowd", 20, most=30, touching=True, translucent=0.3),
)
BENCH_SIZE = (640, 640)  # px of every benchmark tray
DESK_LEAN = (0.12, 0.35)  # die sides: how far a desk webcam sees a die's top face from its bottom


@dataclass(frozen=True)
class SyntheticFigures:
    kind: TrayKind
    trays: int
    exact: int
    invented: int  # dice reported where none was drawn (clutter, a side face or garbage read as a die)
    median_ms: float
    wrong: tuple[str, ...]  # one line per tray not read exactly
    threads: int  # OpenCV's threads while the trays were read
    counted: int = 0  # trays where as many dice were reported as were drawn
    dice: int = 0  # dice drawn in all
    dice_right: int = 0  # of them, read with their value where they lie
    candidates: int = 0  # places the detector handed the classifier, over all trays

    def line(self) -> str:
        return (
            f"synthetic {self.kind.name}: {self.exact}/{self.trays} trays exact "
            f"({100 * self.exact / max(self.trays, 1):.1f}%) invented {self.invented} "
            f"count {self.counted}/{self.trays} per-die {100 * self.dice_right / max(self.dice, 1):.1f}% "
            f"candidates {self.candidates / max(self.trays, 1):.1f} median-ms {self.median_ms:.1f} "
            f"threads {self.threads}"
        )


def _throw(kind: TrayKind, rng: np.random.Generator, up: float) -> tuple[np.ndarray, tuple[PlacedDie, ...]]:
    """One benchmark tray of ``kind``: the picture and the dice drawn in it."""
    count = int(rng.integers(kind.dice, kind.most + 1)) if kind.most > kind.dice else kind.dice
    values = tuple(sorted(int(v) for v in rng.integers(1, 7, count)))
    if kind.garbage:
        return render_garbage(rng, BENCH_SIZE), ()
    lean = float(rng.uniform(*DESK_LEAN)) if kind.desk else 0.0
    translucent = kind.translucent > 0 and bool(rng.random() < kind.translucent)
    return render_tray(values, rng, BENCH_SIZE, touching=kind.touching, clutter=kind.clutter, desk=kind.desk,
                       lean=lean, far_side=up, translucent=translucent)


def _on(die: Die, drawn: PlacedDie) -> bool:
    """Whether ``die`` was read within half a side of ``drawn``'s top face: that die, read."""
    return math.dist(die.centre, drawn.centre) <= drawn.side / 2


def _right_where_drawn(placed: tuple[PlacedDie, ...], dice: tuple[Die, ...]) -> int:
    """How many drawn dice have a die read with their value where they lie (:func:`_on`)."""
    return sum(any(d.value == drawn.value and _on(d, drawn) for d in dice) for drawn in placed)


def synthetic_accuracy(kind: TrayKind, trays: int, seed: int, up: float = 0.0) -> SyntheticFigures:
    """Render ``trays`` random trays of one kind (a desk's webcam with its far side ``up``), read them
    told where that is, and count the exact ones, the right counts and dice, and invented dice."""
    rng = np.random.default_rng(seed)
    params = replace(DEFAULT_PARAMS, up=up)
    exact = invented = counted = dice = dice_right = candidates = 0
    times, wrong = [], []
    for tray in progress(range(trays), f"{kind.name} trays"):
        image, placed = _throw(kind, rng, up)
        values = tuple(sorted(d.value for d in placed))
        started = time.perf_counter()
        reading = read_dice(image, params)
        times.append((time.perf_counter() - started) * 1000)
        candidates += len(candidates_in(image, params))
        extra = sum(not any(_on(die, drawn) for drawn in placed) for die in reading.dice)
        invented += extra
        counted += len(reading.dice) == len(placed)
        dice += len(placed)
        dice_right += _right_where_drawn(placed, reading.dice)
        if reading.values == values and not reading.unreadable and extra == 0:
            exact += 1
        else:
            wrong.append(f"tray {tray}: {' '.join(map(str, values))} read as {reading.summary()}")
    return SyntheticFigures(kind, trays, exact, invented, statistics.median(times) if times else 0.0, tuple(wrong),
                            cv2.getNumThreads(), counted, dice, dice_right, candidates)


def bench_vision_command(trays: int, seed: int, threads: int = 1, up: float = 0.0, out: Out = print) -> int:
    """Synthetic-tray accuracy and speed for each kind of tray in TRAY_KINDS, OpenCV on ``threads``
    threads (one, as the Pi's reader shares its cores with the loop and the camera); ``up`` is where
    the desk webcam's far side lies, and the reader is told so."""
    before = cv2.getNumThreads()
    cv2.setNumThreads(threads)
    try:
        for number, kind in enumerate(TRAY_KINDS):
            out(synthetic_accuracy(kind, trays, seed + number, up).line())
    finally:
        cv2.setNumThreads(before)
    return 0


def _write_png(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
