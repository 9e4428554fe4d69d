"""A table's own last layer for the classifier, fitted on the dice that table's players confirmed.

At a table the reader sees one set of dice, one tray and one light all evening, where the shipped
nets had to guess at dice they never saw. From crops of the dice the players confirmed (each with
the face it showed, or "no die" for what the reader took for a die and was not), a new last layer
is fitted in numpy on the shipped classifier's features, pulled towards the shipped layer so that
a few examples cannot undo what thousands taught it. It is used only when, fitted without them, it
reads the table's own held-out examples better than the shipped layer does (checked by throws, each
time it is refitted). The shipped nets are never changed.
"""

from __future__ import annotations

import io
import math
import tokenize
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.read.classify import CLASSES, NOT_A_DIE, logits_and_features, mirror_images, softmax
from vision.read.params import ReaderParams

FOLDS = 4  # the examples are split by throw into this many parts; each is held out once
# A layer is used only once every face has this many confirmed examples: with fewer, the quarter of
# the throws held out holds two or three of a face, and the check cannot see that face's misreads.
MIN_PER_FACE = 10
SIGN_TEST_LEVEL = 0.01  # -: the chance that a layer no better than the shipped one passes the check by luck
PULL = 0.02  # -: how strongly the fitted layer is held to the shipped one (L2, per example)
STEPS = 300  # gradient steps of a fit
STEP_SIZE = 0.5  # -


# What reading a damaged .npz raises: MemoryError from a header claiming more items than could be
# held, and SyntaxError or tokenize's TokenError from a flipped bit in a header numpy parses as Python.
NPZ_DAMAGE = (OSError, KeyError, ValueError, TypeError, AttributeError, EOFError, MemoryError, SyntaxError,
              tokenize.TokenError, zipfile.BadZipFile)


def check_unpacked(data: bytes, limit: int) -> None:
    """ValueError when the members of the .npz ``data`` would unpack to more than ``limit`` bytes (a zip bomb)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if sum(member.file_size for member in archive.infolist()) > limit:
            raise ValueError(f"unpacks to more than {limit} bytes")


@dataclass(frozen=True)
class Example:
    """A confirmed die (or a thing that is no die) as the reader cut it: its crop, its class (face
    value - 1, or NOT_A_DIE) and the throw it came from (examples of one throw are held out together)."""

    crop: np.ndarray  # uint8 BGR (crop_px, crop_px, 3)
    label: int
    throw: int


@dataclass(frozen=True)
class TableHead:
    """A last layer fitted on one table's dice, with how it and the shipped layer read that table's held-out examples."""

    weights: np.ndarray  # (CLASSES, the classifier's features)
    bias: np.ndarray  # (CLASSES,)
    examples: int  # examples it was fitted on
    held_out_right: float  # share of held-out examples read right by layers fitted without them
    shipped_right: float  # the shipped layer's share on the same examples
    gains: int = 0  # held-out examples the tuned layers read right and the shipped one did not
    losses: int = 0  # and the other way round
    fewest_of_a_face: int = 0  # confirmed examples of the face that has the fewest

    @property
    def enough_of_every_face(self) -> bool:
        return self.fewest_of_a_face >= MIN_PER_FACE

    @property
    def improves(self) -> bool:
        """Whether it read the held-out examples clearly better than the shipped layer, with enough
        examples of every face to tell: only then is it used. Clearly: an exact one-sided sign test
        over the examples where the two differ, at SIGN_TEST_LEVEL (four gains and no loss, which the
        check once took as proof, happen by luck one time in sixteen; it now takes seven)."""
        return self.enough_of_every_face and sign_test(self.gains, self.losses) <= SIGN_TEST_LEVEL

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        """Class probabilities (N, CLASSES) for the classifier's features (N, F)."""
        return softmax(features.astype(np.float64) @ self.weights.T + self.bias).astype(np.float32)

    def to_bytes(self) -> bytes:
        """The layer and its figures as the bytes of an ``.npz`` file."""
        buffer = io.BytesIO()
        np.savez(buffer, weights=self.weights, bias=self.bias,
                 figures=np.array([self.examples, self.held_out_right, self.shipped_right, self.gains, self.losses,
                                   self.fewest_of_a_face]))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes, name: str) -> TableHead:
        """The layer written by :meth:`to_bytes`; ValueError naming ``name`` when the bytes are not one."""
        try:
            check_unpacked(data, 4 * len(data))  # no more than four times what it holds
            with np.load(io.BytesIO(data), allow_pickle=False) as saved:
                weights, bias, figures = saved["weights"], saved["bias"], saved["figures"]
        except NPZ_DAMAGE as error:
            raise ValueError(f"{name} is not a table's tuned layer: {error}") from None
        if weights.ndim != 2 or weights.shape[0] != CLASSES or bias.shape != (CLASSES,) or figures.shape not in ((5,), (6,)):
            raise ValueError(f"{name} is not a table's tuned layer: shapes {weights.shape}, {bias.shape}, {figures.shape}")
        if any(a.dtype.kind != "f" or not np.all(np.isfinite(a)) for a in (weights, bias, figures)):
            raise ValueError(f"{name} is not a table's tuned layer: numbers that are not finite")
        # A layer stored before the count of every face was kept (five figures): -1, unknown, not used until refitted.
        fewest = int(figures[5]) if len(figures) == 6 else -1
        return cls(weights, bias, int(figures[0]), float(figures[1]), float(figures[2]), int(figures[3]), int(figures[4]),
                   fewest)


@dataclass
class Watch:
    """A layer in use, watched in play: the confirmed dice it read wrong (the players corrected them)
    against those the shipped layer would have read wrong. It is dropped as soon as it has cost the
    players more corrections than the shipped layer would have, whatever its held-out check said."""

    tuned_wrong: int = 0
    shipped_wrong: int = 0

    def record(self, tuned_right: np.ndarray, shipped_right: np.ndarray) -> None:
        self.tuned_wrong += int((~tuned_right).sum())
        self.shipped_wrong += int((~shipped_right).sum())

    @property
    def dropped(self) -> bool:
        return self.tuned_wrong > self.shipped_wrong

    def line(self) -> str:
        return (f"the players corrected {self.tuned_wrong} {'die' if self.tuned_wrong == 1 else 'dice'} under the tuned "
                f"layer; the shipped one would have got {self.shipped_wrong} wrong")


def sign_test(gains: int, losses: int) -> float:
    """The chance of at least ``gains`` of ``gains + losses`` fair coin tosses: how likely a layer no
    better than the shipped one would have done this well by luck (exact one-sided sign test)."""
    n = gains + losses
    return sum(math.comb(n, k) for k in range(gains, n + 1)) / 2**n if n else 1.0


def upright_views(crops: np.ndarray) -> np.ndarray:
    """Each crop as cut and mirrored left to right: the views that keep the camera's far side at
    the top, where the classifier learned a die's top face lies (a quarter turn would put a side
    face there)."""
    return np.concatenate([crops, mirror_images(crops)])


def shipped_layer(features: np.ndarray, logits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The shipped last layer (weights, bias), recovered from its own inputs and outputs: the
    logits are a linear function of the features, so least squares gives it back exactly."""
    inputs = np.hstack([features.astype(np.float64), np.ones((len(features), 1))])
    solution = np.linalg.lstsq(inputs, logits.astype(np.float64), rcond=None)[0]
    return solution[:-1].T, solution[-1]


def fit_layer(
    features: np.ndarray, labels: np.ndarray, start: tuple[np.ndarray, np.ndarray]
) -> tuple[np.ndarray, np.ndarray]:
    """A softmax layer fitted by gradient descent from ``start``, each class weighing the same
    however many examples it has, held to ``start`` by PULL."""
    weights, bias = start[0].copy(), start[1].copy()
    counts = np.bincount(labels, minlength=CLASSES)
    present = counts > 0
    per_example = (1.0 / np.maximum(counts, 1) / present.sum())[labels]
    targets = np.eye(CLASSES)[labels]
    inputs = features.astype(np.float64)
    for _ in range(STEPS):
        error = (softmax(inputs @ weights.T + bias) - targets) * per_example[:, None]
        weights -= STEP_SIZE * (error.T @ inputs + PULL * (weights - start[0]))
        bias -= STEP_SIZE * (error.sum(0) + PULL * (bias - start[1]))
    return weights, bias


def reads_right(probabilities: np.ndarray, labels: np.ndarray, p: ReaderParams) -> np.ndarray:
    """Whether the reader, given these class probabilities, would answer each example right: a
    face read as its value (a die, and sure enough), and a thing that is no die left out."""
    is_die = probabilities[:, NOT_A_DIE] <= p.max_not_die_probability
    faces = probabilities[:, :NOT_A_DIE] / np.maximum(probabilities[:, :NOT_A_DIE].sum(1, keepdims=True), 1e-12)
    faces = faces ** (1.0 / p.face_temperature)
    faces /= faces.sum(1, keepdims=True)
    sure_face = (faces.argmax(1) == labels) & (faces.max(1) >= p.face_threshold)
    return np.where(labels == NOT_A_DIE, ~is_die, is_die & sure_face)


BATCH = 64  # crops per run of the classifier while tuning: the reader waits for one batch at most


def _in_batches(crops: np.ndarray, p: ReaderParams) -> tuple[np.ndarray, np.ndarray]:
    """:func:`logits_and_features` a batch at a time, so a throw read meanwhile never waits long for the net."""
    parts = [logits_and_features(crops[start : start + BATCH], p) for start in range(0, len(crops), BATCH)]
    return np.concatenate([l for l, _ in parts]), np.concatenate([f for _, f in parts])


def tune(examples: Sequence[Example], p: ReaderParams) -> TableHead | None:
    """A last layer fitted on all the examples, with how layers fitted without each FOLDS-th of the
    throws read those (``improves`` says whether to use it); None with fewer than FOLDS throws."""
    throws = sorted({e.throw for e in examples})
    if len(throws) < FOLDS:
        return None
    crops = np.array([e.crop for e in examples], np.uint8)
    labels = np.array([e.label for e in examples], np.int64)
    logits, features = _in_batches(upright_views(crops), p)  # view v of example i is row v * n + i
    start = shipped_layer(features, logits)
    fold_of_throw = {throw: index % FOLDS for index, throw in enumerate(throws)}
    fold = np.array([fold_of_throw[e.throw] for e in examples])
    views = len(features) // len(examples)
    view_labels, view_fold = np.tile(labels, views), np.tile(fold, views)
    upright = features[: len(examples)]
    tuned = np.zeros(len(examples), bool)
    for held in range(FOLDS):
        weights, bias = fit_layer(features[view_fold != held], view_labels[view_fold != held], start)
        out = fold == held
        tuned[out] = reads_right(softmax(upright[out] @ weights.T + bias), labels[out], p)
    shipped = reads_right(softmax(logits[: len(examples)]), labels, p)
    weights, bias = fit_layer(features, view_labels, start)
    faces = np.bincount(labels[labels != NOT_A_DIE], minlength=NOT_A_DIE)
    return TableHead(weights, bias, len(examples), float(tuned.mean()), float(shipped.mean()),
                     int((tuned & ~shipped).sum()), int((shipped & ~tuned).sum()), int(faces.min()))
