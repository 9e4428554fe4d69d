"""Average fine-tuned nets with the shipped ones, weight by weight: most of fine-tuning's gains, few of its losses.

    python -m vision.training.weight_average --out /tmp/candidate-s1 [--share 0.5] /tmp/cand-c1 /tmp/cand-e1

Every candidate of ``finetune`` or ``finetune_detector`` starts from the shipped nets with their
batch norms frozen, so a weight means the same thing in each of them and in the shipped net, and a
weighted average of them is a net again (weight-space ensembles: Wortsman et al. 2022, "Robust
fine-tuning of zero-shot models" and "Model soups"). Fine-tuned alone, issue 50's candidates read
the oblique renders 8-11 points better per die but moved a few dev throws the wrong way each; the
candidates named here are averaged alike, and the net written lies ``--share`` of the way from the
shipped net to that average. A net (classifier, detector) is averaged where every candidate holds
its torch weights, and left the shipped one where none does.
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Sequence
from pathlib import Path

import torch

from vision.read.params import MODELS, NET_FILES
from vision.training.shipped_nets import shipped_classifier, shipped_detector, torch_weights
from vision.training.train import TRAINED_ON, export_classifier, export_detector

NETS = {  # ReaderParams field: (the shipped net, how it is written)
    "classifier_model": (shipped_classifier, export_classifier),
    "detector_model": (shipped_detector, export_detector),
    "leaning_detector_model": (shipped_detector, export_detector),
    "leaning_classifier_model": (shipped_classifier, export_classifier),
    "lone_die_classifier_model": (shipped_classifier, export_classifier),
}


def averaged(start: dict[str, torch.Tensor], tuned: Sequence[dict[str, torch.Tensor]],
             share: float) -> dict[str, torch.Tensor]:
    """``start``'s weights moved ``share`` of the way to the mean of ``tuned``'s (whole numbers, such
    as a batch norm's count of batches, are kept as ``start`` has them)."""
    if not tuned or not 0 < share <= 1:
        raise ValueError("averaging needs one candidate or more and a share above 0 and at most 1")
    out = {}
    for name, weight in start.items():
        if not weight.is_floating_point():
            out[name] = weight
            continue
        mean = sum(state[name] for state in tuned) / len(tuned)
        out[name] = weight + share * (mean - weight)
    return out


def held_nets(candidates: Sequence[Path]) -> list[str]:
    """The nets (``NETS`` keys) every candidate holds torch weights of; ValueError where only some hold
    one (their average would mix a fine-tuned net with the shipped one unsaid) or none holds any."""
    fields = []
    for field, file in NET_FILES.items():
        holding = [torch_weights(folder / file).is_file() for folder in candidates]
        if any(holding) and not all(holding):
            missing = [str(folder) for folder, held in zip(candidates, holding) if not held]
            raise ValueError(f"no {torch_weights(Path(file)).name} in {', '.join(missing)}, where the other candidates have one")
        if all(holding):
            fields.append(field)
    if not fields:
        raise ValueError(f"none of {', '.join(map(str, candidates))} holds the torch weights of a net")
    return fields


def write_average(candidates: Sequence[Path], out: Path, share: float, start: Path = MODELS) -> list[str]:
    """The average of ``candidates`` as a candidate folder ``out`` (ONNX beside torch weights,
    ``recipe.txt``, the shipped ``trained-on.txt``: averaging adds no photo); the nets averaged."""
    if out.resolve() == start.resolve():
        raise ValueError(f"--out {out} is where the nets start from: write the average elsewhere, then copy it")
    fields = held_nets(candidates)
    out.mkdir(parents=True, exist_ok=True)
    for field in fields:
        file = NET_FILES[field]
        shipped, write = NETS[field]
        net = shipped(start / file)
        tuned = [torch.load(torch_weights(folder / file), weights_only=True) for folder in candidates]
        net.load_state_dict(averaged(net.state_dict(), tuned, share))
        write(net.eval(), out / file)
    shutil.copyfile(start / TRAINED_ON, out / TRAINED_ON)
    (out / "recipe.txt").write_text(
        f"{share:g} of the way from {start} to the average of {', '.join(map(str, candidates))} "
        f"({', '.join(NET_FILES[f] for f in fields)})\n")
    return fields


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("candidates", type=Path, nargs="+", metavar="CANDIDATE",
                        help="folders of fine-tuned nets (finetune's or finetune_detector's --out)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the average goes")
    parser.add_argument("--share", type=float, default=0.5,
                        help="how far from the shipped nets to the candidates' average (default 0.5; 1: the average itself)")
    parser.add_argument("--start", type=Path, default=MODELS, metavar="DIR",
                        help="the nets the candidates were fine-tuned from (default the shipped ones, vision/models)")
    args = parser.parse_args()
    try:
        fields = write_average(args.candidates, args.out, args.share, args.start)
    except (ValueError, OSError) as error:
        parser.error(str(error))
    print(f"wrote {', '.join(str(args.out / NET_FILES[f]) for f in fields)}")


if __name__ == "__main__":
    main()
