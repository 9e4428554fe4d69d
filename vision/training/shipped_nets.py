"""The shipped nets as torch modules, to fine-tune from rather than train again from scratch.

From now on each net's torch weights are kept beside its ONNX file (``dice-classifier.pt``); a net
shipped before that has only its ONNX file, whose export folded every batch norm into the
convolution before it. Such a net is read back exactly: each folded weight goes into its
convolution, and its batch norm is set to add the folded bias and otherwise pass its input through
(mean 0, variance 1 - eps, scale 1). That batch norm must then stay in eval mode while fine-tuning
(:func:`freeze_batch_norms`): its statistics mean nothing, and the net is already trained.
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
    """The ``Classifier`` width of the net in ``onnx_file`` (a wider one: ``vision.training.widen``),
    from its first layer's channels in its torch weights, else in the ONNX file."""
    weights = torch_weights(onnx_file)
    channels = (torch.load(weights, weights_only=True)["features.0.0.weight"].shape[0] if weights.is_file()
                else _folded_layers(onnx_file)[0][0].shape[0])
    return channels // CLASSIFIER_CHANNELS[0]


def shipped_detector(onnx_file: Path = MODELS / "dice-detector.onnx") -> Detector:
    """The detector of ``onnx_file``."""
    net = Detector()
    return _shipped(net, onnx_file, net)
