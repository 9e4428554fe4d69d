"""``dice-companion doctor``: every part the companion needs, checked where it stands (on the Pi, or on
simulated hardware), one line each: ``ok``, or what is wrong and what to do about it. The installer
ends with it, and a person runs it when the table does not behave; an unplugged part is a line,
never a traceback. It opens the devices with the companion's own code, so it sees what ``run`` sees.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TextIO

import cv2
import numpy as np

from firmware.calibration import camera_lean
from firmware.calibration.tray_file import TRAY_NAME, load_tray
from firmware.config import Config, ConfigError, load_config
from firmware.device_config import ButtonConfig, CameraConfig, DisplayConfig, WebConfig
from firmware.devices import camera_opener, open_buttons, open_display
from firmware.drawing.screens import draw, footer, line, title
from firmware.journal.journal import JOURNAL_NAME, EmptyJournal, Journal, JournalError
from hardware.buttons import BUTTONS, ButtonsError, Deliver, Press
from hardware.camera import Camera, CameraError
from hardware.display import Display, DisplayError
from hardware.keyboard import single_keys
from vision.read.tray import TrayError

PARTS = ("configuration", "data folder", "display", "camera", "buttons", "tray", "web page")
LEAST_FREE_BYTES = 100 << 20  # a refused read keeps its picture (~0.3 MB) and a game's journal takes kilobytes:
# under 100 MB free, a season of refused reads fills the card and the journal's next write fails
FRAMES_LOOKED_AT = 8  # the last one is judged: a Pi camera's first frames are dark while its exposure settles
BLACK_LEVEL = 10.0  # mean grey (of 255) under which a frame is black: a lens cap, no light, a camera sending zeros
SHARPNESS_WIDTH_PX = 640  # frames are judged at this width, so one threshold serves every resolution
BLUR_THRESHOLD = 4.0  # variance of the Laplacian (grey, 640 px wide) under which a frame is blurred. Sharp trays
# measure 6.7 and up (the dev photos: 5th percentile 10, median 59; the synthetic tray 13 to 660); the same
# pictures blurred by a Gaussian of sigma 3 px measure 0.5 to 2.5: a lens out of focus, or fogged
PRESS_WAIT_S = 10.0  # how long --buttons waits for each press
I2C_BUS = "/dev/i2c-{port}"  # the device file of an I2C bus, present once I2C is turned on
STOP_SERVICE = "a companion already running? sudo systemctl stop dice-companion"


@dataclass(frozen=True)
class Finding:
    """One part's verdict: ``trouble`` says what is wrong and what to do (empty: ok); ``note`` says
    what an ok part was found to be."""

    part: str
    trouble: str = ""
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.trouble

    def line(self) -> str:
        """The part's line: ``part: ok; note`` or ``part: trouble``."""
        if self.trouble:
            return f"{self.part}: {self.trouble}"
        return f"{self.part}: ok" + (f"; {self.note}" if self.note else "")


class Closable(Protocol):
    def close(self) -> None: ...


@dataclass(frozen=True)
class Openers:
    """How the doctor opens the devices: by default the companion's own code (an OLED keeps the doctor's
    last picture after it ends); tests hand in simulated ones (mock pins, a keyboard on a string)."""

    display: Callable[[DisplayConfig], Display] = lambda config: open_display(config, persist=True)
    buttons: Callable[[ButtonConfig, Deliver], Closable] = open_buttons
    camera: Callable[[CameraConfig], Callable[[], Camera] | None] = camera_opener


@dataclass(frozen=True)
class DoctorScreen:
    """The doctor's picture on the display: a title and up to three lines."""

    heading: str
    lines: tuple[str, ...]

    def paint(self, canvas: object) -> None:
        title(canvas, self.heading)  # type: ignore[arg-type]
        for row, words in enumerate(self.lines):
            line(canvas, row, words)  # type: ignore[arg-type]
        footer(canvas, "dice-companion doctor")  # type: ignore[arg-type]


TEST_SCREEN = DoctorScreen("DISPLAY TEST", ("If you can read this,", "the display works.", "#" * 21))


def doctor(config_path: Path, buttons: bool = False, out: TextIO | None = None, tell: TextIO | None = None,
           openers: Openers = Openers(), press_wait_s: float = PRESS_WAIT_S) -> int:
    """Print every part's line to ``out`` as it is checked (``buttons``: ask for each press, on the
    display and on ``tell``, waiting ``press_wait_s`` for each); the exit status: 0 when all are ok."""
    out = out or sys.stdout
    ok = True
    for finding in findings(config_path, openers, PressQuestions(tell or sys.stderr, press_wait_s) if buttons else None):
        print(finding.line(), file=out, flush=True)
        ok = ok and finding.ok
    return 0 if ok else 1


def findings(config_path: Path, openers: Openers, questions: PressQuestions | None) -> Iterator[Finding]:
    """Each part's finding, in the order of :data:`PARTS`; without a configuration, none is checked."""
    try:
        config = load_config(config_path)
    except ConfigError as error:
        yield Finding("configuration", f"{error}: fix it (firmware/pi/dice-companion.toml explains every key)")
        yield from (Finding(part, "not checked: the configuration is refused") for part in PARTS[1:])
        return
    yield Finding("configuration", note=str(config_path))
    yield guarded("data folder", lambda: check_data_folder(config.data_dir))
    display: list[Display] = []  # the display, once it showed the test screen: --buttons asks there too
    yield guarded("display", lambda: check_display(config.display, openers.display, display))
    try:
        yield guarded("camera", lambda: check_camera(config.camera, openers.camera))
        yield guarded("buttons", lambda: check_buttons(config.buttons, openers.buttons, questions, display))
    finally:
        for shown in display:
            with contextlib.suppress(Exception):  # a panel that failed meanwhile may refuse to close too
                shown.close()
    yield guarded("tray", lambda: check_tray(config, config_path))
    yield guarded("web page", lambda: check_web(config.web, config.data_dir))


def guarded(part: str, check: Callable[[], Finding]) -> Finding:
    """``check``'s finding; an error it did not expect (a driver's own type) is the part's line too, as
    an unplugged device on a Pi must never end the doctor with a traceback."""
    try:
        return check()
    except Exception as error:  # noqa: BLE001  (every part gets its line, whatever its driver raises)
        return Finding(part, f"{type(error).__name__}: {error} (unexpected: please report it, with this line)")


# --- the data folder ---------------------------------------------------------------------------

def check_data_folder(folder: Path) -> Finding:
    """The folder is there, writable (tried, as root may still be refused), has room, and its journal is sound."""
    part = "data folder"
    if not folder.is_dir():
        what = "is a file, not a folder: move it away, or name another folder" if folder.exists() else "is not there"
        return Finding(part, f"{folder} {what}: make it for the companion's user (sudo install -d -o USER {folder})")
    troubles = [trouble for trouble in (unwritable(folder), short_of_space(folder), journal_trouble(folder)) if trouble]
    return Finding(part, "; ".join(troubles), note=str(folder))


def unwritable(folder: Path) -> str:
    """Why a file cannot be written in ``folder`` (empty: it can), found by writing one."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".doctor-", dir=folder)
        try:
            os.write(handle, b"ok")
            os.fsync(handle)
        finally:
            os.close(handle)
            os.unlink(probe)
    except OSError as error:
        return (f"cannot write in {folder} ({error.strerror or error}): give it to the companion's user "
                f"(sudo chown USER {folder}); lsattr -d {folder} shows an immutable one (i): sudo chattr -i {folder}")
    return ""


def short_of_space(folder: Path, least: int = LEAST_FREE_BYTES) -> str:
    """Why ``folder``'s disk is too full (empty: it has room)."""
    free = shutil.disk_usage(folder).free
    if free >= least:
        return ""
    return f"only {free >> 20} MB free on {folder}'s disk (at least {least >> 20} MB wanted): free some space"


def journal_trouble(folder: Path) -> str:
    """What is wrong with the journal in ``folder`` (empty: sound, or none yet), read as ``history``
    reads it: opened read-only (it may be in use), every game's rows checked."""
    path = folder / JOURNAL_NAME
    if not path.exists():
        return ""
    keep = ("the companion's next start keeps it aside and begins a fresh journal (copy it elsewhere "
            "first to keep it)")
    try:
        journal = Journal(path, read_only=True)
    except EmptyJournal:
        return ""
    except JournalError as error:  # damage is kept aside at the next start; a newer journal's line says what to do
        damage = isinstance(error.__cause__, sqlite3.DatabaseError) and not isinstance(error.__cause__, sqlite3.OperationalError)
        return f"{error}: {keep}" if damage else str(error)
    try:
        damaged = journal.damaged()
    except sqlite3.DatabaseError as error:  # damage a reader meets only as it reads (it runs no full check)
        return f"the journal {path} is unreadable: {error}: {keep}"
    finally:
        journal.close()
    if not damaged:
        return ""
    return f"the journal {path} has {len(damaged)} damaged game(s) (game {damaged[0].id}: {damaged[0].why}): {keep}"


# --- the display -------------------------------------------------------------------------------

def check_display(config: DisplayConfig, open_display: Callable[[DisplayConfig], Display],
                  opened: list[Display]) -> Finding:
    """Open the display and draw the test screen on it (kept in ``opened`` for --buttons' questions)."""
    try:
        display = open_display(config)
    except DisplayError as error:
        return Finding("display", f"{error}: {display_advice(config)}")
    opened.append(display)
    try:
        display.show(draw(TEST_SCREEN))
    except DisplayError as error:
        return Finding("display", f"{error}: {display_advice(config)}")
    where = f" at {config.i2c_address:#04x} on I2C bus {config.i2c_port}" if config.type not in ("terminal", "dummy") else ""
    return Finding("display", note=f"{config.type}{where}: it shows a test screen")


def display_advice(config: DisplayConfig) -> str:
    """What to do when the configured display cannot be opened or written."""
    if config.type == "terminal":
        return "run it in a larger terminal, or choose another [display] type"
    bus = I2C_BUS.format(port=config.i2c_port)
    if not Path(bus).exists():
        return f"there is no I2C bus {bus}: turn I2C on (sudo raspi-config nonint do_i2c 0) and reboot"
    return (f"check its wiring (SDA to GPIO2, SCL to GPIO3, 3.3 V, ground) and [display] i2c_address "
            f"(i2cdetect -y {config.i2c_port} lists the addresses that answer)")


# --- the camera --------------------------------------------------------------------------------

CAMERA_ADVICE = {
    "picamera2": "check the ribbon cable at both ends (rpicam-hello --list-cameras lists the cameras found)",
    "usb": "check its cable and [camera] usb_index (ls /dev/video* lists the cameras)",
    "folder": "name a folder of tray pictures in [camera] folder",
    "synthetic": "the simulated camera failed: please report it",
}


def check_camera(config: CameraConfig, camera_opener: Callable[[CameraConfig], Callable[[], Camera] | None]) -> Finding:
    """Open the camera, take a few frames and judge the last: neither black nor blurred."""
    try:
        opener = camera_opener(config)
        if opener is None:
            return Finding("camera", note="none: the dice are entered by hand")
        camera = opener()
        try:
            frame = last_frame(camera)
        finally:
            camera.close()
    except CameraError as error:
        return Finding("camera", f"{error}: {CAMERA_ADVICE[config.backend]}")
    trouble = frame_trouble(frame)
    return Finding("camera", trouble, note=f"{config.backend}: frames neither black nor blurred")


def last_frame(camera: Camera, count: int = FRAMES_LOOKED_AT) -> np.ndarray:
    """The last of ``count`` frames: a camera that only gives a first one has stopped."""
    frame = camera.frame()
    for _ in range(count - 1):
        frame = camera.frame()
    return frame


def sharpness(frame: np.ndarray) -> float:
    """The variance of the Laplacian of ``frame`` in grey at :data:`SHARPNESS_WIDTH_PX` wide: edges make
    it high, a blurred picture has none left (compared with :data:`BLUR_THRESHOLD`)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    height, width = grey.shape
    if width != SHARPNESS_WIDTH_PX:
        size = (SHARPNESS_WIDTH_PX, max(1, round(height * SHARPNESS_WIDTH_PX / width)))
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def frame_trouble(frame: np.ndarray) -> str:
    """What is wrong with a camera's frame (BGR): black, or blurred; empty when neither."""
    brightness = float(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY).mean())
    if brightness < BLACK_LEVEL:
        return (f"its frames are black (brightness {brightness:.0f} of 255): take the lens cap off "
                "and light the tray")
    sharp = sharpness(frame)
    if sharp < BLUR_THRESHOLD:
        return (f"its frames are blurred (sharpness {sharp:.1f}, under {BLUR_THRESHOLD:g}): focus the lens "
                "on the tray, and clean it")
    return ""


# --- the buttons -------------------------------------------------------------------------------

@dataclass(frozen=True)
class PressQuestions:
    """``--buttons``: each button asked for in turn, on the display and on ``tell``, waiting ``wait_s``."""

    tell: TextIO
    wait_s: float

    def ask(self, presses: queue.Queue[Press], display: Display | None) -> list[str]:
        """What went wrong as the buttons were asked for (empty: each press came, in turn)."""
        troubles = []
        for number, button in enumerate(BUTTONS, 1):
            name = button.value.upper()
            self._show(display, DoctorScreen(f"PRESS {name}", (f"Button {number} of {len(BUTTONS)}:",
                                                              f"press {name} within {self.wait_s:g} s")))
            print(f"press {name} ({number} of {len(BUTTONS)}, within {self.wait_s:g} s)", file=self.tell, flush=True)
            try:
                came = presses.get(timeout=self.wait_s)
            except queue.Empty:
                troubles.append(f"{name} not seen within {self.wait_s:g} s")
                continue
            if came is Press.QUIT:  # the keyboard's input ended
                troubles.append(f"the keys ended before {name} was pressed")
                break
            if came not in (button, Press.UNDO if button is Press.STOP else button):
                troubles.append(f"{came.value.upper()} came when {name} was asked for")
        self._show(display, TEST_SCREEN)
        return troubles

    @staticmethod
    def _show(display: Display | None, screen: DoctorScreen) -> None:
        """Show ``screen`` if the display works (its fault has its own line)."""
        if display is not None:
            with contextlib.suppress(DisplayError):
                display.show(draw(screen))


def check_buttons(config: ButtonConfig, open_buttons: Callable[[ButtonConfig, Deliver], Closable],
                  questions: PressQuestions | None, display: list[Display]) -> Finding:
    """The buttons' pins can be had (none taken by another program); with ``questions``, each press is seen."""
    keyboard = config.source == "keyboard"
    if keyboard and questions is None:
        return Finding("buttons", note="keyboard: --buttons asks for each key")
    presses: queue.Queue[Press] = queue.Queue()
    with single_keys(sys.stdin) if keyboard else contextlib.nullcontext():
        try:
            buttons = open_buttons(config, presses.put)
        except ButtonsError as error:
            return Finding("buttons", f"{error}: another program holds it ({STOP_SERVICE}), or this machine has "
                                      "no GPIO ([buttons] source = \"keyboard\" plays from a terminal)")
        try:
            troubles = questions.ask(presses, display[0] if display else None) if questions else []
        finally:
            buttons.close()
    where = "keyboard" if keyboard else "GPIO " + ", ".join(str(pin) for pin in config.pins.values())
    if troubles:
        advice = ("run it at a terminal and press each key asked for (r, s, n, space)" if keyboard else
                  "check each button's wiring (pin to ground) and its GPIO number in [buttons]")
        return Finding("buttons", "; ".join(troubles) + f": {advice}")
    return Finding("buttons", note=f"{where}: " + ("each press seen" if questions else "free; --buttons asks for each press"))


# --- the tray and the web page -----------------------------------------------------------------

def check_tray(config: Config, config_path: Path) -> Finding:
    """The tray is calibrated, and the camera does not lean too far over it (:mod:`camera_lean`)."""
    if config.camera.backend == "none":
        return Finding("tray", note="no camera: nothing to calibrate")
    try:
        tray = load_tray(config.data_dir)
    except TrayError as error:
        return Finding("tray", str(error))
    if tray is None:
        return Finding("tray", f"not calibrated (no {config.data_dir / TRAY_NAME}): with the empty tray under the "
                               f"camera, run dice-companion calibrate --config {config_path}")
    tilt = camera_lean.leaning(tray)
    if tilt is not None:
        return Finding("tray", camera_lean.advice(tilt))
    return Finding("tray", note=camera_lean.tilt_line(tray))


def check_web(config: WebConfig, data_dir: Path) -> Finding:
    """The page's port can be listened on, when the page is on (it is taken and let go at once)."""
    from firmware.web.server import WebServer

    if not config.enabled:
        return Finding("web page", note="off: [web] enabled = false")
    try:
        WebServer(data_dir, config.address, config.port, config.hosts).close()
    except OSError as error:
        return Finding("web page", f"{error}: stop what holds it ({STOP_SERVICE}; ss -ltnp names it), "
                                   "or choose another [web] port")
    return Finding("web page", note=f"port {config.port} on {config.address} is free")
