"""The configuration's device sections (buttons, display, camera, tray, board, web page) and the
data folder: what the devices and calibration read, apart from the file's reading and checks and
the games' options (``firmware/config.py``, which sits above the games)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hardware.buttons import Press
from vision.read.frame_outline import Outline


@dataclass(frozen=True)
class ButtonConfig:
    source: str = "gpio"
    pins: dict[Press, int] = field(
        default_factory=lambda: {Press.ROLL: 17, Press.STOP: 27, Press.NEXT: 22, Press.SELECT: 23}
    )
    double_press_ms: int = 200
    long_press_ms: int = 1000


@dataclass(frozen=True)
class DisplayConfig:
    type: str = "ssd1306"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    rotate: int = 0


@dataclass(frozen=True)
class CameraConfig:
    backend: str = "picamera2"
    width: int = 1280
    height: int = 960
    usb_index: int = 0
    folder: Path | None = None
    seed: int = 1
    scene: str = "tray"  # synthetic camera: "tray" fills the frame, "desk" lies on a cluttered desk (to try calibrate),
    # "board" is a stepped dice board seen from above (Tumblin' Dice)


@dataclass(frozen=True)
class TrayConfig:
    """Where ``calibrate`` takes the tray's outline from: these corners (x, y px of the camera's
    frames, in order around the tray), or, without them, the camera's view."""

    corners: tuple[tuple[float, float], ...] | None = None


@dataclass(frozen=True)
class BoardConfig:
    """Where ``calibrate --game`` of a board game takes the levels' outlines from: these (level 0,
    the 0x level, to level 4; x, y px of the camera's frames), or, without them, the camera's view."""

    levels: tuple[Outline, ...] | None = None


@dataclass(frozen=True)
class WebConfig:
    """The read-only web page (``serve``, or beside ``run`` when enabled): off by default, and on
    this machine only (loopback) unless ``address`` opens it to the network."""

    enabled: bool = False
    address: str = "127.0.0.1"
    port: int = 8080
    hosts: tuple[str, ...] = ()  # names the page answers to besides numeric addresses and localhost


@dataclass(frozen=True)
class DeviceConfig:
    """The devices the companion opens and the folder it keeps its files in."""

    buttons: ButtonConfig = field(default_factory=ButtonConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    tray: TrayConfig = field(default_factory=TrayConfig)
    board: BoardConfig = field(default_factory=BoardConfig)
    web: WebConfig = field(default_factory=WebConfig)
    data_dir: Path = Path("/var/lib/dice-companion")
