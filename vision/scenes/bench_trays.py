"""The synthetic trays ``bench-vision`` throws, one kind of scene each, drawn from a seed: the
benchmark reads them, ``compare-vision`` reads the same drawings with each pair of nets, and
training may cut crops from trays of the same kinds drawn from seeds of its own."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from vision.scenes.synthetic import PlacedDie, render_garbage, render_tray


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


Thrown = tuple[np.ndarray, tuple[PlacedDie, ...]]  # a tray's picture and the dice drawn in it


def throw(kind: TrayKind, rng: np.random.Generator, up: float) -> Thrown:
    """One benchmark tray of ``kind``: the picture and the dice drawn in it."""
    count = int(rng.integers(kind.dice, kind.most + 1)) if kind.most > kind.dice else kind.dice
    values = tuple(sorted(int(v) for v in rng.integers(1, 7, count)))
    if kind.garbage:
        return render_garbage(rng, BENCH_SIZE), ()
    lean = float(rng.uniform(*DESK_LEAN)) if kind.desk else 0.0
    translucent = kind.translucent > 0 and bool(rng.random() < kind.translucent)
    return render_tray(values, rng, BENCH_SIZE, touching=kind.touching, clutter=kind.clutter, desk=kind.desk,
                       lean=lean, far_side=up, translucent=translucent)


def throws(kind: TrayKind, trays: int, seed: int, up: float = 0.0) -> Iterator[Thrown]:
    """``trays`` random trays of one kind from ``seed`` (a desk's webcam with its far side ``up``), drawn
    one at a time: drawing costs more than reading, so nets compared read the same drawings."""
    rng = np.random.default_rng(seed)
    for _ in range(trays):
        yield throw(kind, rng, up)
