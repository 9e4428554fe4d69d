"""Display and camera backends: what they show or give, and the clear errors when they fail."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from bad_files import huge_png
from firmware.core.events import CameraFailed
from firmware.table._loop import CameraFeed, EventQueue
from hardware.camera import CameraError, FolderCamera, SyntheticCamera
from hardware.display import (
    DisplayError,
    LumaDisplay,
    RecordingDisplay,
    ReopeningDisplay,
    TerminalDisplay,
    as_blocks,
    dummy_display,
    open_oled,
)
from hardware.keyboard import HELP
from hardware.picamera import PiCamera
from hardware.webcam import UsbCamera
from vision import read_dice


def picture() -> Image.Image:
    image = Image.new("1", (128, 64), 0)
    ImageDraw.Draw(image).rectangle((0, 0, 1, 3), fill=1)
    return image


def test_the_dummy_oled_keeps_exactly_the_last_picture():
    display = dummy_display()
    display.show(picture())
    assert display.device.image.tobytes() == picture().tobytes()


def test_the_terminal_draws_two_pixel_rows_per_line_and_skips_repeats():
    assert as_blocks(picture()).split("\n")[:3] == ["██", "██", ""]
    out = io.StringIO()
    display = TerminalDisplay(out, in_place=False)
    display.show(picture())
    display.show(picture())
    lines = out.getvalue().splitlines()
    assert len(lines) == 34 and lines[1].startswith("|██ ") and len(lines[1]) == 130


def test_the_terminal_says_what_it_is_told_after_the_keys_from_the_next_picture_on():
    """Where a flick landed on the demo's simulated board: its players cannot look at the board."""
    out = io.StringIO()
    display = TerminalDisplay(out, in_place=False, footer=HELP)
    display.show(picture())
    display.tell("red 4 landed on 3x")
    display.show(picture())
    lines = out.getvalue().splitlines()
    assert lines[34] == HELP and lines[-1] == f"{HELP}   red 4 landed on 3x", "told: the same picture drawn again"


def test_the_recorder_saves_every_picture_and_passes_it_on(tmp_path):
    inner = dummy_display()
    recorder = RecordingDisplay(tmp_path / "screens", inner)
    recorder.show(picture())
    recorder.show(Image.new("1", (128, 64), 1))
    assert sorted(p.name for p in (tmp_path / "screens").iterdir()) == ["screen-0001.png", "screen-0002.png"]
    assert Image.open(tmp_path / "screens" / "screen-0001.png").convert("1").tobytes() == picture().tobytes()
    assert inner.device.image.getpixel((100, 50))


def test_an_i2c_error_while_drawing_is_a_display_error():
    class Unplugged:
        def display(self, image):
            raise OSError(121, "Remote I/O error")

    with pytest.raises(DisplayError, match="Remote I/O error"):
        LumaDisplay(Unplugged()).show(picture())


def test_a_display_that_failed_is_opened_again_before_the_next_picture():
    opened: list[LumaDisplay] = []

    class Flaky:
        fail = True

        def display(self, image):
            if Flaky.fail:
                raise OSError(121, "Remote I/O error")

        def cleanup(self):
            raise OSError(121, "Remote I/O error")  # a panel that is gone refuses its clean-up too

    def opener() -> LumaDisplay:
        opened.append(LumaDisplay(Flaky()))
        return opened[-1]

    display = ReopeningDisplay(opener)
    with pytest.raises(DisplayError):
        display.show(picture())
    Flaky.fail = False
    display.show(picture())
    assert len(opened) == 2, "the panel gets its start-up commands again"


def test_a_missing_oled_names_the_bus_and_address():
    with pytest.raises(DisplayError, match=r"no ssd1306 display on I2C bus 7 at address 0x3c"):
        open_oled("ssd1306", 7, 0x3C)


def test_the_folder_camera_plays_images_in_order_and_loops(tmp_path):
    for name, shade in (("b.png", 200), ("a.png", 100)):
        cv2.imwrite(str(tmp_path / name), np.full((8, 8, 3), shade, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    camera = FolderCamera(tmp_path, frames_per_image=2)
    assert [int(camera.frame()[0, 0, 0]) for _ in range(5)] == [100, 100, 200, 200, 100]


def test_the_folder_camera_reports_a_broken_image_and_goes_on(tmp_path):
    (tmp_path / "a.png").write_bytes(b"\x89PNG truncated")
    cv2.imwrite(str(tmp_path / "b.png"), np.zeros((8, 8, 3), np.uint8))
    camera = FolderCamera(tmp_path, frames_per_image=1)
    with pytest.raises(CameraError, match="cannot decode .*a.png as an image"):
        camera.frame()
    assert camera.frame().shape == (8, 8, 3)


def test_an_image_claiming_a_huge_size_is_a_camera_error_and_the_camera_goes_on(tmp_path):
    huge_png(tmp_path / "a.png")
    cv2.imwrite(str(tmp_path / "b.png"), np.zeros((8, 8, 3), np.uint8))
    camera = FolderCamera(tmp_path, frames_per_image=1)
    with pytest.raises(CameraError, match="a.png claims more than 178 megapixels; at most 50 megapixels are read"):
        camera.frame()
    assert camera.frame().shape == (8, 8, 3)


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        ("/" + "a" * 5000, "cannot list camera folder /aaa.*: File name too long"),
        ("trays\0", r"camera folder 'trays\\x00' does not exist"),
        ("trays\n", r"camera folder 'trays\\n' does not exist"),
    ],
)
def test_a_folder_the_system_cannot_open_is_a_camera_error(folder, message):
    with pytest.raises(CameraError, match=message):
        FolderCamera(Path(folder))


def test_the_feed_says_a_folder_the_system_cannot_open_in_one_line_without_a_traceback(caplog):
    inbox = EventQueue()
    feed = CameraFeed(lambda: FolderCamera(Path("/" + "a" * 5000)), inbox, retry_s=0)
    with caplog.at_level(logging.DEBUG):
        feed.start()
        events = []
        for _ in range(3):
            events.append(inbox.get())
            feed.taken()
        feed.stop()
    assert all(isinstance(e, CameraFailed) and "File name too long" in e.message for e in events)
    assert not [record for record in caplog.records if record.exc_info], "no traceback on any retry"


def test_a_missing_or_empty_folder_is_refused(tmp_path):
    with pytest.raises(CameraError, match="does not exist"):
        FolderCamera(tmp_path / "nowhere")
    with pytest.raises(CameraError, match="holds no images"):
        FolderCamera(tmp_path)


def test_the_synthetic_tray_tumbles_then_rests_and_reads_as_thrown():
    tray = SyntheticCamera(seed=2)
    values = tray.throw()
    tumbling = [tray.frame() for _ in range(tray.tumbling_frames)]
    resting = [tray.frame() for _ in range(2)]
    assert not np.array_equal(tumbling[0], tumbling[1])
    assert np.array_equal(resting[0], resting[1])
    assert read_dice(resting[0]).values == tuple(sorted(values))


def test_the_same_seed_throws_the_same_dice():
    assert [SyntheticCamera(seed=9).throw() for _ in range(2)] == [SyntheticCamera(seed=9).throw()] * 2


def test_a_usb_camera_that_is_not_there_is_a_camera_error():
    with pytest.raises(CameraError, match="no USB camera at /dev/video63"):
        UsbCamera(63)


def test_the_pi_camera_without_picamera2_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "picamera2", None)  # as on a machine without it
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera()
