"""``dice-companion doctor``: one line per part, ok or what is wrong and what to do, exit 0 only when
every part is ok. On simulated hardware (luma's dummy display, gpiozero's mock pins, the keyboard on
a string, the synthetic and folder cameras), and with each fault: no OLED at its address, no I2C
bus, the camera gone, a black frame, a blurred frame, an unwritable data folder, a damaged journal,
the port taken, a pin taken, a press not seen."""

from __future__ import annotations

import contextlib
import errno
import io
import os
import socket
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory

from firmware.calibration.tray_file import save_tray
from firmware.cli import main
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import draw
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table import doctor as doctor_module
from firmware.table.doctor import BLUR_THRESHOLD, PARTS, TEST_SCREEN, Openers, doctor, frame_trouble, sharpness
from hardware.buttons import ButtonTiming, GpioButtons, Press
from hardware.camera import CameraError, SyntheticCamera
from hardware.display import dummy_display
from hardware.keyboard import KeyboardButtons
from table_helpers import ManualClock
from test_camera_lean import STEEP, leaning_tray
from vision.read.tray import TrayOutline

SIZE = (640, 480)
SIMULATED = """
[buttons]
source = "keyboard"
[display]
type = "dummy"
[camera]
backend = "synthetic"
width = 640
height = 480
[data]
dir = "data"
"""
PINS = {Press.ROLL: 17, Press.STOP: 27, Press.NEXT: 22, Press.SELECT: 23}


def configured(folder: Path, extra: str = "", base: str = SIMULATED, calibrate: bool = True) -> Path:
    """A configuration in ``folder`` (its data folder made, the tray calibrated), ``extra`` appended."""
    (folder / "data").mkdir(exist_ok=True)
    if calibrate:
        save_tray(folder / "data", TrayOutline(((40, 30), (600, 30), (600, 450), (40, 450)), SIZE),
                  np.zeros((*SIZE[::-1], 3), np.uint8))
    path = folder / "dice-companion.toml"
    path.write_text(base + extra)
    return path


def checked(path: Path, buttons: bool = False, openers: Openers = Openers(), wait_s: float = 0.0) -> tuple[int, dict[str, str]]:
    """The doctor's exit status and each part's line (after the part's name), the prompts left out."""
    out = io.StringIO()
    status = doctor(path, buttons, out, io.StringIO(), openers, wait_s)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == list(PARTS), "one line per part, in order"
    return status, {line.split(":")[0]: line.split(": ", 1)[1] for line in lines}


def test_simulated_hardware_is_ok_in_one_line_per_part(tmp_path):
    status, lines = checked(configured(tmp_path))
    assert status == 0
    assert all(line.startswith("ok") for line in lines.values()), lines
    assert lines["display"] == "ok; dummy: it shows a test screen"
    assert lines["tray"].startswith("ok; camera tilt: 0 degrees")


def test_the_command_exits_0_and_1_as_the_parts_are(tmp_path, capsys):
    path = configured(tmp_path)
    assert main(["doctor", "--config", str(path)]) == 0
    (tmp_path / "data" / "tray.json").unlink()
    assert main(["doctor", "--config", str(path)]) == 1
    assert f"tray: not calibrated (no {tmp_path / 'data' / 'tray.json'}): " in capsys.readouterr().out


def test_a_refused_configuration_leaves_every_other_part_unchecked(tmp_path):
    path = configured(tmp_path, "[gmae]\n")
    status, lines = checked(path)
    assert status == 1
    assert "did you mean [game]?" in lines["configuration"]
    assert lines["camera"] == "not checked: the configuration is refused"


# --- the display ---------------------------------------------------------------------------------

def test_the_display_shows_the_test_screen(tmp_path):
    shown = dummy_display(persist=True)
    status, _ = checked(configured(tmp_path), openers=Openers(display=lambda config: shown))
    assert status == 0
    assert shown.device.image.tobytes() == draw(TEST_SCREEN).tobytes()


class NoAnswer:
    """An I2C bus on which nothing answers at any address (smbus2's error for that)."""

    def write_i2c_block_data(self, address: int, register: int, data: list[int]) -> None:
        raise OSError(errno.EREMOTEIO, "Remote I/O error")


def test_no_oled_at_its_address_is_said_with_how_to_find_it(tmp_path, monkeypatch):
    from luma.core.interface.serial import i2c

    bus = tmp_path / "i2c-1"
    bus.touch()
    monkeypatch.setattr(doctor_module, "I2C_BUS", str(tmp_path / "i2c-{port}"))
    monkeypatch.setattr("luma.core.interface.serial.i2c", lambda port, address: i2c(bus=NoAnswer(), address=address))
    status, lines = checked(configured(tmp_path, base=SIMULATED.replace('"dummy"', '"ssd1306"')))
    assert status == 1
    assert lines["display"].startswith("no ssd1306 display on I2C bus 1 at address 0x3c: ")
    assert lines["display"].endswith("(i2cdetect -y 1 lists the addresses that answer)")


def test_no_i2c_bus_says_to_turn_i2c_on(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor_module, "I2C_BUS", str(tmp_path / "i2c-{port}"))
    status, lines = checked(configured(tmp_path, base=SIMULATED.replace('"dummy"', '"sh1106"\ni2c_port = 7')))
    assert status == 1
    assert lines["display"].endswith(f"there is no I2C bus {tmp_path / 'i2c-7'}: turn I2C on "
                                     "(sudo raspi-config nonint do_i2c 0) and reboot")


# --- the camera ----------------------------------------------------------------------------------

def folder_camera(tmp_path: Path, picture: np.ndarray | None) -> Path:
    """A configuration whose camera plays ``picture`` (None: a folder that is not there)."""
    folder = tmp_path / "trays"
    if picture is not None:
        folder.mkdir()
        cv2.imwrite(str(folder / "tray.png"), picture)
    return configured(tmp_path, base=SIMULATED.replace('"synthetic"', f'"folder"\nfolder = "{folder}"'))


def sharp_frame() -> np.ndarray:
    camera = SyntheticCamera(1, SIZE)
    camera.throw(4)
    return camera.frame()


def test_blur_is_a_variance_of_laplacian_under_the_threshold():
    sharp = sharp_frame()
    blurred = cv2.GaussianBlur(sharp, (0, 0), 3)
    assert sharpness(blurred) < BLUR_THRESHOLD < sharpness(sharp)
    assert frame_trouble(sharp) == ""
    assert frame_trouble(blurred).startswith("its frames are blurred (sharpness ")


@pytest.mark.parametrize("picture, said", [
    (np.zeros((*SIZE[::-1], 3), np.uint8), "its frames are black (brightness 0 of 255): take the lens cap off"),
    (cv2.GaussianBlur(sharp_frame(), (0, 0), 3), "its frames are blurred"),
    (None, "camera folder"),
])
def test_a_black_or_blurred_frame_or_a_camera_gone_is_said(tmp_path, picture, said):
    status, lines = checked(folder_camera(tmp_path, picture))
    assert status == 1
    assert lines["camera"].startswith(said)
    assert (picture is not None) or lines["camera"].endswith("does not exist: name a folder of tray pictures in [camera] folder")


class GoneCamera:
    """A camera unplugged after it opened."""

    def frame(self) -> np.ndarray:
        raise CameraError("the Pi camera gave no frame for 2 s (cable loose?)")

    def close(self) -> None:
        """Nothing to release."""


def test_a_camera_that_stops_giving_frames_is_said(tmp_path):
    status, lines = checked(configured(tmp_path), openers=Openers(camera=lambda config: GoneCamera))
    assert status == 1
    assert lines["camera"].startswith("the Pi camera gave no frame for 2 s (cable loose?): ")


def test_a_driver_error_of_any_kind_is_a_line_not_a_traceback(tmp_path):
    def libcamera_fails(config):
        raise RuntimeError("Failed to acquire camera: Device or resource busy")

    status, lines = checked(configured(tmp_path), openers=Openers(camera=libcamera_fails))
    assert status == 1
    assert lines["camera"].startswith("RuntimeError: Failed to acquire camera: Device or resource busy (unexpected")
    assert lines["buttons"].startswith("ok"), "the parts after it are checked"


# --- the data folder -----------------------------------------------------------------------------

@contextlib.contextmanager
def unwritable(folder: Path) -> Iterator[None]:
    """``folder`` made unwritable, even for root (immutable), or the test skipped where it cannot be."""
    immutable = os.geteuid() == 0
    if immutable:
        made = subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode == 0
    else:
        folder.chmod(0o555)
        made = True
    try:
        if not made:
            pytest.skip("no way to make a folder unwritable for root here (chattr)")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o755)


def test_an_unwritable_data_folder_is_named_with_what_to_do(tmp_path):
    path = configured(tmp_path)
    with unwritable(tmp_path / "data"):
        status, lines = checked(path)
    assert status == 1
    assert lines["data folder"].startswith(f"cannot write in {tmp_path / 'data'} (")
    assert "sudo chown USER" in lines["data folder"]


def test_a_missing_data_folder_is_named(tmp_path):
    path = configured(tmp_path, calibrate=False)
    (tmp_path / "data").rmdir()
    _, lines = checked(path)
    assert lines["data folder"] == (f"{tmp_path / 'data'} is not there: make it for the companion's user "
                                    f"(sudo install -d -o USER {tmp_path / 'data'})")


def test_a_disk_nearly_full_is_said(tmp_path, monkeypatch):
    monkeypatch.setattr(doctor_module, "LEAST_FREE_BYTES", 1 << 62)
    assert doctor_module.short_of_space(tmp_path, 1 << 62).endswith("wanted): free some space")
    assert doctor_module.short_of_space(tmp_path, 0) == ""


def test_a_journal_that_is_no_database_is_said_to_be_kept_aside_at_the_next_start(tmp_path):
    path = configured(tmp_path)
    (tmp_path / "data" / JOURNAL_NAME).write_bytes(b"scribbled over" * 100)
    status, lines = checked(path)
    assert status == 1
    assert lines["data folder"].startswith(f"the journal {tmp_path / 'data' / JOURNAL_NAME} is unreadable: ")
    assert lines["data folder"].endswith("the companion's next start keeps it aside and begins a fresh journal "
                                         "(copy it elsewhere first to keep it)")


def test_a_journal_with_a_damaged_game_is_said(tmp_path):
    path = configured(tmp_path)
    journal = Journal(tmp_path / "data" / JOURNAL_NAME)
    journal.start_game(GameSetup(("Ann", "Bob")))
    journal.close()
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / JOURNAL_NAME)) as db, db:
        db.execute("UPDATE games SET names = 'not json'")
    status, lines = checked(path)
    assert status == 1
    assert "has 1 damaged game(s) (game 1: " in lines["data folder"]


def test_a_sound_journal_is_ok(tmp_path):
    path = configured(tmp_path)
    journal = Journal(tmp_path / "data" / JOURNAL_NAME)
    journal.start_game(GameSetup(("Ann", "Bob")))
    journal.close()
    assert checked(path)[0] == 0


# --- the web page --------------------------------------------------------------------------------

def test_a_port_taken_is_said(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, lines = checked(configured(tmp_path, f"[web]\nenabled = true\nport = {port}\n"))
    assert status == 1
    assert lines["web page"].startswith(f"cannot serve the page on 127.0.0.1:{port}: ")
    assert lines["web page"].endswith("or choose another [web] port")


def test_a_free_port_is_ok(tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    status, lines = checked(configured(tmp_path, f"[web]\nenabled = true\nport = {port}\n"))
    assert (status, lines["web page"]) == (0, f"ok; port {port} on 127.0.0.1 is free")


# --- the buttons ---------------------------------------------------------------------------------

GPIO = SIMULATED.replace('source = "keyboard"', 'source = "gpio"')


@pytest.fixture
def mock_pins(monkeypatch) -> MockFactory:
    factory = MockFactory()
    monkeypatch.setattr(Device, "pin_factory", factory)
    return factory


def test_free_pins_are_ok_and_a_pin_taken_is_said(tmp_path, mock_pins):
    path = configured(tmp_path, base=GPIO)
    assert checked(path)[1]["buttons"] == "ok; GPIO 17, 27, 22, 23: free; --buttons asks for each press"
    taken = Button(27, pin_factory=mock_pins)
    status, lines = checked(path)
    taken.close()
    assert status == 1
    assert lines["buttons"].startswith("cannot use GPIO27 for the STOP button: ")
    assert "sudo systemctl stop dice-companion" in lines["buttons"]


def pressing(*buttons: Press) -> Callable:
    """Buttons on mock pins, ``buttons`` pressed (held a tenth of a second each) as soon as they open."""
    factory, clock = MockFactory(), ManualClock()

    def opened(config, deliver):
        gpio = GpioButtons(PINS, deliver, ButtonTiming(), pin_factory=factory, clock=clock)
        for button in buttons:
            pin = factory.pin(PINS[button])
            pin.drive_low()
            clock.advance(0.1)
            pin.drive_high()
            clock.advance(1.0)
        return gpio

    return opened


def test_with_buttons_each_press_is_asked_for_on_the_display_and_seen(tmp_path):
    shown = dummy_display(persist=True)
    openers = Openers(display=lambda config: shown, buttons=pressing(Press.ROLL, Press.STOP, Press.NEXT, Press.SELECT))
    tell = io.StringIO()
    out = io.StringIO()
    status = doctor(configured(tmp_path, base=GPIO), True, out, tell, openers, 0.0)
    assert status == 0
    assert "buttons: ok; GPIO 17, 27, 22, 23: each press seen" in out.getvalue()
    assert tell.getvalue().splitlines()[0] == "press ROLL (1 of 4, within 0 s)"
    assert shown.device.image.tobytes() == draw(TEST_SCREEN).tobytes(), "the test screen again at the end"


@pytest.mark.parametrize("pressed, said", [
    ((Press.ROLL, Press.STOP), "NEXT not seen within 0 s; SELECT not seen within 0 s: check each button's wiring"),
    ((Press.ROLL, Press.STOP, Press.SELECT, Press.NEXT), "SELECT came when NEXT was asked for; NEXT came when SELECT"),
])
def test_with_buttons_a_press_missed_or_out_of_turn_is_said(tmp_path, pressed, said):
    status, lines = checked(configured(tmp_path, base=GPIO), True, Openers(buttons=pressing(*pressed)))
    assert status == 1
    assert lines["buttons"].startswith(said)


@pytest.mark.parametrize("keys, status", [("rsn ", 0), ("ru", 1)])
def test_with_buttons_the_keyboard_is_asked_too(tmp_path, keys, status):
    openers = Openers(buttons=lambda config, deliver: KeyboardButtons(deliver, io.StringIO(keys)))
    found, lines = checked(configured(tmp_path), True, openers, wait_s=600.0)  # the end of the keys is QUIT: no wait
    assert found == status
    assert lines["buttons"] == ("ok; keyboard: each press seen" if status == 0 else
                                "the keys ended before NEXT was pressed: run it at a terminal and press each key asked "
                                "for (r, s, n, space)")


# --- the tray ------------------------------------------------------------------------------------

def test_a_camera_that_leans_too_far_is_said(tmp_path):
    path = configured(tmp_path, calibrate=False)
    save_tray(tmp_path / "data", leaning_tray(STEEP), np.zeros((480, 640, 3), np.uint8))
    status, lines = checked(path)
    assert status == 1
    assert lines["tray"].startswith("the camera leans 3")


def test_without_a_camera_there_is_no_tray_to_calibrate(tmp_path):
    status, lines = checked(configured(tmp_path, base=SIMULATED.replace('"synthetic"', '"none"'), calibrate=False))
    assert status == 0
    assert lines["camera"] == "ok; none: the dice are entered by hand"
