"""Fine-tune the shipped detector: the real photos it knows, the 3D renders and noise pictures it never saw.

    python -m vision.training.finetune_detector --photos ../shared/datasets/dice-photos \
        --train-photos ../shared/datasets/train-photos --rendered /tmp/rendered3d --out /tmp/detector-a \
        [--epochs 6] [--lr 5e-4] [--synthetic 200] [--seed 1] [--leaning] [--top-faces]

The shipped detector never saw a 3D render: under a leaning camera it places boxes off the die,
merges neighbours and misses dice (``eval-vision --why`` on the oblique renders). It starts from the
shipped net (with ``--leaning`` the leaning camera's; batch norms frozen) at a low learning rate, on
windows drawn from the training photos (``--real`` of them), the 3D renders (``--in-3d``) and the
rest from 2D trays and noise pictures.
With ``--top-faces`` the renders' dice are centred on their top faces (``render3d.load_rendered``):
under a leaning camera a die's box holds its side faces and its middle may lie on a neighbour
pressed against it, where its top face is never hidden. With ``--leaning`` the leaning camera's
own detector is fine-tuned further and written under its name (``dice-detector-leaning.onnx``), so
``compare-vision`` and ``weight_average`` take it as that camera's; as the reader hands it a picture
turned far side up (``detect.far_side_up``), it learns the renders and leaning 2D trays turned so,
and the real photos, taken from straight above, turned any way.
The training scenes held out for choosing (``crop_bank.is_choosing_scene``) are left out. The last
epoch is written (the learning rate has fallen to nothing by then) as ``dice-detector.onnx`` (with
``--leaning`` ``dice-detector-leaning.onnx``) beside its torch weights and ``recipe.txt``;
``compare-vision`` then weighs it with the shipped classifier or a candidate's.
"""

from __future__ import annotations

import argparse
import shutil
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

from vision.read.params import DEFAULT_PARAMS, MODELS, NET_FILES
from vision.training.crop_bank import is_choosing_scene
from vision.training.photos import synthetic_scenes, train_split_photos, training_photos
from vision.training.render3d import LABELS, load_rendered
from vision.training.shipped_nets import shipped_detector
from vision.training.train import TRAINED_ON, export_detector, garbage_scenes, train_detector


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, required=True, metavar="DIR", help="the dev photos (their training half)")
    parser.add_argument("--train-photos", type=Path, metavar="DIR", help="training photos (their train split)")
    parser.add_argument("--rendered", type=Path, action="append", default=[], metavar="DIR",
                        help="3D scenes of python -m vision.training.render3d (again for more folders)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the candidate goes")
    parser.add_argument("--epochs", type=int, default=6, help="of 4096 windows (default 6)")
    parser.add_argument("--lr", type=float, default=5e-4, help="the highest learning rate (default 5e-4)")
    parser.add_argument("--synthetic", type=int, default=200,
                        help="2D trays drawn, and a fifth as many noise pictures (default 200)")
    parser.add_argument("--real", type=float, default=0.5, help="share of windows from real photos (default 0.5)")
    parser.add_argument("--in-3d", type=float, default=0.3, help="share of windows from 3D renders (default 0.3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--threads", type=int, default=2, help="torch's threads (default 2)")
    parser.add_argument("--leaning", action="store_true",
                        help="fine-tune the leaning camera's detector (dice-detector-leaning.onnx) instead")
    parser.add_argument("--top-faces", action="store_true",
                        help="centre the renders' dice on their top faces (the leaning camera's detector)")
    args = parser.parse_args()
    if args.epochs < 1 or not 0 <= args.real + args.in_3d <= 1:
        parser.error("--epochs must be 1 or more, and --real and --in-3d shares that add up to at most 1")
    if args.top_faces and not args.rendered:
        parser.error("--top-faces centres the renders' dice: name their folders with --rendered")
    name = NET_FILES["leaning_detector_model" if args.leaning else "detector_model"]
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    started = time.monotonic()
    in_3d = []
    for folder in args.rendered:
        try:
            rendered = load_rendered(folder, args.top_faces)
        except ValueError as error:
            parser.error(str(error))
        if not rendered:
            parser.error(f"--rendered {folder}: no rendered scene there (render3d's {LABELS} and pictures)")
        in_3d += rendered
    real = training_photos(args.photos) + (train_split_photos(args.train_photos) if args.train_photos else [])
    if args.leaning:  # taken from straight above: no far side to turn to the top
        real = [replace(scene, up=None) for scene in real]
    flat = synthetic_scenes(args.synthetic, rng) + garbage_scenes(args.synthetic // 5, rng)
    groups = [([s for s in group if not is_choosing_scene(s.name)], share)
              for group, share in ((real, args.real), (in_3d, args.in_3d), (flat, 1 - args.real - args.in_3d))]
    scenes = [scene for group, _ in groups for scene in group]
    weights = np.concatenate([np.full(len(group), share / max(len(group), 1)) for group, share in groups])
    print(f"{len(scenes)} scenes ({', '.join(str(len(g)) for g, _ in groups)} real, 3D, 2D) "
          f"({time.monotonic() - started:.0f} s)", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    checkpoint = args.out / f"{Path(name).stem}-checkpoint.pt"  # one per net: never goes on from the other's
    net = train_detector(scenes, weights / weights.sum(), args.epochs, rng, DEFAULT_PARAMS, checkpoint, args.seed,
                         start=shipped_detector(MODELS / name), lr=args.lr, far_side_at_top=args.leaning)
    onnx_file = args.out / name
    export_detector(net, onnx_file)
    shutil.copyfile(MODELS / TRAINED_ON, args.out / TRAINED_ON)
    renders = (f"{len(in_3d)} renders in {', '.join(map(str, args.rendered))}{', top faces' if args.top_faces else ''}"
               if in_3d else "no renders")
    (args.out / "recipe.txt").write_text(
        f"detector fine-tuned from {MODELS / name} for {args.epochs} epochs at lr {args.lr}, windows real {args.real} "
        f"3D {args.in_3d} ({renders}), 2D {args.synthetic}, seed {args.seed}"
        f"{', far side at the top' if args.leaning else ''}\n")
    checkpoint.unlink(missing_ok=True)
    print(f"wrote {onnx_file} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
