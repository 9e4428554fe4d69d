"""Make a classifier wider without changing what it reads, so that fine-tuning goes on from it with room to learn.

    python -m vision.training.widen --net vision/models/dice-classifier-leaning.onnx --width 2 --out DIR [--seed 1]
    python -m vision.training.finetune --start DIR ...

The leaning camera's classifier reads the render crops it trained on no better than those it never
saw (97.2 against 97.7 % of their faces, vision/models/README.md): it does not overfit, it lacks
room. Trained from scratch, a wider net must learn again all the shipped one knows; Net2WiderNet
(Chen, Goodfellow and Shlens 2016, "Net2Net") gives it that knowledge instead. Every layer's
channels are the shipped net's, then copies of channels drawn at random; the next layer's weights
on a channel and its copies split the shipped weight among them at random shares that sum to one,
so the wider net computes the same logits. The copies' own weights get ``NOISE`` of the layer's
spread, so fine-tuning can make them differ. Writes ``DIR/dice-classifier.onnx`` beside its torch
weights, ``trained-on.txt`` (no photo added) and ``recipe.txt``; ``finetune --start DIR`` then
fine-tunes it, ``weight_average --start DIR`` averages its fine-tuned seeds (one widening for all:
the same ``--seed`` here).
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import numpy as np
import torch
from torch import nn

from vision.read.params import MODELS
from vision.training.nets import Classifier
from vision.training.shipped_nets import shipped_classifier
from vision.training.train import TRAINED_ON, export_classifier

NOISE = 0.01  # of a layer's weights' standard deviation, on the copies' incoming weights
SHARES = (0.3, 1.0)  # a copy's share of an outgoing weight is drawn here, then the group's scaled to sum to 1


def _widened_block(small: nn.Sequential, big: nn.Sequential, copied: np.ndarray, shares: torch.Tensor,
                   rng: np.random.Generator) -> tuple[np.ndarray, torch.Tensor]:
    """Fill ``big`` (convolution, batch norm, ReLU) from ``small``, whose input channel each of
    ``big``'s input channels copies being ``copied`` and its share of their weights ``shares``; the
    same for ``big``'s output channels, returned."""
    conv, norm, wide_conv, wide_norm = small[0], small[1], big[0], big[1]
    own, wide = conv.out_channels, wide_conv.out_channels
    out = np.concatenate([np.arange(own), rng.integers(0, own, wide - own)])
    weight = (conv.weight[:, copied] * shares[None, :, None, None])[out].clone()
    copies = torch.from_numpy(np.arange(wide) >= own)
    weight[copies] += NOISE * float(conv.weight.std()) * torch.randn_like(weight[copies])
    wide_conv.weight.copy_(weight)
    for name in ("weight", "bias", "running_mean", "running_var"):
        getattr(wide_norm, name).copy_(getattr(norm, name)[out])
    out_shares = torch.zeros(wide)
    for channel in range(own):
        group = np.flatnonzero(out == channel)
        drawn = torch.from_numpy(rng.uniform(*SHARES, len(group))).float()
        out_shares[group] = drawn / drawn.sum()
    return out, out_shares


def widened(net: Classifier, width: int, rng: np.random.Generator) -> Classifier:
    """A ``Classifier(width)`` that reads as ``net`` does, but for the copies' noise (``NOISE``);
    ValueError for a width not above ``net``'s."""
    wide = Classifier(width)
    blocks = [m for m in net.features if isinstance(m, nn.Sequential)]
    wide_blocks = [m for m in wide.features if isinstance(m, nn.Sequential)]
    if wide_blocks[0][0].out_channels <= blocks[0][0].out_channels:
        raise ValueError(f"a width of {width} is no wider than the net's own")
    copied, shares = np.arange(3), torch.ones(3)
    with torch.no_grad():
        for small, big in zip(blocks, wide_blocks):
            copied, shares = _widened_block(small, big, copied, shares, rng)
        wide.out.weight.copy_(net.out.weight[:, copied] * shares[None, :])
        wide.out.bias.copy_(net.out.bias)
    return wide.eval()


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--net", type=Path, default=MODELS / "dice-classifier-leaning.onnx", metavar="FILE",
                        help="the classifier to widen, an ONNX file with its torch weights beside it "
                             "(default: the leaning camera's)")
    parser.add_argument("--width", type=int, default=2, help="channels of every layer, times the narrowest net's (default 2)")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="where the wider net goes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the copies drawn and their noise (default 1)")
    args = parser.parse_args()
    if not args.net.is_file():
        parser.error(f"--net {args.net}: no such file")
    torch.manual_seed(args.seed)
    net = shipped_classifier(args.net)
    try:
        wide = widened(net, args.width, np.random.default_rng(args.seed))
    except ValueError as error:
        parser.error(str(error))
    args.out.mkdir(parents=True, exist_ok=True)
    export_classifier(wide, args.out / "dice-classifier.onnx")
    shutil.copyfile(MODELS / TRAINED_ON, args.out / TRAINED_ON)
    (args.out / "recipe.txt").write_text(f"{args.net} widened to width {args.width} (Net2WiderNet), seed {args.seed}\n")
    print(f"wrote {args.out / 'dice-classifier.onnx'} (width {args.width})")


if __name__ == "__main__":
    main()
