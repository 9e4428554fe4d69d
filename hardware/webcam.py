"""A USB webcam through OpenCV's ``VideoCapture``."""

from __future__ import annotations

import cv2
import numpy as np

from hardware.camera import CameraError


class UsbCamera:
    """The webcam ``/dev/video{index}`` at about ``size`` (width, height); the driver may pick a near size."""

    def __init__(self, index: int = 0, size: tuple[int, int] = (1280, 720)) -> None:
        self.index = index
        self._capture = cv2.VideoCapture(index)
        if not self._capture.isOpened():
            self._capture.release()
            raise CameraError(f"no USB camera at /dev/video{index} (unplugged, or used by another program?)")
        self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
        self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self._capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued while the reader worked

    def frame(self) -> np.ndarray:
        ok, image = self._capture.read()
        if not ok or image is None:
            raise CameraError(f"USB camera /dev/video{self.index} gave no frame (unplugged?)")
        return image

    def close(self) -> None:
        self._capture.release()
