"""Run the reader's small neural nets (ONNX files shipped in vision/models/).

ONNX Runtime, an inference library alone (the extra ``fast``, which the Pi's installer adds on a
64-bit system), runs them where it is installed: on one thread a 5-dice tray reads in less than half
the time it takes OpenCV's DNN module (README, "Benchmarks"), with the same readings. Without it
(PyPI has no wheel for a 32-bit system) OpenCV's DNN module runs them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

Net = Callable[[np.ndarray], np.ndarray]  # an NCHW float32 batch in, the net's single output out


class VisionModelError(OSError):
    """A model file of the reader is missing or cannot be loaded."""


# Without ONNX Runtime: OpenCV 5 runs an ONNX file on its new DNN engine unless told otherwise; its
# classic engine gives the same outputs (within 2e-6) in about half the classifier's time and 0.85
# of the detector's on one thread (README, "Benchmarks"). OpenCV 4 has only the classic engine, and
# no such argument.
_ENGINE = (cv2.dnn.ENGINE_CLASSIC,) if hasattr(cv2.dnn, "ENGINE_CLASSIC") else ()


@lru_cache(maxsize=16)  # the shipped nets and a candidate's, as compare-vision reads both
def _load(path: Path, threads: int) -> Net:
    if not path.is_file():
        raise VisionModelError(f"dice reader model {path} is missing: reinstall dice-companion or retrain it")
    try:
        import onnxruntime
    except ImportError:  # no wheel for this machine: OpenCV's DNN module runs the net
        return opencv_net(path)
    return _onnxruntime_net(onnxruntime, path, threads)


def _onnxruntime_net(onnxruntime, path: Path, threads: int) -> Net:  # noqa: ANN001 (the module, imported lazily)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = threads
    options.log_severity_level = 3  # errors only: its warnings about the graph are no player's business
    # Idle threads sleep instead of spinning for the next run: the Pi's cores also serve the camera,
    # the buttons and the display between throws.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as error:  # onnxruntime's own exception types live in a private module
        raise VisionModelError(f"dice reader model {path} cannot be loaded: {error}") from None
    name = session.get_inputs()[0].name

    def forward(batch: np.ndarray) -> np.ndarray:  # a session may run in several threads at once
        return session.run(None, {name: batch})[0]
    return forward


def opencv_net(path: Path) -> Net:
    """The net at ``path`` on OpenCV's DNN module (its classic engine where there are two)."""
    try:
        net = cv2.dnn.readNetFromONNX(str(path), *_ENGINE)
    except cv2.error as error:
        raise VisionModelError(f"dice reader model {path} cannot be loaded: {error}") from None
    running = threading.Lock()  # a loaded net holds its input between setInput and forward

    def forward(batch: np.ndarray) -> np.ndarray:
        with running:
            net.setInput(batch)
            return np.array(net.forward())
    return forward


def as_net_input(images: np.ndarray) -> np.ndarray:
    """uint8 BGR images (N, H, W, 3) or one (H, W, 3) as the float32 NCHW batch the nets take (-0.5..0.5)."""
    batch = images[None] if images.ndim == 3 else images
    # Bytes reordered first, then converted and scaled in place: the same floats in a tenth of the
    # time a strided float conversion and two new arrays took (1.6 ms of a 5-dice tray's 17).
    planes = np.ascontiguousarray(batch.transpose(0, 3, 1, 2)).astype(np.float32)
    planes /= 255.0
    planes -= 0.5
    return planes


def run(path: Path, batch: np.ndarray) -> np.ndarray:
    """The net's single output for an NCHW float32 batch, on as many threads as OpenCV is set to
    use (``cv2.setNumThreads``: bench-vision's ``--threads``); safe to call from several threads."""
    return np.asarray(_load(path, cv2.getNumThreads())(batch))


def forget_models() -> None:
    """Drop the loaded nets, so model files written since are read afresh (training rewrites them)."""
    _load.cache_clear()
