"""Command-line front ends of the dice reader: read one image, evaluate a photo set, benchmark."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.annotate import annotate
from vision.evaluation import evaluate, figures_by_group, load_image, read_manifest, trained_on, unseen
from vision.params import DEFAULT_PARAMS
from vision.reader import read_dice
from vision.reading import DiceReading
from vision.synthetic import render_tray

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


def read_command(image_path: Path, out_path: Path | None, out: Out = print) -> int:
    """Print what is read in one image and optionally write the annotated picture."""
    image = load_image(image_path)
    reading = read_dice(image)
    for line in describe(reading):
        out(line)
    if out_path is not None:
        _write_png(out_path, annotate(image, reading))
        out(f"annotated picture: {out_path}")
    return 0


def eval_command(folder: Path, failures: Path | None, out: Out = print) -> int:
    """Evaluate a labelled photo folder; the last line is the overall figures.

    Photos the reader's nets were trained on (listed by digest beside the models) are left out:
    they would flatter the figures.
    """
    photos = read_manifest(folder)
    measured = unseen(folder, photos, trained_on(DEFAULT_PARAMS.trained_on))
    if len(measured) < len(photos):
        out(f"left out {len(photos) - len(measured)} of {len(photos)} photos: the reader was trained on them")
    results = []
    for result in evaluate(folder, read_dice, measured):
        results.append(result)
        if failures is not None and not result.is_exact:
            image = load_image(folder / "images" / result.photo.file)
            note = f"label {' '.join(map(str, result.photo.values))} | read {' '.join(map(str, result.reading.values))}"
            _write_png(failures / (Path(result.photo.file).stem + ".png"), annotate(image, result.reading, note))
    for figures in figures_by_group(results):
        out(figures.line() if figures.name == "overall" else f"{figures.line()} photos {figures.photos} dice {figures.dice}")
    return 0


@dataclass(frozen=True)
class SyntheticFigures:
    dice_per_tray: int
    trays: int
    exact: int
    median_ms: float

    def line(self) -> str:
        return (
            f"synthetic {self.dice_per_tray} dice: {self.exact}/{self.trays} trays exact "
            f"({100 * self.exact / max(self.trays, 1):.1f}%) median-ms {self.median_ms:.1f}"
        )


def synthetic_accuracy(dice_per_tray: int, trays: int, seed: int) -> SyntheticFigures:
    """Render ``trays`` random trays and count those read exactly."""
    rng = np.random.default_rng(seed)
    exact, times = 0, []
    for _ in range(trays):
        values = tuple(sorted(int(v) for v in rng.integers(1, 7, dice_per_tray)))
        image, _ = render_tray(values, rng)
        started = time.perf_counter()
        reading = read_dice(image)
        times.append((time.perf_counter() - started) * 1000)
        exact += reading.values == values and not reading.unreadable
    return SyntheticFigures(dice_per_tray, trays, exact, statistics.median(times) if times else 0.0)


def bench_vision_command(trays: int, seed: int, out: Out = print) -> int:
    """Synthetic-tray accuracy for trays of 4 and of 5 dice."""
    for count in (4, 5):
        out(synthetic_accuracy(count, trays, seed + count).line())
    return 0


def _write_png(path: Path, image: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
