"""Measure the reader against labelled photos: accuracy per die, per photo, dice count, and speed."""

from __future__ import annotations

import csv
import hashlib
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.reading import DiceReading

Reader = Callable[[np.ndarray], DiceReading]


class DatasetError(ValueError):
    """A photo folder that cannot be evaluated (no manifest, bad rows, unreadable images)."""


@dataclass(frozen=True)
class LabelledPhoto:
    file: str
    values: tuple[int, ...]

    @property
    def group(self) -> str:
        """The file-name prefix before the first ``_`` (the photo's source)."""
        return self.file.split("_", 1)[0]


@dataclass(frozen=True)
class PhotoResult:
    photo: LabelledPhoto
    reading: DiceReading
    milliseconds: float

    @property
    def dice_right(self) -> int:
        """Read values matched to labelled values as multisets."""
        return sum((Counter(self.reading.values) & Counter(self.photo.values)).values())

    @property
    def is_exact(self) -> bool:
        return self.reading.values == self.photo.values

    @property
    def count_is_right(self) -> bool:
        return len(self.reading.dice) == len(self.photo.values)


@dataclass(frozen=True)
class Figures:
    """Accuracy and speed over a set of photos, as percentages and milliseconds."""

    name: str
    photos: int
    dice: int
    per_die: float
    per_photo: float
    count: float
    median_ms: float

    def line(self) -> str:
        return (
            f"{self.name}: per-die {self.per_die:.1f}% per-photo {self.per_photo:.1f}% "
            f"count {self.count:.1f}% median-ms {self.median_ms:.1f}"
        )


def read_manifest(folder: Path) -> list[LabelledPhoto]:
    """The photos listed in ``folder/manifest.csv`` (columns ``file`` and ``values``; others ignored)."""
    manifest = folder / "manifest.csv"
    if not manifest.is_file():
        raise DatasetError(f"{manifest} not found: a photo folder needs manifest.csv and images/")
    photos = []
    with manifest.open(newline="") as handle:
        reader = csv.DictReader(handle)
        if not reader.fieldnames or not {"file", "values"} <= set(reader.fieldnames):
            raise DatasetError(f"{manifest} needs the columns 'file' and 'values'")
        for line, row in enumerate(reader, start=2):
            try:
                values = tuple(sorted(int(v) for v in row["values"].split()))
            except ValueError:
                raise DatasetError(f"{manifest} line {line}: values must be numbers, got {row['values']!r}") from None
            if not all(1 <= v <= 6 for v in values):
                raise DatasetError(f"{manifest} line {line}: values must be 1 to 6, got {row['values']!r}")
            photos.append(LabelledPhoto(row["file"], values))
    return photos


def load_image(path: Path) -> np.ndarray:
    """A BGR image from disk, or a DatasetError naming the file and what is wrong with it."""
    if not path.is_file():
        raise DatasetError(f"no image file at {path}")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise DatasetError(f"cannot decode {path} as an image (PNG, JPEG, BMP...)")
    return image


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


def evaluate(folder: Path, read: Reader, photos: Iterable[LabelledPhoto] | None = None) -> Iterator[PhotoResult]:
    """Read every photo (decoding is not timed) and yield what was read against the label."""
    for photo in read_manifest(folder) if photos is None else photos:
        image = load_image(folder / "images" / photo.file)
        started = time.perf_counter()
        reading = read(image)
        elapsed = (time.perf_counter() - started) * 1000
        yield PhotoResult(photo, reading, elapsed)


def figures(name: str, results: list[PhotoResult]) -> Figures:
    """Summarise results: dice right over all labelled dice, exact photos, right counts, median time."""
    dice = sum(len(r.photo.values) for r in results)
    photos = len(results)
    return Figures(
        name=name,
        photos=photos,
        dice=dice,
        per_die=100 * sum(r.dice_right for r in results) / max(dice, 1),
        per_photo=100 * sum(r.is_exact for r in results) / max(photos, 1),
        count=100 * sum(r.count_is_right for r in results) / max(photos, 1),
        median_ms=statistics.median(r.milliseconds for r in results) if results else 0.0,
    )


def figures_by_group(results: list[PhotoResult]) -> list[Figures]:
    """Figures per file-name prefix, then ``overall`` last."""
    groups = sorted({r.photo.group for r in results})
    by_group = [figures(g, [r for r in results if r.photo.group == g]) for g in groups]
    return by_group + [figures("overall", results)]
