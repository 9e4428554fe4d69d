"""Train the reader's detector and classifier and write them to vision/models/ as ONNX.

    pip install '.[train]'
    python -m vision.training.train --photos ../shared/datasets/dice-photos \
        --train-photos ../shared/datasets/train-photos --die-crops ../shared/datasets/train-photos-2 \
        --rendered /tmp/rendered3d --render 471 [--out DIR] [--seed 1]

Data: the training half of the dev photos (a fixed half, chosen by a hash of the file name; see
``is_training_photo``), the ``train`` split of the training photos (less the boxes that cover one
face only, ``labels_only_one_face``), synthetic trays (touching, oblique, translucent dice,
crowds, clutter and desks beside them), frames with no dice (noise blown up into blobs among
them), with ``--rendered DIR`` the 3D scenes of ``vision.training.render3d`` (``--render N``
renders the first N there first), and with ``--die-crops DIR`` photos of one die each, for the
classifier only. Every die's crop is cut with its camera's far side up (``samples.crop_turn``).
The classifier also learns the detector's own false candidates on all of them as "no die". The
SHA-256 of every photo trained on is written to ``trained-on.txt`` beside the models, so
``eval-vision`` measures only photos the nets never saw. Both nets save a checkpoint in ``--out``
after every epoch and the same command goes on from it after a stop; the detector is written as
soon as it is trained, and ``--keep-detector`` trains only the classifier on it."""

from __future__ import annotations

import argparse
import copy
import hashlib
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from vision.read.classify import NOT_A_DIE, die_crop
from vision.read.detect import find_candidates
from vision.measure.evaluation import file_digest
from vision.read.network import as_net_input, forget_models
from vision.read.params import DEFAULT_PARAMS, MODELS, ReaderParams
from vision.training.nets import Classifier, Detector, ReaderClassifier
from vision.training.photos import (
    Scene,
    die_crop_photos,
    near_a_die,
    synthetic_scenes,
    train_split_photos,
    training_photos,
)
from vision.training.render3d import load_rendered, render_folder
from vision.training.shipped_nets import freeze_batch_norms, torch_weights
from vision.scenes.synthetic import render_garbage
from vision.training.samples import WINDOW, detector_sample, die_crops, recolour

TRAINED_ON = "trained-on.txt"
REAL_SHARE = 0.65  # of the detector's windows cut from real photos; the rest from rendered frames
DETECTOR_EPOCH = 4096  # windows
CLASSIFIER_EPOCH = 49152  # crops
BAR = {"disable": None, "leave": False}  # tqdm: a bar on stderr only on a terminal, gone when done; stdout keeps the log
# Crops per die and crops of no die cut for the classifier from each scene: the dev photos' training
# half most (the reader's own kind of photo), other real photos and 3D frames next, 2D trays least.
CROPS_DEV, CROPS_REAL, CROPS_RENDERED = (10, 12), (6, 12), (3, 6)
CROPS_IN_3D = (6, 6)  # a 3D frame's dice (``--rendered``) show the side faces the 2D trays only draw
CROPS_OF_ONE_DIE = (6, 0)  # a photo one die wide (``--die-crops``): no room for a crop of no die
MAX_HARD_NEGATIVES = 10  # per scene: false candidates of the trained detector


def garbage_scenes(count: int, rng: np.random.Generator) -> list[Scene]:
    """Frames with no dice: flat colours, gradients, noise, and noise blown up into blobs the size of
    pips and dice (``render_garbage``: pictures that once fooled the reader)."""
    scenes = []
    for index in range(count):
        h, w = 480, 640
        kind = index % 4
        if kind == 3:
            image = render_garbage(rng, (w, h))
        elif kind == 0:
            image = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
        elif kind == 1:
            ramp = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
            image = (rng.uniform(0, 255, 3) * (1 - ramp) + rng.uniform(0, 255, 3) * ramp).repeat(h, 0)
            image = image.astype(np.uint8)
        else:
            image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        scenes.append(Scene(f"garbage-{index}", image, (), None))
    return scenes


def focal_loss(logits: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss over the centre heatmap."""
    prob = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target.eq(1).float()
    pos = -torch.log(prob) * (1 - prob) ** 2 * positive
    neg = -torch.log(1 - prob) * prob**2 * (1 - target) ** 4 * (1 - positive)
    return (pos.sum() + neg.sum()) / positive.sum().clamp(min=1)


def to_tensor(images: list[np.ndarray]) -> torch.Tensor:
    return torch.from_numpy(as_net_input(np.stack(images)))


def train_detector(
    scenes: list[Scene], weights: np.ndarray, epochs: int, rng: np.random.Generator, p: ReaderParams,
    checkpoint: Path | None = None, seed: int = 1, start: Detector | None = None, lr: float = 3e-3,
    far_side_at_top: bool = False,
) -> Detector:
    """Train on DETECTOR_EPOCH windows an epoch, each cut from a scene drawn with the given ``weights``.

    From scratch, or fine-tuned from ``start`` (a shipped detector: its batch norms stay frozen,
    ``shipped_nets.freeze_batch_norms``) at a learning rate of at most ``lr``. With ``checkpoint``,
    saved after every epoch and gone on from by a run of the same shape (epochs, windows an epoch,
    the scenes by name and dice, seed, whether fine-tuned and at what lr, whether far side at the
    top), as the classifier's (:func:`train_classifier`). With ``far_side_at_top``, the windows of
    scenes with a far side are cut with it at their top (the leaning camera's detector:
    :func:`vision.training.samples.detector_sample`)."""
    net = Detector() if start is None else copy.deepcopy(start)
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = DETECTOR_EPOCH // 32
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=epochs * steps)
    scenes_digest = hashlib.sha256("\n".join(f"{s.name} {s.dice}" for s in scenes).encode()).hexdigest()[:16]
    shape = (("detector", epochs, DETECTOR_EPOCH, len(scenes), scenes_digest, seed)
             + (() if start is None else ("fine-tuned", lr)) + (("far side at the top",) if far_side_at_top else ()))
    first = _resume(checkpoint, net, optimiser, schedule, rng, shape)
    for epoch in range(first, epochs):
        started, total = time.time(), 0.0
        net.train()
        if start is not None:
            freeze_batch_norms(net)
        for _ in tqdm(range(steps), f"detector epoch {epoch + 1}", **BAR):
            samples = [detector_sample(scenes[i], rng, p, far_side_at_top)
                       for i in rng.choice(len(scenes), 32, p=weights)]
            x = to_tensor([s[0] for s in samples])
            target = torch.from_numpy(np.stack([s[1] for s in samples]))
            out = net(x)
            mask = target[:, 4:5]
            regression = (F.l1_loss(out[:, 1:4] * mask, target[:, 1:4] * mask, reduction="sum")
                          / mask.sum().clamp(min=1))
            loss = focal_loss(out[:, 0], target[:, 0]) + regression
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        print(f"detector epoch {epoch + 1}/{epochs}: loss {total / steps:.4f} ({time.time() - started:.0f} s)",
              flush=True)
        _save(checkpoint, shape, epoch + 1, net, optimiser, schedule, rng)
    return net.eval()


def hard_negatives(scenes: list[Scene], rng: np.random.Generator, p: ReaderParams) -> tuple[list, list]:
    """Crops of the trained detector's candidates that are no die (class 6), up to MAX_HARD_NEGATIVES a scene."""
    crops, labels = [], []
    for scene in tqdm(scenes, "hard negatives", **BAR):
        found = [c for c in find_candidates(scene.image, p) if not near_a_die(scene, c.centre)]
        for c in found[:MAX_HARD_NEGATIVES]:
            for _ in range(2):
                crops.append(die_crop(scene.image, c.centre, c.size * rng.uniform(0.9, 1.1), p,
                                      angle=float(rng.uniform(0, 360))))
                labels.append(NOT_A_DIE)
    return crops, labels


def crop_bank(
    plan: list[tuple[Scene, int, int]], rng: np.random.Generator, p: ReaderParams
) -> tuple[np.ndarray, np.ndarray]:
    """Every crop the classifier learns from, cut once: per (scene, crops per die, crops of no die) in ``plan``."""
    crops, labels = [], []
    for scene, per_die, negatives in tqdm(plan, "crops", **BAR):
        c, l = die_crops(scene, per_die, negatives, rng, p)
        crops += c
        labels += l
    return np.array(crops, np.uint8), np.array(labels, np.int64)


def train_classifier(
    bank: tuple[np.ndarray, np.ndarray], epochs: int, rng: np.random.Generator, width: int = 1,
    checkpoint: Path | None = None, seed: int = 1,
) -> Classifier:
    """Train on CLASSIFIER_EPOCH crops an epoch, drawn from the bank, mirrored left to right, recoloured.

    Never turned here: each crop was cut with its camera's far side up (``die_crops``), and a
    quarter turn would put a side face above the top one.

    With ``checkpoint`` the net, optimiser, schedule and random state are saved there after every
    epoch, and a run that finds one of the same shape (epochs, width, the bank's crops and labels,
    seed) goes on from it: a stopped run loses one epoch. It is removed once the net is written.
    """
    crops, labels = bank
    net = Classifier(width)
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    per_epoch = min(CLASSIFIER_EPOCH, len(crops))
    steps = -(-per_epoch // 128)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=epochs * steps)
    shape = (epochs, width, len(crops), hashlib.sha256(labels.tobytes()).hexdigest()[:16], seed)
    first = _resume(checkpoint, net, optimiser, schedule, rng, shape)
    for epoch in range(first, epochs):
        started = time.time()
        order = rng.permutation(len(crops))[:per_epoch]
        net.train()
        total, right = 0.0, 0
        for batch_start in tqdm(range(0, per_epoch, 128), f"classifier epoch {epoch + 1}", **BAR):
            index = order[batch_start : batch_start + 128]
            x = to_tensor([recolour(crops[i][:, ::-1] if rng.random() < 0.5 else crops[i], rng) for i in index])
            y = torch.from_numpy(labels[index])
            out = net(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.02)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(index)
            right += int((out.argmax(1) == y).sum())
        print(f"classifier epoch {epoch + 1}/{epochs}: loss {total / per_epoch:.4f} "
              f"train accuracy {100 * right / per_epoch:.1f}% on {per_epoch} of {len(crops)} crops "
              f"({time.time() - started:.0f} s)", flush=True)
        _save(checkpoint, shape, epoch + 1, net, optimiser, schedule, rng)
    return net.eval()


def _save(checkpoint: Path | None, shape: tuple, epoch: int, net: torch.nn.Module, optimiser: torch.optim.Optimizer,
          schedule: torch.optim.lr_scheduler.LRScheduler, rng: np.random.Generator) -> None:
    """The net, optimiser, schedule and random state after ``epoch`` into ``checkpoint`` (written
    whole or not at all), so a stopped run of the same ``shape`` loses one epoch at most."""
    if checkpoint is None:
        return
    state = {"shape": shape, "epoch": epoch, "net": net.state_dict(), "optimiser": optimiser.state_dict(),
             "schedule": schedule.state_dict(), "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state()}
    torch.save(state, checkpoint.with_suffix(".tmp"))
    checkpoint.with_suffix(".tmp").replace(checkpoint)


def _resume(checkpoint: Path | None, net: torch.nn.Module, optimiser: torch.optim.Optimizer,
            schedule: torch.optim.lr_scheduler.LRScheduler, rng: np.random.Generator, shape: tuple) -> int:
    """The epoch to start from: after the one saved in ``checkpoint`` (its state loaded) when it is
    of this run's shape, else 0."""
    if checkpoint is None or not checkpoint.is_file():
        return 0
    state = torch.load(checkpoint, weights_only=False)
    if tuple(state["shape"]) != shape:
        print(f"{checkpoint} is of another run {state['shape']}: starting afresh", flush=True)
        return 0
    net.load_state_dict(state["net"])
    optimiser.load_state_dict(state["optimiser"])
    schedule.load_state_dict(state["schedule"])
    rng.bit_generator.state = state["rng"]
    torch.set_rng_state(state["torch_rng"])
    print(f"going on from epoch {state['epoch']} of {checkpoint}", flush=True)
    return int(state["epoch"])


def export(net: torch.nn.Module, example: torch.Tensor, path: Path, dynamic: dict,
           trained: torch.nn.Module | None = None) -> None:
    """``net`` as the ONNX file ``path``, and the trained net's torch weights beside it
    (``shipped_nets.torch_weights``: ``trained``, where ``net`` only wraps it), to fine-tune from."""
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, example, str(path), dynamo=False, input_names=["image"], output_names=["out"],
                      dynamic_axes=dynamic, opset_version=13)
    torch.save((net if trained is None else trained).state_dict(), torch_weights(path))
    forget_models()


def export_detector(net: torch.nn.Module, path: Path) -> None:
    """The detector as ``path`` (any picture size) beside its torch weights."""
    export(net, torch.zeros(1, 3, WINDOW, WINDOW), path, {"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "h4", 3: "w4"}})


def export_classifier(net: torch.nn.Module, path: Path) -> None:
    """The classifier as ``path``, wrapped with the features the reader feeds it (``ReaderClassifier``),
    beside the classifier's own torch weights. The wrapper is put in eval mode too: the export
    leaves the net in the wrapper's mode, and a net left training would move its batch norms."""
    export(ReaderClassifier(net).eval(), torch.zeros(1, 3, DEFAULT_PARAMS.crop_px, DEFAULT_PARAMS.crop_px), path,
           {"image": {0: "n"}, "out": {0: "n"}}, trained=net)


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, required=True, metavar="DIR",
                        help="dev photo folder with boxes.csv and images/ (its fixed training half is used)")
    parser.add_argument("--train-photos", type=Path, metavar="DIR",
                        help="training photo folder with a split column (its train split is used)")
    parser.add_argument("--out", type=Path, default=MODELS, metavar="DIR", help="where the models go (default vision/models)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--synthetic", type=int, default=800, help="synthetic trays rendered (default 800)")
    parser.add_argument("--detector-epochs", type=int, default=30, help=f"of {DETECTOR_EPOCH} windows (default 30)")
    parser.add_argument("--classifier-epochs", type=int, default=32, help=f"of {CLASSIFIER_EPOCH} crops (default 32)")
    parser.add_argument("--die-crops", type=Path, metavar="DIR",
                        help="a folder of single-die photos (train-photos-2), every split, for the classifier only")
    parser.add_argument("--rendered", type=Path, metavar="DIR",
                        help="also train on the 3D scenes rendered into DIR by python -m vision.training.render3d")
    parser.add_argument("--render", type=int, default=0, metavar="N",
                        help="first render 3D scenes 0 to N-1 (seeded by --seed) into --rendered DIR, keeping those "
                             "already there")
    parser.add_argument("--classifier-width", type=int, default=1,
                        help="the classifier's channels, as a multiple of the shipped net's (default 1)")
    parser.add_argument("--keep-detector", action="store_true", help="train only the classifier, on the detector in --out")
    args = parser.parse_args()
    if args.render and not args.rendered:
        parser.error("--render needs --rendered DIR to render into")
    if args.render:
        render_folder(args.rendered, args.render, args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)
    p = ReaderParams(detector_model=args.out / "dice-detector.onnx", classifier_model=args.out / "dice-classifier.onnx",
                     trained_on=args.out / TRAINED_ON)
    dev = training_photos(args.photos)
    real = [(args.photos, scene) for scene in dev]
    if args.train_photos:
        real += [(args.train_photos, scene) for scene in train_split_photos(args.train_photos)]
    print(f"{len(real)} training photos with {sum(len(s.dice) for _, s in real)} dice", flush=True)
    flat = synthetic_scenes(args.synthetic, rng) + garbage_scenes(args.synthetic // 5, rng)
    in_3d = load_rendered(args.rendered) if args.rendered else []
    rendered = flat + in_3d
    print(f"{len(rendered)} rendered frames, {len(in_3d)} of them in 3D", flush=True)
    scenes = [scene for _, scene in real] + rendered
    detector_checkpoint = args.out / "detector-checkpoint.pt"
    if not args.keep_detector:
        weights = np.array([REAL_SHARE / len(real)] * len(real) + [(1 - REAL_SHARE) / len(rendered)] * len(rendered))
        detector = train_detector(scenes, weights / weights.sum(), args.detector_epochs, rng, p, detector_checkpoint,
                                  args.seed)
        export_detector(detector, p.detector_model)
        print(f"wrote {p.detector_model}", flush=True)
    cuts = ([CROPS_DEV] * len(dev) + [CROPS_REAL] * (len(real) - len(dev)) + [CROPS_RENDERED] * len(flat)
            + [CROPS_IN_3D] * len(in_3d))
    plan = [(scene, *cut) for scene, cut in zip(scenes, cuts)]
    single = [(args.die_crops, scene) for scene in die_crop_photos(args.die_crops)] if args.die_crops else []
    plan += [(scene, *CROPS_OF_ONE_DIE) for _, scene in single]
    crops, labels = crop_bank(plan, rng, p)
    mined, mined_labels = hard_negatives(scenes, rng, p)
    print(f"{len(crops)} crops, {int((labels == NOT_A_DIE).sum())} of them no die, and {len(mined)} hard negatives",
          flush=True)
    bank = (np.concatenate([crops, np.array(mined, np.uint8).reshape(-1, *crops.shape[1:])]),
            np.concatenate([labels, np.array(mined_labels, np.int64)]))
    checkpoint = args.out / "classifier-checkpoint.pt"
    classifier = train_classifier(bank, args.classifier_epochs, rng, args.classifier_width, checkpoint, args.seed)
    export_classifier(classifier, p.classifier_model)
    checkpoint.unlink(missing_ok=True)
    detector_checkpoint.unlink(missing_ok=True)
    lines = [f"{file_digest(folder / 'images' / scene.name)}  {scene.name}" for folder, scene in real + single]
    p.trained_on.write_text("\n".join(lines) + "\n")
    print(f"wrote {p.detector_model}, {p.classifier_model} and {p.trained_on}")


if __name__ == "__main__":
    main()
