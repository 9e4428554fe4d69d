"""Fine-tune the shipped classifier on a crop bank: one experiment in minutes, not an hour from scratch.

    python -m vision.training.finetune --bank /tmp/crop-bank.npz [--bank ...] --out /tmp/candidate-a [--seed 1]
        [--epochs 6] [--lr 3e-4] [--distill 1.0] [--mix dev=2,train-photos=2,render3d=2] [--widen 2]

Starts from the shipped net (``vision/models/dice-classifier.onnx``, or ``--start DIR``'s), its batch
norms frozen (``shipped_nets.freeze_batch_norms``), at a low learning rate that falls to nothing
over the run; with ``--widen W`` that net made W times as wide first, reading as it did
(``shipped_nets.widened_classifier``: one widening for every seed, so the seeds can be averaged
with ``weight_average --start`` one of them). Each epoch draws ``EPOCH`` crops of the bank's
training scenes, kinds weighed by ``--mix``; a crop whose far side is unknown is also turned a
random quarter (any turn is right for it), every crop is mirrored at random and recoloured (``samples.recolour``; with ``--true-colours``
``samples.true_colours``, which keeps each crop's colours and changes its light less). With ``--distill W``
the real photos' crops also learn the shipped net's own probabilities (weight W, temperature
``DISTILL_TEMPERATURE``), so what it read right it keeps reading right. After every epoch the
crops held out for choosing (``crop_bank.is_choosing_scene``) are read, and the epoch that reads
them best (``choosing_score``) is the one written (never the start: the shipped net trained on
those crops, so its figures there are flattered; ``compare-vision`` weighs it against the candidate), as ONNX beside its torch weights, with
``recipe.txt`` saying how it was made. A checkpoint after every epoch lets the same command go on
after a stop.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from vision.read.classify import NOT_A_DIE
from vision.read.params import MODELS
from vision.training.crop_bank import KINDS, REAL_KINDS, CropBank
from vision.training.nets import Classifier
from vision.training.samples import Look, recolour, true_colours
from vision.training.shipped_nets import freeze_batch_norms, shipped_classifier, widened_classifier
from vision.training.train import TRAINED_ON, _resume, _save, export_classifier, to_tensor

EPOCH = 24576  # crops drawn an epoch
BATCH = 128
DISTILL_TEMPERATURE = 2.0
DEFAULT_MIX = {"dev": 2.0, "train-photos": 2.0, "die-crops": 0.5, "synthetic": 1.0, "garbage": 0.3,
               "render3d": 2.0, "false-candidate": 1.0}
# The kinds the choice weighs alike: the real photos, the 3D renders (the far-side frame) and no-die crops.
CHOOSING_KINDS = ("dev", "train-photos", "render3d", "false-candidate")


def parse_mix(text: str) -> dict[str, float]:
    """``kind=weight,...`` over DEFAULT_MIX; argparse.ArgumentTypeError naming a wrong kind or weight."""
    mix = dict(DEFAULT_MIX)
    for part in filter(None, text.split(",")):
        kind, _, weight = part.partition("=")
        if kind not in KINDS:
            raise argparse.ArgumentTypeError(f"no crops of kind {kind!r}: choose from {', '.join(KINDS)}")
        try:
            mix[kind] = float(weight)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{kind}'s weight must be a number, got {weight!r}") from None
        if not mix[kind] >= 0:
            raise argparse.ArgumentTypeError(f"{kind}'s weight must be 0 or more, got {weight!r}")
    return mix


def draw_weights(bank: CropBank, mix: dict[str, float]) -> np.ndarray:
    """Each training crop's chance of being drawn: its kind's weight shared among that kind's crops."""
    weights = np.zeros(len(bank))
    for kind, weight in mix.items():
        mask = bank.of_kind(kind) & ~bank.choosing
        if mask.any():
            weights[mask] = weight / mask.sum()
    return weights / weights.sum()


def augmented(bank: CropBank, index: np.ndarray, rng: np.random.Generator,
              look: Look = recolour) -> torch.Tensor:
    """The crops at ``index``, each mirrored at random, turned a random quarter where its far side is
    unknown, and recoloured by ``look``."""
    out = []
    for i in index:
        crop = bank.crops[i]
        if not bank.far_side_known[i]:
            crop = np.rot90(crop, int(rng.integers(4)))
        if rng.random() < 0.5:
            crop = crop[:, ::-1]
        out.append(look(np.ascontiguousarray(crop), rng))
    return to_tensor(out)


def loss_of(net: Classifier, x: torch.Tensor, labels: torch.Tensor, teacher: torch.Tensor, real: torch.Tensor,
            distill: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Cross-entropy on the labels, plus ``distill`` x the divergence from the shipped net's
    probabilities on real photos' crops; and the logits."""
    logits = net(x)
    loss = F.cross_entropy(logits, labels, label_smoothing=0.02)
    if distill and bool(real.any()):
        soft = teacher[real].clamp(min=1e-6) ** (1 / DISTILL_TEMPERATURE)
        soft = soft / soft.sum(1, keepdim=True)
        student = F.log_softmax(logits[real] / DISTILL_TEMPERATURE, 1)
        loss = loss + distill * DISTILL_TEMPERATURE**2 * F.kl_div(student, soft, reduction="batchmean")
    return loss, logits


@torch.no_grad()
def choosing_figures(net: Classifier, bank: CropBank) -> dict[str, float]:
    """Accuracy (%) on the crops held out for choosing, per kind, as the reader cuts them (no augmentation)."""
    net.eval()
    index = np.flatnonzero(bank.choosing)
    predicted = np.concatenate([net(to_tensor(list(bank.crops[index[i : i + 512]]))).argmax(1).numpy()
                                for i in range(0, len(index), 512)] or [np.zeros(0, np.int64)])
    right = predicted == bank.labels[index]
    kinds = bank.kinds[index]
    return {kind: float(100 * right[kinds == k].mean()) for k, kind in enumerate(KINDS) if (kinds == k).any()}


def choosing_score(figures: dict[str, float]) -> float:
    """The mean accuracy over CHOOSING_KINDS present: the epoch with the highest is written."""
    present = [figures[k] for k in CHOOSING_KINDS if k in figures]
    return float(np.mean(present)) if present else 0.0


def fine_tune(bank: CropBank, start: Classifier, epochs: int, lr: float, distill: float, mix: dict[str, float],
              rng: np.random.Generator, checkpoint: Path | None = None, seed: int = 1,
              log: Callable[[str], None] = print,
              look: Look = recolour,
              ) -> tuple[Classifier, list[dict[str, float]]]:
    """The best epoch's net by ``choosing_score`` (never the start, which trained on the held-out
    crops) and every epoch's choosing figures, the start's first (for the record); each crop
    augmented by ``look`` (:func:`augmented`)."""
    net = copy.deepcopy(start)
    teacher = torch.from_numpy(bank.teacher.astype(np.float32))
    optimiser = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    steps = EPOCH // BATCH
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, lr, total_steps=epochs * steps, pct_start=0.15)
    shape = ("fine-tune", epochs, lr, distill, sorted(mix.items()), len(bank),
             hashlib.sha256(bank.labels.tobytes()).hexdigest()[:16], seed,
             getattr(look, "__qualname__", repr(look)))  # a checkpoint of another look is not resumed
    first = _resume(checkpoint, net, optimiser, schedule, rng, shape)
    weights = draw_weights(bank, mix)
    real_kinds = np.isin(bank.kinds, [KINDS.index(k) for k in REAL_KINDS])
    progress = checkpoint.with_name("progress.pt") if checkpoint else None
    if first and progress and progress.is_file():  # the epochs before the stop, and the best of them
        kept = torch.load(progress, weights_only=False)
        history, best = kept["history"], copy.deepcopy(start)
        best.load_state_dict(kept["best"])
    else:
        history, best = [choosing_figures(start, bank)], copy.deepcopy(start)
        log(f"epoch 0 (the start): {_figures_line(history[0])}")
    best_score = max((choosing_score(f) for f in history[1:]), default=-1.0)
    for epoch in range(first, epochs):
        started, total = time.monotonic(), 0.0
        net.train()
        freeze_batch_norms(net)
        for _ in range(steps):
            index = rng.choice(len(bank), BATCH, p=weights)
            loss, _ = loss_of(net, augmented(bank, index, rng, look), torch.from_numpy(bank.labels[index].astype(np.int64)),
                              teacher[index], torch.from_numpy(real_kinds[index]), distill)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item()
        figures = choosing_figures(net, bank)
        history.append(figures)
        log(f"epoch {epoch + 1}/{epochs}: loss {total / steps:.4f} {_figures_line(figures)} "
            f"({time.monotonic() - started:.0f} s)")
        if choosing_score(figures) > best_score:
            best, best_score = copy.deepcopy(net), choosing_score(figures)
        if progress:
            torch.save({"history": history, "best": best.state_dict()}, progress)
        _save(checkpoint, shape, epoch + 1, net, optimiser, schedule, rng)
    return best.eval(), history


def _figures_line(figures: dict[str, float]) -> str:
    return (" ".join(f"{kind} {value:.1f}" for kind, value in figures.items())
            + f" score {choosing_score(figures):.2f}")


def write_candidate(net: Classifier, out: Path, recipe: str) -> None:
    """The net as ``out/dice-classifier.onnx`` beside its torch weights, ``recipe.txt``, and the
    shipped ``trained-on.txt`` (fine-tuning adds no photo: the bank's photos are the shipped nets')."""
    out.mkdir(parents=True, exist_ok=True)
    onnx_file = out / "dice-classifier.onnx"
    export_classifier(net, onnx_file)
    shutil.copyfile(MODELS / TRAINED_ON, out / TRAINED_ON)
    (out / "recipe.txt").write_text(recipe)


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bank", type=Path, required=True, action="append", metavar="FILE",
                        help="a crop bank (python -m vision.training.crop_bank); given again, the banks are joined")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the candidate goes")
    parser.add_argument("--start", type=Path, default=MODELS, metavar="DIR",
                        help="the nets to start from (default the shipped ones, vision/models)")
    parser.add_argument("--epochs", type=int, default=6, help=f"of {EPOCH} crops (default 6)")
    parser.add_argument("--lr", type=float, default=3e-4, help="the highest learning rate (default 3e-4)")
    parser.add_argument("--distill", type=float, default=0.0, metavar="W",
                        help="weight of the shipped net's probabilities on real photos' crops (default 0: none)")
    parser.add_argument("--mix", type=parse_mix, default=DEFAULT_MIX, metavar="KIND=W,...",
                        help="how often each kind of crop is drawn, over the default "
                             + ",".join(f"{k}={v:g}" for k, v in DEFAULT_MIX.items()))
    parser.add_argument("--seed", type=int, default=1, help="seed of every random choice (default 1)")
    parser.add_argument("--true-colours", action="store_true",
                        help="crops keep their colours, light changed less (samples.true_colours), "
                             "rather than channels swapped and colours inverted at random (samples.recolour)")
    parser.add_argument("--widen", type=int, default=0, metavar="W",
                        help="start from the net made W times as wide as the narrowest (2: twice; default: as it is)")
    parser.add_argument("--threads", type=int, default=2, help="torch's threads (default 2; 1 when two runs share two cores)")
    args = parser.parse_args()
    if args.epochs < 1 or not args.lr > 0 or args.distill < 0 or args.widen < 0:
        parser.error("--epochs must be 1 or more, --lr above 0, --distill and --widen 0 or more")
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)
    started = time.monotonic()
    bank = CropBank.joined([CropBank.load(path) for path in args.bank])
    banks = " + ".join(map(str, args.bank))
    print(f"{len(bank)} crops in {banks}, {int(bank.choosing.sum())} held out for choosing, "
          f"{int((bank.labels == NOT_A_DIE).sum())} of no die", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    start_file = args.start / "dice-classifier.onnx"
    try:
        start = widened_classifier(start_file, args.widen) if args.widen else shipped_classifier(start_file)
    except ValueError as error:
        parser.error(f"--widen {args.widen}: {error}")
    torch.manual_seed(args.seed)  # after the widening's own seed
    net, history = fine_tune(bank, start, args.epochs, args.lr,
                             args.distill, args.mix, rng, args.out / "checkpoint.pt", args.seed,
                             log=lambda line: print(line, flush=True),
                             look=true_colours if args.true_colours else recolour)
    best = 1 + int(np.argmax([choosing_score(f) for f in history[1:]]))
    recipe = (f"fine-tuned from {args.start}{f' made {args.widen} wide' if args.widen else ''} on {banks} ({len(bank)} crops): epochs {args.epochs}, lr {args.lr}, "
              f"distill {args.distill}, {'colours kept' if args.true_colours else 'colours swapped'}, mix {','.join(f'{k}={v:g}' for k, v in args.mix.items())}, seed {args.seed}\n"
              + "".join(f"epoch {i}: {_figures_line(f)}\n" for i, f in enumerate(history))
              + f"chosen: epoch {best}\n")
    write_candidate(net, args.out, recipe)
    (args.out / "checkpoint.pt").unlink(missing_ok=True)
    (args.out / "progress.pt").unlink(missing_ok=True)
    print(f"chosen epoch {best}; wrote {args.out / 'dice-classifier.onnx'} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
