"""Open the devices a configuration names: display, buttons and camera."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable

from firmware.device_config import ButtonConfig, CameraConfig, DisplayConfig
from hardware.buttons import ButtonTiming, Deliver, GpioButtons, Press
from hardware.board_camera import SyntheticBoardCamera
from hardware.camera import Camera, CameraError, FolderCamera, SimulatedTable, SyntheticCamera, Toss
from hardware.desk import Desk, rectangle
from hardware.display import Display, ReopeningDisplay, TerminalDisplay, dummy_display, open_oled
from hardware.keyboard import KeyboardButtons


def open_display(config: DisplayConfig, persist: bool = False, keys: str = "") -> Display:
    """The configured display, opened again after a failure; raises DisplayError when a panel is not there.
    With ``persist`` an OLED keeps its last picture after it is closed; ``keys`` (what the keyboard's
    keys do) is printed under the terminal's picture, where the one at the keys looks."""
    return ReopeningDisplay(lambda: _open_display(config, persist, keys))


def _open_display(config: DisplayConfig, persist: bool, keys: str) -> Display:
    if config.type == "terminal":
        return TerminalDisplay(footer=keys)
    if config.type == "dummy":
        return dummy_display(persist)
    return open_oled(config.type, config.i2c_port, config.i2c_address, config.rotate, persist)


def camera_opener(config: CameraConfig) -> Callable[[], Camera] | None:
    """A function that opens the configured camera (again, after a fault), or None without a
    camera (dice entered by hand); raises CameraError when the camera's library is missing."""
    size = (config.width, config.height)
    if config.backend == "none":
        return None
    if config.backend == "picamera2":
        from hardware.picamera import INSTALL_HINT, PiCamera

        if importlib.util.find_spec("picamera2") is None:  # an install mistake: say so now, not "retrying" forever
            raise CameraError(f"picamera2 is not installed: {INSTALL_HINT}")
        return lambda: PiCamera(size)
    if config.backend == "usb":
        from hardware.webcam import UsbCamera

        return lambda: UsbCamera(config.usb_index, size)
    if config.backend == "folder":
        assert config.folder is not None  # the configuration refuses a folder camera without a folder
        folder = config.folder
        return lambda: FolderCamera(folder)
    table: SyntheticBoardCamera | SyntheticCamera
    if config.scene == "board":
        table = SyntheticBoardCamera(config.seed, size)
    else:
        table = SyntheticCamera(config.seed, size, desk=Desk(size, rectangle(size)) if config.scene == "desk" else None)
    return lambda: table  # one simulated table, whoever opens it


ThrowPlan = Callable[[], Toss]  # what the players throw before ROLL now


def throwing_dice(deliver: Deliver, table: SimulatedTable, plan: ThrowPlan) -> Deliver:
    """With a simulated tray or board, ROLL also throws the dice the game's throw needs (a player
    throws, then presses ROLL); the dice a player keeps stay in the tray, those lying on a board stay."""

    def deliver_and_throw(press: Press) -> None:
        if press is Press.ROLL:
            toss = plan()
            if toss.count:
                table.toss(toss)
        deliver(press)

    return deliver_and_throw


def open_buttons(config: ButtonConfig, deliver: Deliver) -> GpioButtons | KeyboardButtons:
    """The configured buttons, delivering presses to ``deliver``."""
    if config.source == "keyboard":
        return KeyboardButtons(deliver)
    timing = ButtonTiming(repeat_s=config.double_press_ms / 1000, long_press_s=config.long_press_ms / 1000)
    return GpioButtons(config.pins, deliver, timing)

