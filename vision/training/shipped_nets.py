"""The shipped nets as torch modules, to fine-tune from rather than train again from scratch.

From now on each net's torch weights are kept beside its ONNX file (``dice-classifier.pt``); a net
shipped before that has only its ONNX file, whose export folded every batch norm into the
convolution before it. Such a net is read back exactly: each folded weight goes into its
convolution, and its batch norm is set to add the folded bias and otherwise pass its input through
(mean 0, variance 1 - eps, scale 1). That batch norm must then stay in eval mode while fine-tuning
(:func:`freeze_batch_norms`): its statistics mean nothing, and the net is already trained.

A classifier can also be started from made wider (:func:`widened_classifier`, ``finetune --widen``).
The leaning camera's classifier reads the render crops it trained on no better than those it never
saw (97.2 against 97.7 % of their faces, vision/models/README.md): it does not overfit, it lacks
room. Trained from scratch, a wider net must learn again all the shipped one knows; Net2WiderNet
(Chen, Goodfellow and Shlens 2016, "Net2Net") gives it that knowledge instead. Every layer's
channels are the shipped net's, then copies of channels drawn at random; the next layer's weights
on a channel and its copies split the shipped weight among them at random shares that sum to one,
so the wider net computes the same logits. The copies' own weights get ``NOISE`` of the layer's
spread, so fine-tuning can make them differ.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from torch import nn

from vision.read.params import MODELS
from vision.training.nets import CLASSIFIER_CHANNELS, Classifier, Detector, ReaderClassifier


def torch_weights(onnx_file: Path) -> Path:
    """Where a net's torch weights lie beside its ONNX file."""
    return onnx_file.with_suffix(".pt")


def _folded_layers(onnx_file: Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight, bias) of every Conv and Gemm of an ONNX file, in the order the graph runs them."""
    model = onnx.load(str(onnx_file))
    initialisers = {tensor.name: np.array(numpy_helper.to_array(tensor)) for tensor in model.graph.initializer}
    return [(initialisers[node.input[1]], initialisers[node.input[2]])
            for node in model.graph.node if node.op_type in ("Conv", "Gemm")]


def load_folded(net: nn.Module, onnx_file: Path) -> nn.Module:
    """``net`` with the weights of ``onnx_file`` (an export of a net of its shape), batch norms set to
    pass through (see the module's docstring). ValueError when the shapes do not match."""
    modules = list(net.modules())
    layers = [(i, m) for i, m in enumerate(modules) if isinstance(m, (nn.Conv2d, nn.Linear))]
    folded = _folded_layers(onnx_file)
    if len(folded) != len(layers):
        raise ValueError(f"{onnx_file} has {len(folded)} layers with weights, the net {len(layers)}")
    with torch.no_grad():
        for (index, layer), (weight, bias) in zip(layers, folded):
            if tuple(layer.weight.shape) != weight.shape:
                raise ValueError(f"{onnx_file}: a layer of shape {weight.shape} where the net has {tuple(layer.weight.shape)}")
            layer.weight.copy_(torch.from_numpy(weight))
            if layer.bias is not None:
                layer.bias.copy_(torch.from_numpy(bias))
                continue
            norm = modules[index + 1]
            if not isinstance(norm, nn.BatchNorm2d):
                raise ValueError(f"{onnx_file}: a convolution without bias and no batch norm after it")
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
    return net


def freeze_batch_norms(net: nn.Module) -> nn.Module:
    """Every batch norm of ``net`` in eval mode (its running statistics kept), after ``net.train()``."""
    for module in net.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()
    return net


def _shipped(net: nn.Module, onnx_file: Path, exported: nn.Module) -> nn.Module:
    """``net`` with the weights of its torch file beside ``onnx_file``, else read back from that ONNX
    file into ``exported`` (the module that was exported, holding ``net``), in eval mode."""
    weights = torch_weights(onnx_file)
    if weights.is_file():
        net.load_state_dict(torch.load(weights, weights_only=True))
    else:
        load_folded(exported, onnx_file)
    return net.eval()


def shipped_classifier(onnx_file: Path = MODELS / "dice-classifier.onnx") -> Classifier:
    """The classifier of ``onnx_file`` (exported with its features: ``ReaderClassifier``), as wide as it was made."""
    net = Classifier(classifier_width(onnx_file))
    return _shipped(net, onnx_file, ReaderClassifier(net))


def classifier_width(onnx_file: Path) -> int:
    """The ``Classifier`` width of the net in ``onnx_file`` (a wider one: ``finetune --widen``),
    from its first layer's channels in its torch weights, else in the ONNX file."""
    weights = torch_weights(onnx_file)
    channels = (torch.load(weights, weights_only=True)["features.0.0.weight"].shape[0] if weights.is_file()
                else _folded_layers(onnx_file)[0][0].shape[0])
    return channels // CLASSIFIER_CHANNELS[0]


def shipped_detector(onnx_file: Path = MODELS / "dice-detector.onnx") -> Detector:
    """The detector of ``onnx_file``."""
    net = Detector()
    return _shipped(net, onnx_file, net)


WIDENING_SEED = 1  # one widening for every fine-tuning seed, so their nets can be averaged
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


def widened_classifier(onnx_file: Path, width: int) -> Classifier:
    """The classifier of ``onnx_file`` made ``width`` wide (:func:`widened`), the same net at every
    call (``WIDENING_SEED``); ValueError for a width not above its own."""
    torch.manual_seed(WIDENING_SEED)
    return widened(shipped_classifier(onnx_file), width, np.random.default_rng(WIDENING_SEED))
