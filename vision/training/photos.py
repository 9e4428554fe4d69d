"""Labelled scenes for training: real photos' per-die boxes (training parts only) and synthetic trays."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.measure.evaluation import LabelledPhoto, load_image, read_manifest
from vision.scenes.clutter import CLUTTER
from vision.scenes.synthetic import render_tray, tray_far_side


@dataclass(frozen=True)
class Scene:
    """An image with its dice: (centre x, centre y, size, value) each, size being the bounding box's longer side.

    A value of 0 marks a die whose face is unclear (cut off, hidden): a die for the detector, no face for the classifier.
    ``up`` is where the camera's far side lies, in degrees counter-clockwise from the picture's top
    (``ReaderParams.up``): the classifier learns each die turned so that it is up. None for a scene
    seen straight from above, where a die may be turned any way.
    """

    name: str
    image: np.ndarray
    dice: tuple[tuple[float, float, float, int], ...]
    up: float | None = 0.0


NEAR_A_DIE = 0.45  # die sizes: a point this close to a die's centre shows that die


def near_a_die(scene: Scene, point: tuple[float, float]) -> bool:
    """Whether ``point`` is within NEAR_A_DIE sizes of a die's centre: a crop there shows a whole die."""
    return any(np.hypot(point[0] - x, point[1] - y) < NEAR_A_DIE * side for x, y, side, _ in scene.dice)


def is_training_photo(file: str) -> bool:
    """A fixed half of the dev photos, by a hash of the name; the other half is only ever used to measure."""
    return hashlib.sha256(file.encode()).digest()[0] % 2 == 0


def labels_only_one_face(file: str) -> bool:
    """Rune55's oblique white-paper photos, where a box covers only the face turned most towards the camera.

    That face is sometimes a side face, so these boxes would teach the reader to read side faces
    and to see a face as a whole die: they are left out of training (``train-photos/README.md``).
    Every other Rune55 photo is a fixed-camera frame (``00000``-``00197``) or a tray (``PXL_``).
    """
    stem = file.removeprefix("rune55_")
    return file.startswith("rune55_") and not (stem[:5].isdigit() or stem.startswith("PXL_"))


def _scenes(folder: Path, keep: Callable[[LabelledPhoto], bool]) -> list[Scene]:
    """The photos of a folder that ``keep`` accepts, with their boxes as dice."""
    return [
        Scene(photo.file, load_image(folder / "images" / photo.file),
              tuple(((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0), value) for x0, y0, x1, y1, value in photo.boxes),
              0.0 if photo.up is None else photo.up)
        for photo in read_manifest(folder)
        if photo.boxes and keep(photo)
    ]


def training_photos(folder: Path) -> list[Scene]:
    """The training half of the dev photos (``is_training_photo``)."""
    return _scenes(folder, lambda photo: is_training_photo(photo.file))


def train_split_photos(folder: Path) -> list[Scene]:
    """The ``train`` split of a training photo folder, less the boxes of one face only (``labels_only_one_face``)."""
    return _scenes(folder, lambda photo: photo.split == "train" and not labels_only_one_face(photo.file))


def die_crop_photos(folder: Path) -> list[Scene]:
    """Every photo of a folder of single-die crops (``train-photos-2``: each box the whole picture),
    for the classifier only: a picture one die wide shows a detector nothing of a table."""
    return _scenes(folder, lambda photo: True)


def synthetic_scenes(count: int, rng: np.random.Generator) -> list[Scene]:
    """Rendered trays of 0 to 25 dice of 16 to 300 px, sizes drawn evenly on a log scale.

    A third have the dice pressed together, a third are seen obliquely (side faces with pips
    showing), half have clutter beside the dice (labels, keys, coins, cables, cards...), one in
    five lies on a desk beside a laptop's keyboard and a phone, seen as a webcam looking forward
    sees it, and one in six has translucent dice.
    """
    scenes = []
    for index in range(count):
        n = int(rng.choice([0, 1, 2, 3, 4, 4, 5, 5, 6, 8, 12, 18, 25]))
        side = float(np.exp(rng.uniform(np.log(16), np.log(300 if n <= 2 else 120 if n <= 6 else 60))))
        size = (640, 480) if rng.random() < 0.7 else (640, 640)
        values = [int(v) for v in rng.integers(1, 7, n)]
        desk = rng.random() < 0.2
        leaning = desk or rng.random() < 0.33
        try:
            image, placed = render_tray(
                values, rng, size=size, side_range=(side, side * 1.15), touching=rng.random() < 0.33,
                lean=float(rng.uniform(0.1, 0.45)) if leaning else 0.0,
                far_side=float(rng.normal(0, 12)) if desk else None,
                clutter=int(rng.integers(1, 9)) if rng.random() < 0.5 else 0, clutter_kinds=tuple(CLUTTER), desk=desk,
                translucent=rng.random() < 0.17,
            )
        except ValueError:
            continue
        scenes.append(Scene(f"synthetic-{index}", image, tuple((*d.box(), d.value) for d in placed),
                            tray_far_side(placed)))
    return scenes
