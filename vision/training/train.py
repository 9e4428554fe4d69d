"""Train the reader's detector and classifier and write them to vision/models/ as ONNX.

    pip install '.[train]'
    python -m vision.training.train --photos ../shared/datasets/dice-photos [--seed 1]

Data: synthetic trays from vision.synthetic, and the training half of the dev photos (a fixed
half, chosen by a hash of the file name; see ``is_training_photo``). The SHA-256 of every photo
trained on is written to ``trained-on.txt`` beside the models, so ``eval-vision`` measures only
photos the nets never saw. Takes about 35 minutes on two cores (15 with --keep-detector).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.classify import NOT_A_DIE, die_crop
from vision.detect import find_candidates
from vision.evaluation import file_digest
from vision.network import as_net_input, forget_models
from vision.params import MODELS, ReaderParams
from vision.training.nets import Classifier, Detector
from vision.training.photos import Scene, near_a_die, synthetic_scenes, training_photos
from vision.training.samples import WINDOW, detector_sample, die_crops, recolour

TRAINED_ON = "trained-on.txt"
REAL_WEIGHT = 3  # the detector sees each real photo this many times as often as a synthetic tray
MAX_HARD_NEGATIVES = 10  # per scene: false candidates of the trained detector


def garbage_scenes(count: int, rng: np.random.Generator) -> list[Scene]:
    """Frames with no dice: flat colours, gradients, noise."""
    scenes = []
    for index in range(count):
        h, w = 480, 640
        kind = index % 3
        if kind == 0:
            image = np.full((h, w, 3), rng.integers(0, 256, 3), np.uint8)
        elif kind == 1:
            ramp = np.linspace(0, 1, w, dtype=np.float32)[None, :, None]
            image = (rng.uniform(0, 255, 3) * (1 - ramp) + rng.uniform(0, 255, 3) * ramp).repeat(h, 0)
            image = image.astype(np.uint8)
        else:
            image = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        scenes.append(Scene(f"garbage-{index}", image, ()))
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


def train_detector(scenes: list[Scene], epochs: int, rng: np.random.Generator, p: ReaderParams) -> Detector:
    net = Detector()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    per_epoch = 2 * len(scenes)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=epochs * (per_epoch // 32 + 1))
    for epoch in range(epochs):
        started, total = time.time(), 0.0
        order = rng.permutation(per_epoch) % len(scenes)
        net.train()
        for batch_start in range(0, per_epoch, 32):
            samples = [detector_sample(scenes[i], rng, p) for i in order[batch_start : batch_start + 32]]
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
            total += loss.item() * len(samples)
        print(f"detector epoch {epoch + 1}/{epochs}: loss {total / per_epoch:.4f} ({time.time() - started:.0f} s)",
              flush=True)
    return net.eval()


def hard_negatives(scenes: list[Scene], rng: np.random.Generator, p: ReaderParams) -> tuple[list, list]:
    """Crops of the trained detector's candidates that are no die (class 6), up to MAX_HARD_NEGATIVES a scene."""
    crops, labels = [], []
    for scene in scenes:
        found = [c for c in find_candidates(scene.image, p) if not near_a_die(scene, c.centre)]
        for c in found[:MAX_HARD_NEGATIVES]:
            for _ in range(2):
                crop = die_crop(scene.image, c.centre, c.size * rng.uniform(0.9, 1.1), p,
                                angle=float(rng.uniform(0, 360)))
                crops.append(recolour(crop, rng))
                labels.append(NOT_A_DIE)
    return crops, labels


def train_classifier(
    scenes: list[Scene], extra: tuple[list, list], epochs: int, rng: np.random.Generator, p: ReaderParams
) -> Classifier:
    net = Classifier()
    optimiser = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    schedule = None
    for epoch in range(epochs):
        started = time.time()
        crops, labels = list(extra[0]), list(extra[1])
        for scene in scenes:
            real = not scene.name.startswith(("synthetic", "garbage"))
            c, l = die_crops(scene, 16 if real else 3, 8 if real else 2, rng, p)
            crops += c
            labels += l
        order = rng.permutation(len(crops))
        if schedule is None:
            steps = epochs * (len(crops) // 128 + 2)
            schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, 3e-3, total_steps=steps)
        net.train()
        total, right = 0.0, 0
        for batch_start in range(0, len(order), 128):
            index = order[batch_start : batch_start + 128]
            x = to_tensor([crops[i] for i in index])
            y = torch.tensor([labels[i] for i in index])
            out = net(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.02)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(index)
            right += int((out.argmax(1) == y).sum())
        print(f"classifier epoch {epoch + 1}/{epochs}: loss {total / len(order):.4f} "
              f"train accuracy {100 * right / len(order):.1f}% on {len(order)} crops ({time.time() - started:.0f} s)",
              flush=True)
    return net.eval()


def export(net: torch.nn.Module, example: torch.Tensor, path: Path, dynamic: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, example, str(path), dynamo=False, input_names=["image"], output_names=["out"],
                      dynamic_axes=dynamic, opset_version=13)
    forget_models()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, required=True, help="dev photo folder with boxes.csv and images/")
    parser.add_argument("--out", type=Path, default=MODELS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--synthetic", type=int, default=600)
    parser.add_argument("--detector-epochs", type=int, default=80)
    parser.add_argument("--classifier-epochs", type=int, default=50)
    parser.add_argument("--keep-detector", action="store_true", help="train only the classifier, on the detector in --out")
    args = parser.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(2)
    rng = np.random.default_rng(args.seed)
    p = ReaderParams(detector_model=args.out / "dice-detector.onnx", classifier_model=args.out / "dice-classifier.onnx",
                     trained_on=args.out / TRAINED_ON)
    real = training_photos(args.photos)
    print(f"{len(real)} training photos with {sum(len(s.dice) for s in real)} dice", flush=True)
    scenes = real + synthetic_scenes(args.synthetic, rng) + garbage_scenes(args.synthetic // 10, rng)
    if not args.keep_detector:
        detector = train_detector(real * REAL_WEIGHT + scenes[len(real):], args.detector_epochs, rng, p)
        export(detector, torch.zeros(1, 3, WINDOW, WINDOW), p.detector_model,
               {"image": {0: "n", 2: "h", 3: "w"}, "out": {0: "n", 2: "h4", 3: "w4"}})
    negatives = hard_negatives(scenes, rng, p)
    print(f"{len(negatives[0])} hard negative crops", flush=True)
    classifier = train_classifier(scenes, negatives, args.classifier_epochs, rng, p)
    export(classifier, torch.zeros(1, 3, p.crop_px, p.crop_px), p.classifier_model,
           {"image": {0: "n"}, "out": {0: "n"}})
    lines = [f"{file_digest(args.photos / 'images' / scene.name)}  {scene.name}" for scene in real]
    p.trained_on.write_text("\n".join(lines) + "\n")
    print(f"wrote {p.detector_model}, {p.classifier_model} and {p.trained_on}")


if __name__ == "__main__":
    main()
