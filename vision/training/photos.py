"""Labelled scenes for training: the dev photos' per-die boxes (training half only) and synthetic trays."""

from __future__ import annotations

import csv
import hashlib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision.evaluation import load_image
from vision.synthetic import render_tray


@dataclass(frozen=True)
class Scene:
    """An image with its dice: (centre x, centre y, size, value) each, size being the bounding box's longer side."""

    name: str
    image: np.ndarray
    dice: tuple[tuple[float, float, float, int], ...]


NEAR_A_DIE = 0.45  # die sizes: a point this close to a die's centre shows that die


def near_a_die(scene: Scene, point: tuple[float, float]) -> bool:
    """Whether ``point`` is within NEAR_A_DIE sizes of a die's centre: a crop there shows a whole die."""
    return any(np.hypot(point[0] - x, point[1] - y) < NEAR_A_DIE * side for x, y, side, _ in scene.dice)


def is_training_photo(file: str) -> bool:
    """A fixed half of the photos, by a hash of the name; the other half is only ever used to measure."""
    return hashlib.sha256(file.encode()).digest()[0] % 2 == 0


def training_photos(folder: Path) -> list[Scene]:
    """The training half of a photo folder with ``boxes.csv`` (file, x0, y0, x1, y1, value)."""
    boxes: dict[str, list[tuple[float, float, float, int]]] = defaultdict(list)
    with (folder / "boxes.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            x0, y0, x1, y1 = (float(row[k]) for k in ("x0", "y0", "x1", "y1"))
            boxes[row["file"]].append(((x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0), int(row["value"])))
    return [
        Scene(file, load_image(folder / "images" / file), tuple(dice))
        for file, dice in sorted(boxes.items())
        if is_training_photo(file)
    ]


def synthetic_scenes(count: int, rng: np.random.Generator) -> list[Scene]:
    """Rendered trays of 0 to 25 dice of 16 to 300 px, sizes drawn evenly on a log scale."""
    scenes = []
    for index in range(count):
        n = int(rng.choice([0, 1, 2, 3, 4, 4, 5, 5, 6, 8, 12, 18, 25]))
        side = float(np.exp(rng.uniform(np.log(16), np.log(300 if n <= 2 else 120 if n <= 6 else 60))))
        size = (640, 480) if rng.random() < 0.7 else (640, 640)
        values = [int(v) for v in rng.integers(1, 7, n)]
        try:
            image, placed = render_tray(values, rng, size=size, side_range=(side, side * 1.15))
        except ValueError:
            continue
        dice = []
        for d in placed:
            turn = np.radians(d.angle)
            box = d.side * (abs(np.cos(turn)) + abs(np.sin(turn)))
            dice.append((d.centre[0], d.centre[1], float(box), d.value))
        scenes.append(Scene(f"synthetic-{index}", image, tuple(dice)))
    return scenes
