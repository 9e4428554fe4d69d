"""The Raspberry Pi camera through picamera2 (installed by apt on Raspberry Pi OS, imported only here)."""

from __future__ import annotations

import numpy as np

from hardware.camera import CameraError

FRAME_TIMEOUT_S = 2.0  # a camera that gives no frame for this long has stopped (picamera2 would wait forever)
INSTALL_HINT = (
    "on Raspberry Pi OS: sudo apt install python3-picamera2, and make the venv with --system-site-packages"
)


class PiCamera:
    """The Pi camera streaming ``size`` (width, height) frames.

    picamera2's "RGB888" format lays each pixel out as B, G, R: exactly OpenCV's BGR order.
    """

    def __init__(self, size: tuple[int, int] = (1280, 960)) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as error:
            raise CameraError(f"picamera2 is not installed: {INSTALL_HINT}") from error
        try:
            self._camera = Picamera2()
        except Exception as error:  # picamera2 raises IndexError or RuntimeError when no camera is attached
            raise CameraError(f"no Pi camera found (is the ribbon cable seated?): {error}") from error
        try:
            self._camera.configure(self._camera.create_video_configuration(main={"size": size, "format": "RGB888"}))
            self._camera.start()
        except Exception as error:  # libcamera's errors come as several types
            self._camera.close()
            raise CameraError(f"cannot start the Pi camera at {size[0]}x{size[1]}: {error}") from error

    def frame(self) -> np.ndarray:
        try:
            job = self._camera.capture_array("main", wait=False)
            return self._camera.wait(job, timeout=FRAME_TIMEOUT_S)
        except TimeoutError as error:
            raise CameraError(f"the Pi camera gave no frame for {FRAME_TIMEOUT_S:g} s (cable loose?)") from error
        except Exception as error:  # a camera that stops mid-game
            raise CameraError(f"the Pi camera gave no frame: {error}") from error

    def close(self) -> None:
        try:
            self._camera.close()
        except Exception as error:  # closing a camera that already failed
            raise CameraError(f"cannot close the Pi camera: {error}") from error
