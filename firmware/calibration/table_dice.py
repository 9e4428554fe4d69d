"""The dice a table's players confirmed, kept in the data folder, and the reader's own last layer for
that table, fitted on them in a background thread (:mod:`vision.read.table_tuning`).

Every die of a throw the players played on (not undone), and above all one they entered by hand
after a refused reading, is an example of the table's own dice: its crop as the reader cut it and
its face. The last EXAMPLES_KEPT are kept, balanced over the faces, each with the dice set's name
(``[game] dice_set``), in EXAMPLES_NAME; the layer fitted on those of the dice set in play goes to
LAYER_NAME beside them, and the reader uses it only while it proved better than the shipped one.
Both files are written whole or not at all; a damaged or foreign file is kept aside, with a
notice, and the table starts afresh. Examples are never journaled: they are not moves.
"""

from __future__ import annotations

import io
import logging
import os
import stat
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from firmware.calibration._calibration_file import write_atomically
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import crops_of, face_probabilities, read_dice
from vision.read.reading import DiceReading, Die
from vision.read.classify import feature_width, logits_and_features, softmax
from vision.read.table_tuning import NPZ_DAMAGE, Example, TableHead, Watch, check_unpacked, reads_right, tune

LOG = logging.getLogger("dice_companion")
EXAMPLES_NAME = "dice-examples.npz"
LAYER_NAME = "dice-layer.npz"
EXAMPLES_KEPT = 600
REFIT_AFTER = 12  # new examples before the layer is fitted again, or a quarter of those kept if more

FORMAT = "dice-companion table dice 1"  # written in the examples file: anything else is foreign
UNREADABLE = NPZ_DAMAGE  # what reading a damaged .npz raises
MOST_BYTES = {EXAMPLES_NAME: 32 << 20, LAYER_NAME: 1 << 20}  # far above what the companion writes (4.2 MB, 10 KB)


class TableDice:
    """The examples of one table's dice and the layer tuned on them; :meth:`read` reads a frame with it.

    With ``background`` a thread saves the examples and refits the layer whenever REFIT_AFTER new
    ones came, so a throw never waits for it; without, :meth:`refit` does that when called.
    """

    def __init__(self, folder: Path, dice_set: str, params: ReaderParams = DEFAULT_PARAMS, background: bool = True) -> None:
        self.folder = folder
        self.dice_set = dice_set
        self.params = params
        self._up: float | None = None  # where the camera's far side lay at the last reading (None: params.up)
        self.notices: list[str] = []  # files kept aside at start, for the players
        self._lock = threading.Lock()
        self._said_unwritable = False  # a refit that could not write its files is said once
        self._crops, self._labels, self._throws, self._sets = self._load_examples()
        self._watch = Watch()
        self._layer = self._load_layer()
        # A layer stored before faces were counted is refitted at once (it is not used until then).
        stale = self._layer is not None and self._layer.fewest_of_a_face < 0 and len(self._labels) > 0
        self._new = len(self._labels) if stale else 0
        self._wake = threading.Event()
        self._closing = False
        self._thread = threading.Thread(target=self._work, name="table-dice", daemon=True) if background else None
        if self._thread is not None:
            self._thread.start()
            if stale:
                self._wake.set()

    # --- reading ----------------------------------------------------------------------------

    @property
    def layer(self) -> TableHead | None:
        """The last layer fitted on this dice set (used or not), with its held-out figures."""
        return self._layer

    @property
    def in_use(self) -> TableHead | None:
        """The layer the reader uses: the last one fitted, when it proved better than the shipped one
        and has not since cost the players more corrections than the shipped one would have."""
        layer = self._layer
        return layer if layer is not None and layer.improves and not self._watch.dropped else None

    def read(self, frame: np.ndarray, *, up: float | None = None, closer: int = 0) -> DiceReading:
        """The dice in ``frame``, read with the table's layer where it is in use (``up``: where the
        camera's far side lies, as the tray's outline shows it; the dice confirmed later come from
        this camera's frames and are cut the same way; ``closer``: a throw read short looked at again, the look's number)."""
        self._up = up
        return read_dice(frame, self.params, head=self.in_use, up=up, closer=closer)

    # --- examples ---------------------------------------------------------------------------

    def counts(self) -> list[int]:
        """Examples of the dice set in play per face, 1 to 6."""
        with self._lock:
            mine = self._labels[self._sets == self.dice_set]
        return [int(n) for n in np.bincount(mine, minlength=6)[:6]]

    def confirm(self, frame: np.ndarray, dice: Sequence[Die], values: Sequence[int]) -> None:
        """The players played on with ``dice`` of ``frame`` showing ``values`` (1-6): keep them as examples."""
        if not dice:
            return
        told = self.params if self._up is None else replace(self.params, up=self._up)
        crops = crops_of(frame, dice, told)
        if self.in_use is not None and told.reads_with_table_layer:  # a leaning camera read without it
            self._watch_layer(crops, dice, values, told)
        with self._lock:
            throw = int(self._throws.max()) + 1 if len(self._throws) else 0
            self._crops = np.concatenate([self._crops, crops])
            self._labels = np.concatenate([self._labels, np.array(values, np.int64) - 1])
            self._throws = np.concatenate([self._throws, np.full(len(dice), throw, np.int64)])
            self._sets = np.concatenate([self._sets, np.array([self.dice_set] * len(dice))])
            self._trim()
            self._new += len(dice)
            due = self._new >= max(REFIT_AFTER, len(self._labels) // 4)
        if due:
            self._wake.set()

    def _watch_layer(self, crops: np.ndarray, dice: Sequence[Die], values: Sequence[int], told: ReaderParams) -> None:
        """Count the dice the layer in use read wrong against those the shipped one would have, read as
        the reader reads them with ``told`` (an unsure die turned straight down, mirrored leaning); once the
        layer has cost more corrections, drop it, store why, and say so (the dice page shows it)."""
        labels = np.array(values, np.int64) - 1
        shipped = reads_right(face_probabilities(crops, told), labels, told)
        with self._lock:  # a refit swaps the layer and its watch under the same lock
            self._watch.record(np.array([d.value == v for d, v in zip(dice, values)], bool), shipped)
            if not self._watch.dropped or self._layer is None:
                return
            _write(self.folder / LAYER_NAME, dice_set=np.array(self.dice_set),
                   layer=np.frombuffer(self._layer.to_bytes(), np.uint8),
                   watch=np.array([self._watch.tuned_wrong, self._watch.shipped_wrong]))
        LOG.warning("the tuned dice layer of %r is dropped: %s", self.dice_set, self._watch.line())

    def forget(self) -> None:
        """Drop every example and the layer, in memory and on disk."""
        with self._lock:
            self._crops, self._labels, self._throws, self._sets = _no_examples(self.params)
            self._layer = None
            self._new = 0
        forget_files(self.folder)

    def _trim(self) -> None:
        """Keep EXAMPLES_KEPT, dropping the oldest of the face with the most examples first."""
        while len(self._labels) > EXAMPLES_KEPT:
            most = int(np.bincount(self._labels).argmax())
            drop = int(np.flatnonzero(self._labels == most)[0])
            keep = np.arange(len(self._labels)) != drop
            self._crops, self._labels, self._throws, self._sets = (
                self._crops[keep], self._labels[keep], self._throws[keep], self._sets[keep])

    # --- saving and refitting -----------------------------------------------------------------

    def refit(self) -> None:
        """Save the examples and fit the layer on those of the dice set in play (it is used only if better)."""
        with self._lock:
            crops, labels, throws, sets = self._crops, self._labels, self._throws, self._sets
            self._new = 0
        self.folder.mkdir(parents=True, exist_ok=True)
        _write(self.folder / EXAMPLES_NAME, crops=crops, labels=labels, throws=throws, sets=sets)
        mine = sets == self.dice_set
        started = time.perf_counter()
        layer = tune([Example(c, int(l), int(t)) for c, l, t in zip(crops[mine], labels[mine], throws[mine])], self.params)
        if layer is None:
            return
        with self._lock:
            _write(self.folder / LAYER_NAME, dice_set=np.array(self.dice_set), layer=np.frombuffer(layer.to_bytes(), np.uint8))
            self._layer, self._watch = layer, Watch()
        LOG.info("dice layer fitted on %d examples of %r in %.1f s: held out, %.1f%% right against %.1f%% shipped: %s",
                 layer.examples, self.dice_set, time.perf_counter() - started, 100 * layer.held_out_right,
                 100 * layer.shipped_right, "in use" if layer.improves else "not in use")

    def close(self) -> None:
        """Stop the thread after saving what came since the last save."""
        self._closing = True
        self._wake.set()
        if self._thread is not None:
            self._thread.join()

    def _work(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            try:
                if self._new or not self._closing:
                    self.refit()
            except OSError as error:  # its files could not be written (a full disk, a file-size limit): said once
                if not self._said_unwritable:
                    LOG.error("the table's dice layer could not be refitted (%s); the reader goes on without it", error)
                self._said_unwritable = True
            except Exception:  # a failed refit must never stop the game: the shipped layer reads on
                LOG.exception("the table's dice layer could not be refitted; the reader goes on without it")
            if self._closing:
                return

    # --- loading ----------------------------------------------------------------------------------

    def _load_examples(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        path = self.folder / EXAMPLES_NAME
        try:
            saved = _read_npz(path, ("crops", "labels", "throws", "sets"))
            crops, labels, throws, sets = saved["crops"], saved["labels"], saved["throws"], saved["sets"]
            size = self.params.crop_px
            if crops.dtype != np.uint8 or crops.ndim != 4 or crops.shape[1:] != (size, size, 3):
                raise ValueError(f"crops of {crops.dtype} and shape {crops.shape}")
            if labels.dtype.kind not in "iu" or throws.dtype.kind not in "iu" or sets.dtype.kind != "U":
                raise ValueError(f"labels of {labels.dtype}, throws of {throws.dtype}, sets of {sets.dtype}")
            if not len(crops) == len(labels) == len(throws) == len(sets) or labels.ndim != 1 or throws.ndim != 1:
                raise ValueError(f"{len(crops)} crops, {len(labels)} labels")
            if len(labels) and (labels.min() < 0 or labels.max() > 5):
                raise ValueError("a face outside 1-6")
            return crops, labels.astype(np.int64), throws.astype(np.int64), sets.astype(str)
        except FileNotFoundError:
            return _no_examples(self.params)
        except UNREADABLE as error:
            self._keep_aside(path, f"not the table's dice examples ({error})")
            return _no_examples(self.params)

    def _load_layer(self) -> TableHead | None:
        """The stored layer, if it was fitted on the dice set in play (another set's waits for its own)."""
        path = self.folder / LAYER_NAME
        try:
            dice_set, layer, watch = _stored_layer(path)
            if dice_set != self.dice_set:
                return None
            if layer.weights.shape[1] != feature_width(self.params):
                LOG.info("%s was fitted on another classifier's features: refitted when examples come", path)
                return None
            if layer.improves and not self._reads_its_examples(layer):
                LOG.error("%s says it reads better than the shipped layer, but it reads this table's stored examples "
                          "worse: not used, refitted when examples come", path)
                return None
            self._watch = watch
            return layer
        except FileNotFoundError:
            return None
        except UNREADABLE as error:
            self._keep_aside(path, f"not the table's dice layer ({error})")
            return None

    def _reads_its_examples(self, layer: TableHead) -> bool:
        """Whether ``layer`` reads the stored examples of the dice set in play at least as well as the
        shipped layer: its file's own figures are only a claim (a crafted one made every die read 6)."""
        mine = self._sets == self.dice_set
        if not mine.any():
            return False
        logits, features = logits_and_features(self._crops[mine], self.params)
        labels = self._labels[mine]
        return reads_right(layer.probabilities(features), labels, self.params).sum() >= reads_right(
            softmax(logits), labels, self.params).sum()

    def _keep_aside(self, path: Path, why: str) -> None:
        aside = path.with_name(f"{path.name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
        os.replace(path, aside)
        LOG.error("%s: %s; kept as %s, the table's dice are learned afresh", path, why, aside)
        self.notices.append(f"{path.name} kept aside")


def forget_files(folder: Path) -> list[str]:
    """Remove the table's dice files without reading them (the way out of files that cannot be
    read); the names of those removed."""
    removed = []
    for name in (EXAMPLES_NAME, LAYER_NAME):
        try:
            (folder / name).unlink()
            removed.append(name)
        except FileNotFoundError:
            pass
        except IsADirectoryError:
            os.replace(folder / name, folder / f"{name}.unreadable-{time.strftime('%Y%m%d-%H%M%S')}")
            removed.append(name)
    return removed


def summary(folder: Path) -> dict[str, Any]:
    """What the data folder holds of the table's dice, read only (for the web page): examples per
    face of each dice set, and the tuned layer's dice set, figures and whether it is in use;
    ``problem`` says why a file could not be read (the companion keeps such files aside)."""
    found: dict[str, Any] = {"sets": {}, "layer": None, "problem": ""}
    try:
        saved = _read_npz(folder / EXAMPLES_NAME, ("labels", "sets"))
        labels, sets = saved["labels"], saved["sets"]
        if labels.dtype.kind not in "iu" or sets.dtype.kind != "U" or labels.shape != sets.shape or labels.ndim != 1:
            raise ValueError(f"labels of {labels.dtype} {labels.shape}, sets of {sets.dtype} {sets.shape}")
        if len(labels) and (labels.min() < 0 or labels.max() > 5):
            raise ValueError("a face outside 1-6")
        found["sets"] = {name: [int(n) for n in np.bincount(labels[sets == name], minlength=6)[:6]]
                         for name in sorted(set(sets.tolist()))}
        dice_set, layer, watch = _stored_layer(folder / LAYER_NAME)
        found["layer"] = {"dice_set": dice_set, "examples": layer.examples, "held_out_right": layer.held_out_right,
                          "shipped_right": layer.shipped_right, "in_use": layer.improves and not watch.dropped,
                          "fewest_of_a_face": layer.fewest_of_a_face, "dropped": watch.line() if watch.dropped else ""}
    except FileNotFoundError:
        pass
    except UNREADABLE as error:
        found["problem"] = f"the table's dice files cannot be read: {error}"
    return found


def _write(path: Path, **arrays: np.ndarray) -> None:
    """``arrays`` as an ``.npz`` file marked FORMAT, written whole or not at all."""
    buffer = io.BytesIO()
    np.savez(buffer, format=np.array(FORMAT), **arrays)
    write_atomically(path, buffer.getvalue())


def _stored_layer(path: Path) -> tuple[str, TableHead, Watch]:
    """The dice set a stored layer was fitted on, the layer, and how it fared in play (a layer
    dropped in play is stored with its count); one of UNREADABLE when the file is not one."""
    saved = _read_npz(path, ("dice_set", "layer"), ("watch",))
    dice_set, layer = saved["dice_set"], saved["layer"]
    counts = saved.get("watch", np.zeros(2, np.int64))
    if dice_set.dtype.kind != "U" or dice_set.shape != () or layer.dtype != np.uint8 or layer.ndim != 1:
        raise ValueError(f"a dice set of {dice_set.dtype}, a layer of {layer.dtype}")
    if counts.dtype.kind not in "iu" or counts.shape != (2,) or counts.min() < 0:
        raise ValueError(f"a count of corrections of {counts.dtype} and shape {counts.shape}")
    head = TableHead.from_bytes(layer.tobytes(), str(path))
    return str(dice_set), head, Watch(int(counts[0]), int(counts[1]))


def _read_npz(path: Path, names: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays ``names`` (and those of ``optional`` that are there) of one of the table's .npz
    files, marked FORMAT; one of UNREADABLE for anything else. Only a regular file no larger than
    MOST_BYTES is read (a FIFO would hang the start, a link to a device fill the memory), whole, and
    no member may unpack to more than that (a zip bomb) nor be anything but a plain array."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise ValueError("not a regular file")
        limit = MOST_BYTES[path.name]
        with os.fdopen(os.dup(handle), "rb") as file:
            data = file.read(limit + 1)
    finally:
        os.close(handle)
    if len(data) > limit:
        raise ValueError(f"larger than {limit} bytes")
    return parse_npz(data, limit, names, optional)


def parse_npz(data: bytes, limit: int, names: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, np.ndarray]:
    """The arrays of the bytes of one of the table's .npz files (see :func:`_read_npz`). Whatever
    zipfile or numpy raises on bytes a card has damaged (a flipped compression method gives
    NotImplementedError, a flipped "encrypted" flag RuntimeError) is damage: ValueError."""
    try:
        check_unpacked(data, limit)
        with np.load(io.BytesIO(data), allow_pickle=False) as saved:
            if not isinstance(saved, np.lib.npyio.NpzFile):
                raise ValueError("a single array, not the table's file")
            if "format" not in saved.files or str(saved["format"]) != FORMAT:
                raise ValueError("not written by the companion")
            return {name: saved[name] for name in (*names, *(n for n in optional if n in saved.files))}
    except UNREADABLE:
        raise
    except Exception as error:  # noqa: BLE001 - any failure to unpack damaged bytes is damage, said as such
        raise ValueError(f"damaged ({type(error).__name__}: {error})") from None


def _no_examples(params: ReaderParams) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    size = params.crop_px
    return (np.zeros((0, size, size, 3), np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, "<U1"))
