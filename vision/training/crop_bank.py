"""Every crop the classifier learns from, cut once into one file, so an experiment costs only its epochs.

    python -m vision.training.crop_bank --photos ../shared/datasets/dice-photos \
        --train-photos ../shared/datasets/train-photos --die-crops ../shared/datasets/train-photos-2 \
        --rendered /tmp/rendered3d --out /tmp/crop-bank.npz
    python -m vision.training.crop_bank --synthetic 0 --candidates-in-rendered /tmp/rendered3d --out /tmp/cands.npz

Each crop keeps its kind of source (``KINDS``), its scene, its class (face value - 1, or 6 for no
die), whether its scene's far side is known (then it was cut in the far-side frame, give or take
``SMALL_TURN``; else it was cut at any turn, and any turn is right for it), whether its scene is
held out for choosing (``is_choosing_scene``: a fixed eighth of the training scenes, by a hash of
the name, never trained on and never one of the measured halves), and the shipped classifier's own
probabilities on it (a second target that keeps the fine-tuned net from forgetting what it knew).
The photos themselves stay in ``../shared``; the bank lives wherever ``--out`` says (not the repository).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vision.read.classify import NOT_A_DIE, classify
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import candidates_in, crops_at, read_dice
from vision.scenes.bench_trays import TRAY_KINDS, TrayKind, throw
from vision.training.photos import Scene, die_crop_photos, synthetic_scenes, train_split_photos, training_photos
from vision.training.render3d import load_rendered
from vision.training.samples import die_crops
from vision.training.train import (
    CROPS_DEV,
    CROPS_IN_3D,
    CROPS_OF_ONE_DIE,
    CROPS_REAL,
    CROPS_RENDERED,
    garbage_scenes,
    hard_negatives,
)

# A candidate the reader finds on a bench-vision tray (scene_candidates) is labelled by the nearest
# drawn die when it lies within ON_DIE of that die's side from its centre, as no die beyond OFF_DIE,
# and left out between.
ON_DIE = 0.35  # die
OFF_DIE = 0.8  # die
SAME_PLACE = 0.1  # die: a die read this close to a candidate is that candidate, cut once
KINDS = ("dev", "train-photos", "die-crops", "synthetic", "garbage", "render3d", "false-candidate")
REAL_KINDS = ("dev", "train-photos", "die-crops")  # real photos: the looks the shipped net must not forget


def is_choosing_scene(name: str) -> bool:
    """A fixed eighth of the training scenes, by a hash of the name: held out of fine-tuning to choose
    the epoch and the thresholds (the measured halves are never in the bank at all)."""
    return hashlib.sha256(f"choose:{name}".encode()).digest()[0] % 8 == 0


@dataclass(frozen=True)
class CropBank:
    """Crops (N, crop_px, crop_px, 3) uint8 BGR with, per crop, its class, kind (index into
    ``KINDS``), scene (index into ``scenes``), whether its far side is known, whether it is held out
    for choosing, and the shipped classifier's probabilities (N, 7)."""

    crops: np.ndarray
    labels: np.ndarray
    kinds: np.ndarray
    scene_index: np.ndarray
    far_side_known: np.ndarray
    choosing: np.ndarray
    teacher: np.ndarray
    scenes: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.labels)

    def of_kind(self, kind: str) -> np.ndarray:
        """A mask of the crops of one kind."""
        return self.kinds == KINDS.index(kind)

    def save(self, path: Path) -> None:
        """Written whole or not at all (a stopped build leaves no half bank)."""
        partial = path.with_name(f".{path.name}")
        with partial.open("wb") as file:
            np.savez(file, crops=self.crops, labels=self.labels, kinds=self.kinds, scene_index=self.scene_index,
                     far_side_known=self.far_side_known, choosing=self.choosing, teacher=self.teacher,
                     scenes=np.array(self.scenes))
        partial.replace(path)

    @classmethod
    def joined(cls, banks: list[CropBank]) -> CropBank:
        """One bank of several (built apart: the photos, the 3D renders...), scenes renumbered."""
        offsets = np.cumsum([0] + [len(bank.scenes) for bank in banks])
        return cls(*(np.concatenate([getattr(bank, field) for bank in banks])
                     for field in ("crops", "labels", "kinds")),
                   np.concatenate([bank.scene_index + offset for bank, offset in zip(banks, offsets)]),
                   *(np.concatenate([getattr(bank, field) for bank in banks])
                     for field in ("far_side_known", "choosing", "teacher")),
                   tuple(name for bank in banks for name in bank.scenes))

    @classmethod
    def load(cls, path: Path) -> CropBank:
        with np.load(path) as data:
            return cls(data["crops"], data["labels"], data["kinds"], data["scene_index"], data["far_side_known"],
                       data["choosing"], data["teacher"], tuple(str(s) for s in data["scenes"]))

    def summary(self) -> str:
        """One line per kind: crops, no-die crops, crops held out for choosing."""
        lines = []
        for kind in KINDS:
            mask = self.of_kind(kind)
            lines.append(f"{kind}: {int(mask.sum())} crops, {int((mask & (self.labels == NOT_A_DIE)).sum())} of no die, "
                         f"{int((mask & self.choosing).sum())} held out for choosing, "
                         f"{int((mask & self.far_side_known).sum())} with their far side known")
        return "\n".join(lines)


def teacher_of(stack: np.ndarray, p: ReaderParams) -> np.ndarray:
    """The classifier of ``p``'s camera on each crop (N, 7, float16), a batch at a time."""
    return np.concatenate([classify(stack[i : i + 512], p) for i in range(0, len(stack), 512)] or
                          [np.zeros((0, 7), np.float32)]).astype(np.float16)


def build(plan: list[tuple[Scene, str, tuple[int, int]]], negatives_of: list[Scene], rng: np.random.Generator,
          p: ReaderParams = DEFAULT_PARAMS) -> CropBank:
    """The bank of ``plan`` (scene, kind, (crops per die, crops of no die)), with the shipped detector's
    false candidates on the scenes of ``negatives_of`` as kind ``false-candidate``."""
    crops: list[np.ndarray] = []
    labels: list[int] = []
    kinds: list[int] = []
    scene_index: list[int] = []
    names = {scene.name: i for i, scene in enumerate(s for s, _, _ in plan)}
    for scene, kind, (per_die, negatives) in plan:
        c, l = die_crops(scene, per_die, negatives, rng, p)
        crops += c
        labels += l
        kinds += [KINDS.index(kind)] * len(c)
        scene_index += [names[scene.name]] * len(c)
    for scene in negatives_of:
        c, l = hard_negatives([scene], rng, p)
        crops += c
        labels += l
        kinds += [KINDS.index("false-candidate")] * len(c)
        scene_index += [names[scene.name]] * len(c)
    far_side = {names[scene.name]: scene.up is not None for scene, _, _ in plan}
    index = np.array(scene_index, np.int32)
    stack = np.array(crops, np.uint8).reshape(-1, p.crop_px, p.crop_px, 3)
    teacher = teacher_of(stack, p)
    known = np.array([far_side[i] for i in index], bool)
    return CropBank(stack, np.array(labels, np.int8), np.array(kinds, np.int8), index,
                    # a false candidate is cut at any turn, whatever its scene
                    known & (np.array(kinds) != KINDS.index("false-candidate")),
                    np.array([is_choosing_scene(s.name) for s, _, _ in plan], bool)[index],
                    teacher, tuple(names))


def scene_candidates(kind_name: str, trays: int, seed: int, p: ReaderParams = DEFAULT_PARAMS) -> CropBank:
    """Crops cut where the reader puts its candidates on ``trays`` of bench-vision's trays of one kind
    drawn from ``seed``, as the reader cuts them: the keys, noise blobs and side faces it must refuse
    (``false-candidate``) and the dice it must read (``synthetic``), each labelled by the nearest drawn
    die (``ON_DIE``, ``OFF_DIE``). A desk's webcam has its far side at random, is read by the leaning
    camera's nets and cut in the far-side frame; any other tray is seen from straight above (any turn
    is right for its crops). Their teacher is the reading classifier's (never learned from:
    ``--distill`` weighs only real photos)."""
    kind = tray_kind(kind_name)
    rng = np.random.default_rng(seed)
    scenes = []
    for index in range(trays):
        up = float(rng.uniform(0, 360)) if kind.desk else None
        image, placed = throw(kind, rng, 0.0 if up is None else up)
        scene = Scene(f"{kind.name}-{seed}-{index}", image, tuple((*d.centre, d.side, d.value) for d in placed), up)
        scenes.append((scene, candidates_in(image, replace(p, up=up))))
    return _candidate_bank(scenes, "synthetic", p)


def rendered_candidates(folder: Path, p: ReaderParams = DEFAULT_PARAMS) -> CropBank:
    """Crops cut where the leaning camera's reader puts its candidates, and the dice it reads or holds
    doubtful where no candidate lies (within ``SAME_PLACE`` of their size), on render3d's throws in
    ``folder`` that have a far side, each told it and cut in the far-side frame, labelled as
    :func:`scene_candidates` labels them (``render3d`` or ``false-candidate``): the flat printed
    clutter, side faces and dice half found that the leaning classifier must judge as its detector
    hands them over. A throw seen straight down (no far side) is left out: the leaning reader never
    reads one. The labels measure from each die's box middle, so a candidate on its top face (the
    leaning detector's) is its die, as is a side face within ``ON_DIE`` of that middle."""
    scenes = []
    for scene in load_rendered(folder):
        if scene.up is None:
            continue
        told = replace(p, up=scene.up)
        places = candidates_in(scene.image, told)
        reading = read_dice(scene.image, told)
        places += [(d.centre, d.size) for d in reading.dice + reading.doubtful
                   if not any(math.dist(d.centre, centre) < SAME_PLACE * d.size for centre, _ in places)]
        scenes.append((scene, places))
    return _candidate_bank(scenes, "render3d", p)


def _candidate_bank(scenes: list[tuple[Scene, list[tuple[tuple[float, float], float]]]], kind: str,
                    p: ReaderParams) -> CropBank:
    """The crops of each scene's places (centre, size), cut as its camera's reader cuts them (in the
    far-side frame where its far side is known): the face of the nearest die within ``ON_DIE`` of
    its size (kind ``kind``), no die beyond ``OFF_DIE`` (``false-candidate``), none between."""
    crops, labels, scene_index = [], [], []
    for index, (scene, places) in enumerate(scenes):
        kept, classes = [], []
        for centre, size in places:
            nearest = min(((math.dist(centre, (x, y)) / side, value) for x, y, side, value in scene.dice),
                          default=(math.inf, 0))
            if (nearest[0] < ON_DIE and nearest[1] > 0) or nearest[0] > OFF_DIE:
                kept.append((centre, size))
                classes.append(nearest[1] - 1 if nearest[0] < ON_DIE else NOT_A_DIE)
        if kept:
            crops.append(crops_at(scene.image, kept, replace(p, up=scene.up)))
            labels += classes
            scene_index += [index] * len(kept)
    stack = np.concatenate(crops).astype(np.uint8) if crops else np.zeros((0, p.crop_px, p.crop_px, 3), np.uint8)
    label = np.array(labels, np.int8)
    index = np.array(scene_index, np.int32)
    kinds = np.where(label == NOT_A_DIE, KINDS.index("false-candidate"), KINDS.index(kind)).astype(np.int8)
    far_side = np.array([scene.up is not None for scene, _ in scenes], bool)
    leaning = bool(far_side.any())
    return CropBank(stack, label, kinds, index, far_side[index],
                    np.array([is_choosing_scene(scene.name) for scene, _ in scenes], bool)[index],
                    teacher_of(stack, replace(p, up=0.0 if leaning else None)),
                    tuple(scene.name for scene, _ in scenes))


def tray_kind(name: str) -> TrayKind:
    """bench-vision's tray kind of that name; ValueError naming the kinds there are."""
    kind = next((k for k in TRAY_KINDS if k.name == name), None)
    if kind is None:
        raise ValueError(f"no bench-vision tray kind {name!r}: choose from {', '.join(k.name for k in TRAY_KINDS)}")
    return kind


def parse_candidates_on(text: str) -> tuple[str, int]:
    """``KIND=N``: a bench-vision tray kind and how many of its trays; argparse.ArgumentTypeError else."""
    name, _, count = text.partition("=")
    try:
        tray_kind(name)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    if not count.isdigit() or int(count) < 1:
        raise argparse.ArgumentTypeError(f"{name} needs a number of trays, as {name}=400, got {text!r}")
    return name, int(count)


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, metavar="DIR", help="the dev photos (their training half)")
    parser.add_argument("--train-photos", type=Path, metavar="DIR", help="training photos (their train split)")
    parser.add_argument("--die-crops", type=Path, metavar="DIR", help="single-die photos (train-photos-2)")
    parser.add_argument("--rendered", type=Path, metavar="DIR", help="3D scenes of python -m vision.training.render3d")
    parser.add_argument("--synthetic", type=int, default=800,
                        help="2D synthetic trays drawn, and a fifth as many frames of no dice (default 800)")
    parser.add_argument("--candidates-on", type=parse_candidates_on, action="append", default=[],
                        metavar="KIND=N", help="also N of bench-vision's trays of KIND (desk, garbage, crowd...) "
                        "drawn from --seed, cut where the reader puts its candidates (repeatable)")
    parser.add_argument("--candidates-in-rendered", type=Path, action="append", default=[], metavar="DIR",
                        help="also render3d's throws in DIR, cut where the leaning camera's reader puts its "
                        "candidates and dice (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--out", type=Path, required=True, help="the bank's file (.npz)")
    args = parser.parse_args()
    started = time.monotonic()
    rng = np.random.default_rng(args.seed)
    plan: list[tuple[Scene, str, tuple[int, int]]] = []
    if args.photos:
        plan += [(scene, "dev", CROPS_DEV) for scene in training_photos(args.photos)]
    if args.train_photos:
        plan += [(scene, "train-photos", CROPS_REAL) for scene in train_split_photos(args.train_photos)]
    if args.die_crops:
        plan += [(scene, "die-crops", CROPS_OF_ONE_DIE) for scene in die_crop_photos(args.die_crops)]
    # Real photos carry no far side: taken from straight above, any turn is right for them.
    plan = [(Scene(s.name, s.image, s.dice, None), kind, cut) for s, kind, cut in plan]
    plan += [(scene, "synthetic", CROPS_RENDERED) for scene in synthetic_scenes(args.synthetic, rng)]
    plan += [(scene, "garbage", CROPS_RENDERED) for scene in garbage_scenes(args.synthetic // 5, rng)]
    if args.rendered:
        plan += [(scene, "render3d", CROPS_IN_3D) for scene in load_rendered(args.rendered)]
    print(f"{len(plan)} scenes loaded ({time.monotonic() - started:.0f} s)", flush=True)
    bank = build(plan, [s for s, kind, _ in plan if kind != "die-crops"], rng)
    cuts = [scene_candidates(kind_name, trays, args.seed) for kind_name, trays in args.candidates_on]
    cuts += [rendered_candidates(folder) for folder in args.candidates_in_rendered]
    for cut in cuts:
        bank = CropBank.joined([bank, cut]) if len(bank) else cut
    bank.save(args.out)
    print(bank.summary())
    print(f"wrote {len(bank)} crops to {args.out} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
