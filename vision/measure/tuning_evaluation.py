"""Measure a table's own layer without a table: each source of photos plays one table.

For each source (the manifest's ``source_repo``: one photographer's dice, tray and light) the
first K photos in file-name order are that table's confirmed throws, their labels the players'
corrections; the layer is tuned on them alone (:mod:`vision.read.table_tuning`) and the rest of that
source is read twice, with the shipped layer and with the tuned one (when it proved better on the
held-out throws), so the two sets of figures are on the same photos.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.read.classify import NOT_A_DIE
from vision.measure.evaluation import (
    PHOTOS_OWN_UP,
    UNCLEAR,
    DatasetError,
    LabelledPhoto,
    PhotoResult,
    Up,
    load_image,
    match_by_location,
    photo_params,
)
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import crops_of, read_dice, taken
from vision.read.reading import DiceReading
from vision.read.table_tuning import Example, TableHead, Watch, tune


def examples_from_photo(
    photo: LabelledPhoto, image, reading: DiceReading, throw: int, params: ReaderParams = DEFAULT_PARAMS
) -> list[Example]:
    """What the players of a throw confirm: each die the reader found (or doubted) at a labelled
    die, with its labelled face, and each it found where no die is labelled, as no die."""
    found = reading.dice + reading.doubtful
    matched = match_by_location(photo.boxes, found)
    label_of = {d: photo.boxes[b][4] - 1 for b, d in matched.items() if photo.boxes[b][4] != UNCLEAR}
    unclear = {d for b, d in matched.items() if photo.boxes[b][4] == UNCLEAR}
    kept = [d for d in range(len(found)) if d not in unclear]
    crops = crops_of(image, [found[d] for d in kept], params)
    return [Example(crop, label_of.get(d, NOT_A_DIE), throw) for d, crop in zip(kept, crops)]


@dataclass(frozen=True)
class SourceTuning:
    """One source played as a table: what was tuned on it and how the rest of it was read."""

    source: str
    tuned_on: int  # photos
    examples: int
    head: TableHead | None  # None: too few throws to check a layer
    untuned: list[PhotoResult]
    tuned: list[PhotoResult]  # read with the head where it improves, else as untuned
    untuned_table: list[PhotoResult]
    tuned_table: list[PhotoResult]
    watch: Watch | None = None  # how the layer in use fared in play, if one was


    def line(self) -> str:
        name = self.source or "(no source)"
        if self.head is None:
            verdict = "too few throws to check a tuned layer: not in use"
        else:
            few = "" if self.head.enough_of_every_face else f", {self.head.fewest_of_a_face} of a face too few"
            verdict = (f"held out by throw: tuned {100 * self.head.held_out_right:.1f}% shipped "
                       f"{100 * self.head.shipped_right:.1f}% (better on {self.head.gains}, worse on {self.head.losses}"
                       f"{few}): {'in use' if self.head.improves else 'not in use'}")
        if self.watch is not None and self.watch.dropped:
            verdict += f", dropped in play ({self.watch.line()})"
        return (f"adapt {name}: tuned on the first {self.tuned_on} photos ({self.examples} examples); {verdict}; "
                f"measured on {len(self.untuned)} photos")


def _read(folder: Path, photo: LabelledPhoto, head: TableHead | None, params: ReaderParams) -> tuple[PhotoResult, PhotoResult]:
    image = load_image(folder / "images" / photo.file)
    started = time.perf_counter()
    reading = read_dice(image, params, head=head)
    elapsed = (time.perf_counter() - started) * 1000
    chosen = taken(reading, len(photo.values), lambda look: read_dice(image, params, head=head, closer=look), params)
    with_count = (time.perf_counter() - started) * 1000  # a throw read short was read again
    return PhotoResult(photo, reading, elapsed), PhotoResult(photo, chosen, with_count)


def evaluate_tuned(
    folder: Path, photos: list[LabelledPhoto], first: int, params: ReaderParams = DEFAULT_PARAMS, up: Up = PHOTOS_OWN_UP
) -> Iterator[SourceTuning]:
    """For each source among ``photos``: tune on its ``first`` photos in file-name order, read the
    rest untuned and tuned; each photo read told where its camera's far side lies (``up``,
    :func:`vision.measure.evaluation.photo_params`)."""
    if any(not photo.boxes for photo in photos):
        raise DatasetError(f"{folder}: tuning needs every die's box (boxes.csv) to know which candidate is which die")
    for source in sorted({photo.source for photo in photos}):
        mine = sorted((p for p in photos if p.source == source), key=lambda p: p.file)
        examples: list[Example] = []
        for throw, photo in enumerate(mine[:first]):
            image = load_image(folder / "images" / photo.file)
            told = photo_params(photo, up, params)
            examples += examples_from_photo(photo, image, read_dice(image, told), throw, told)
        head = tune(examples, params)
        used = head if head is not None and head.improves else None
        untuned = [_read(folder, photo, None, photo_params(photo, up, params)) for photo in mine[first:]]
        tuned, watch = (untuned, None) if used is None else _watched(folder, mine[first:], untuned, used, params, up)
        yield SourceTuning(source, len(mine[:first]), len(examples), head,
                           [plain for plain, _ in untuned], [plain for plain, _ in tuned],
                           [table for _, table in untuned], [table for _, table in tuned], watch)


def _right_dice(result: PhotoResult) -> np.ndarray:
    """For each clearly labelled die of the photo, whether the reading has it right (by location)."""
    return np.array([b in result.right_boxes for b, box in enumerate(result.photo.boxes) if box[4] != UNCLEAR], bool)


def _watched(
    folder: Path, photos: list[LabelledPhoto], untuned: list[tuple[PhotoResult, PhotoResult]], head: TableHead,
    params: ReaderParams, up: Up,
) -> tuple[list[tuple[PhotoResult, PhotoResult]], Watch]:
    """The photos read with ``head`` as at a table that watches it: each photo's labels are the
    players' corrections, and once the layer has cost more corrections than the shipped one would
    have, the rest are read with the shipped layer (:class:`vision.read.table_tuning.Watch`)."""
    watch, read = Watch(), []
    for photo, shipped in zip(photos, untuned):
        if watch.dropped:
            read.append(shipped)
            continue
        mine = _read(folder, photo, head, photo_params(photo, up, params))
        watch.record(_right_dice(mine[1]), _right_dice(shipped[1]))
        read.append(mine)
    return read, watch
