"""Run the reader's small neural nets through OpenCV's DNN module (ONNX files shipped in vision/models/).

OpenCV runs them on any CPU, the Pi's included, so the reader needs no deep-learning framework.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np


class VisionModelError(OSError):
    """A model file of the reader is missing or cannot be loaded."""


# OpenCV 5 runs an ONNX file on its new DNN engine unless told otherwise; its classic engine gives
# the same outputs (within 2e-6) in about half the classifier's time and 0.85 of the detector's on
# one thread (README, "Benchmarks"). OpenCV 4 has only the classic engine, and no such argument.
_ENGINE = (cv2.dnn.ENGINE_CLASSIC,) if hasattr(cv2.dnn, "ENGINE_CLASSIC") else ()


@lru_cache(maxsize=16)  # the shipped nets and a candidate's, as compare-vision reads both
def _load(path: Path) -> cv2.dnn.Net:
    if not path.is_file():
        raise VisionModelError(f"dice reader model {path} is missing: reinstall dice-companion or retrain it")
    try:
        net = cv2.dnn.readNetFromONNX(str(path), *_ENGINE)
    except cv2.error as error:
        raise VisionModelError(f"dice reader model {path} cannot be loaded: {error}") from None
    return net


def as_net_input(images: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) or one (H, W, 3) as the float32 NCHW batch the nets take (-0.5..0.5)."""
    batch = images[None] if images.ndim == 3 else images
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0 - 0.5


_RUNNING = threading.Lock()  # a loaded net holds its input between setInput and forward


def run(path: Path, batch: np.ndarray) -> np.ndarray:
    """The net's single output for an NCHW float32 batch; safe to call from several threads."""
    net = _load(path)
    with _RUNNING:
        net.setInput(batch)
        return np.array(net.forward())


def forget_models() -> None:
    """Drop the loaded nets, so model files written since are read afresh (training rewrites them)."""
    _load.cache_clear()
