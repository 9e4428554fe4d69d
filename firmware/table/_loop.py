"""One event loop on one thread: button callbacks and the camera feed only put events on its queue.

The camera feed is paced by the loop: it grabs the next frame only after the loop has taken
the previous one, so frames never pile up however slow the reader is on a Pi.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from firmware.core.events import ButtonEvent, CameraFailed, DeviceFault, Event, FrameEvent
from hardware.buttons import Deliver, Press
from hardware.camera import Camera, CameraError

LOG = logging.getLogger("dice_companion")


class EventQueue:
    """The loop's inbox; safe to put into from any thread."""

    def __init__(self) -> None:
        self._queue: queue.Queue[Event] = queue.Queue()

    def put(self, event: Event) -> None:
        self._queue.put(event)

    def press(self, press: Press) -> None:
        """A button's callback: deliver the press."""
        self._queue.put(ButtonEvent(press))

    def get(self) -> Event:
        return self._queue.get()

    def guarded(self, deliver: Deliver, source: str) -> Deliver:
        """``deliver`` called from a device's thread, its failures put in the inbox as a
        DeviceFault instead of ending the thread (a keyboard or button thread that died would
        leave the companion deaf, never even seeing the end of input)."""

        def guarded_deliver(press: Press) -> None:
            try:
                deliver(press)
            except Exception as error:  # any failure: the thread must live on
                LOG.exception("%s failed on %s", source, press.name)
                self._queue.put(DeviceFault(source, str(error)))

        return guarded_deliver


class CameraFeed:
    """A thread that opens the camera, passes its frames on, and on a fault reports it, reopens and retries."""

    def __init__(
        self,
        open_camera: Callable[[], Camera],
        inbox: EventQueue,
        frame_interval_s: float = 0.0,
        retry_s: float = 1.0,
    ) -> None:
        self._open_camera = open_camera
        self._inbox = inbox
        self._frame_interval_s = frame_interval_s
        self._retry_s = retry_s
        self._taken = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def start(self) -> None:
        self._taken.set()
        self._thread.start()

    def taken(self) -> None:
        """The loop has handled the last frame (or fault): the feed may fetch the next."""
        self._taken.set()

    def stop(self) -> None:
        self._stopping.set()
        self._taken.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        camera: Camera | None = None
        while not self._stopping.is_set():
            self._taken.wait()
            self._taken.clear()
            if self._stopping.is_set():
                break
            try:
                camera = camera or self._open_camera()
                self._inbox.put(FrameEvent(camera.frame()))
            except Exception as error:  # any fault of a camera library must not end the feed
                if not isinstance(error, CameraError):
                    LOG.exception("camera fault")
                self._inbox.put(CameraFailed(str(error) or type(error).__name__))
                camera = _close(camera)
                self._stopping.wait(self._retry_s)
                continue
            self._stopping.wait(self._frame_interval_s)
        _close(camera)


def _close(camera: Camera | None) -> None:
    """Close a camera that failed or is no longer needed; its own close errors are only logged."""
    if camera is not None:
        try:
            camera.close()
        except Exception as error:  # a camera that failed may fail to close too; the feed goes on
            LOG.warning("closing the camera: %s", error)
    return None


class Handler(Protocol):
    """What the loop drives: the companion, or the dice lesson of ``calibrate --dice``."""

    finished: bool

    def handle(self, event: Event) -> None: ...


def run(companion: Handler, inbox: EventQueue, feed: CameraFeed | None = None) -> None:
    """Handle events until the companion (or lesson) is finished (QUIT)."""
    if feed is not None:
        feed.start()
    try:
        while not companion.finished:
            event = inbox.get()
            companion.handle(event)
            if feed is not None and isinstance(event, (FrameEvent, CameraFailed)):
                feed.taken()
    finally:
        if feed is not None:
            feed.stop()
