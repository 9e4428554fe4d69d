"""The two nets, in PyTorch, as trained; the reader runs their ONNX exports (:mod:`vision.read.network`)."""

from __future__ import annotations

import torch
from torch import nn

from vision.read.classify import CLASSES


def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class Detector(nn.Module):
    """Image (N, 3, H, W), H and W multiples of 16 -> maps (N, 4, H/4, W/4): centre logit, log size, offset x, y.

    A small encoder down to 1/16 (dilated there, so the view spans the biggest dice) and a
    decoder back to 1/4 that mixes in the finer features.
    """

    def __init__(self) -> None:
        super().__init__()
        self.s2 = block(3, 16, 2)
        self.s4 = nn.Sequential(block(16, 24, 2), block(24, 24))
        self.s8 = nn.Sequential(block(24, 32, 2), block(32, 32))
        self.s16 = nn.Sequential(block(32, 48, 2), block(48, 48, dilation=2), block(48, 48, dilation=2))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.d8 = block(48 + 32, 32)
        self.d4 = block(32 + 24, 24)
        self.head = nn.Conv2d(24, 4, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        d8 = self.d8(torch.cat([self.up(f16), f8], 1))
        d4 = self.d4(torch.cat([self.up(d8), f4], 1))
        maps = self.head(d4)
        offsets = torch.sigmoid(maps[:, 2:4])
        return torch.cat([maps[:, 0:2], offsets], 1)


CLASSIFIER_CHANNELS = (32, 48, 64, 96)  # of the narrowest classifier's layers (width 1)


class Classifier(nn.Module):
    """Crop (N, 3, crop_px, crop_px), 48 as shipped, -> logits (N, 7): face values 1-6, then "no die".

    ``width`` multiplies every layer's channels (the last layer then reads 96 x width features):
    twice as wide read about two points more of the dev photos' faces (``../shared/READER-NOTES.md``).
    """

    def __init__(self, width: int = 1) -> None:
        super().__init__()
        c1, c2, c3, c4 = (width * c for c in CLASSIFIER_CHANNELS)
        self.features = nn.Sequential(
            block(3, c1, 2),
            block(c1, c2),
            nn.MaxPool2d(2),
            block(c2, c3),
            block(c3, c3),
            nn.MaxPool2d(2),
            block(c3, c4),
            block(c4, c4),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.out = nn.Linear(c4, CLASSES)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.features(x))


class ReaderClassifier(nn.Module):
    """The classifier as the reader runs it: its 7 logits, then the features they are made from
    (N, 7 + features), so a table's own last layer can be fitted on them (vision.read.table_tuning)."""

    def __init__(self, net: Classifier) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = self.net.features(x)
        return torch.cat([self.net.out(features), features], 1)
