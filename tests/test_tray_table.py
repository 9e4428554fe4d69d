"""The calibrated tray at the table: only dice inside it count, refused reads draw it, and a tray
file that is corrupt or made for another camera is said and the whole frame read instead."""

from __future__ import annotations

import io
import logging
import sys

import cv2
import numpy as np

from firmware.calibration.tray_file import TRAY_NAME, save_tray
from firmware.config import parse_config
from firmware.core.events import FrameEvent
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import BadReadScreen, NoticeScreen, draw
from firmware.games.cant_stop.screens import ChoiceScreen
from firmware.table.companion import Companion
from firmware.table.start import run_device, tray_at_table
from golden import assert_matches_golden
from hardware.buttons import Press
from hardware.display import dummy_display
from table_helpers import NAMES, press, start_game
from vision.measure.annotate import TRAY_COLOUR
from vision.read.reading import DiceReading, Die
from vision.read.tray import TrayOutline

TRAY = TrayOutline(((160.0, 60.0), (480.0, 60.0), (480.0, 420.0), (160.0, 420.0)), (640, 480))
IN_TRAY = tuple(Die(v, (200.0 + 60 * i, 240.0), 40.0, 0.99) for i, v in enumerate((2, 3, 5, 6)))
ON_THE_DESK = Die(1, (60.0, 60.0), 40.0, 0.97)  # a cable tag read as a 1, beside the tray
UNREADABLE_ON_THE_DESK = Die(None, (600.0, 400.0), 40.0, 0.4)


def companion_reading(reading: DiceReading, **options) -> Companion:
    companion = Companion(dummy_display(), GameSetup(NAMES), **options)
    companion.watcher.reader = lambda frame, up=None, closer=0: reading
    start_game(companion)
    return companion


def show(companion: Companion, frame: np.ndarray, frames: int = 10) -> None:
    for _ in range(frames):
        companion.handle(FrameEvent(frame))


def test_dice_beside_the_tray_do_not_count():
    reading = DiceReading((ON_THE_DESK, *IN_TRAY, UNREADABLE_ON_THE_DESK))
    companion = companion_reading(reading, tray=TRAY)
    press(companion, Press.ROLL)
    show(companion, np.zeros((480, 640, 3), np.uint8))
    assert isinstance(companion.screen, ChoiceScreen)
    assert companion.state.dice.dice == (2, 3, 5, 6)


def test_without_a_tray_the_whole_frame_is_read_as_before():
    companion = companion_reading(DiceReading((ON_THE_DESK, *IN_TRAY)))
    press(companion, Press.ROLL)
    show(companion, np.zeros((480, 640, 3), np.uint8))
    assert companion.screen == BadReadScreen(5, (1, 2, 3, 5, 6), 0, 4)


def test_the_picture_of_a_refused_read_draws_the_tray(tmp_path):
    companion = companion_reading(DiceReading((ON_THE_DESK, *IN_TRAY[:3])), tray=TRAY.scaled_to((320, 240)),
                                  snapshots=tmp_path)
    press(companion, Press.ROLL)
    show(companion, np.full((480, 640, 3), 90, np.uint8))
    assert isinstance(companion.screen, BadReadScreen) and companion.screen.seen == 3
    (picture,) = tmp_path.glob("refused-*.png")
    image = cv2.imread(str(picture))
    assert tuple(image[240, 160]) == TRAY_COLOUR and tuple(image[60, 320]) == TRAY_COLOUR
    assert tuple(image[240, 320]) == (90, 90, 90)


def test_a_tray_made_for_frames_of_another_shape_is_said_and_the_whole_frame_read(caplog, update_golden):
    companion = companion_reading(DiceReading(IN_TRAY), tray=TRAY)
    show(companion, np.zeros((720, 1280, 3), np.uint8), 1)
    assert companion.screen == NoticeScreen(
        "Tray does not fit", ("made for 640x480,", "camera: 1280x720.", "Whole frame read."), "calibrate"
    )
    assert_matches_golden(companion.display.device.image, "screen-notice-tray-misfit", update_golden)  # type: ignore[attr-defined]
    assert "the tray was calibrated on 640x480 frames and the camera gives 1280x720" in caplog.text
    assert companion.watcher.tray is None
    press(companion, Press.SELECT, Press.ROLL)
    show(companion, np.zeros((720, 1280, 3), np.uint8))
    assert companion.state.dice.dice == (2, 3, 5, 6)


def test_a_tray_calibrated_at_another_resolution_of_the_same_shape_is_rescaled():
    companion = companion_reading(DiceReading((ON_THE_DESK, *IN_TRAY)), tray=TRAY.scaled_to((1280, 960)))
    press(companion, Press.ROLL)
    show(companion, np.zeros((480, 640, 3), np.uint8))
    assert companion.state.dice.dice == (2, 3, 5, 6)


def test_a_corrupt_tray_file_is_logged_and_shown_and_the_whole_frame_is_read(tmp_path, caplog, update_golden):
    (tmp_path / TRAY_NAME).write_text('{"format": "dice-companion tray", "vers')
    with caplog.at_level(logging.ERROR):
        tray, notice = tray_at_table(tmp_path)
    assert tray is None and notice is not None
    assert f"{tmp_path / TRAY_NAME} is not a usable tray outline (not JSON" in caplog.text
    assert "the whole frame is read" in caplog.text
    assert (tmp_path / TRAY_NAME).read_text().startswith('{"format"'), "the file is left as found"
    assert_matches_golden(draw(notice), "screen-notice-tray-file", update_golden)
    companion = Companion(dummy_display(), GameSetup(NAMES), notice=notice)
    assert companion.screen == NoticeScreen("Tray file unreadable", ("Whole frame is read.", "Run calibrate again;", "the log says why."))
    companion.watcher.reader = lambda frame, up=None, closer=0: DiceReading((ON_THE_DESK, *IN_TRAY[:3]))
    press(companion, Press.SELECT)
    start_game(companion)
    press(companion, Press.ROLL)
    show(companion, np.zeros((480, 640, 3), np.uint8))
    assert companion.state.dice.dice == (1, 2, 3, 5), "the die beside the tray is read: there is no tray"


def test_a_stored_tray_is_taken_to_the_table(tmp_path):
    save_tray(tmp_path, TRAY, np.zeros((480, 640, 3), np.uint8))
    assert tray_at_table(tmp_path) == (TRAY, None)
    assert tray_at_table(tmp_path / "never-calibrated") == (None, None)


def test_a_notice_waits_for_the_one_already_showing():
    first = NoticeScreen("First", ("one",))
    companion = Companion(dummy_display(), GameSetup(NAMES), notice=first)
    companion._notify(NoticeScreen("Second", ("two",)))
    assert companion.screen == first
    press(companion, Press.SELECT)
    assert companion.screen == NoticeScreen("Second", ("two",))
    press(companion, Press.SELECT)
    assert not isinstance(companion.screen, NoticeScreen)


def test_run_reads_the_tray_file_and_a_corrupt_one_stops_nothing(monkeypatch, tmp_path, caplog):
    (tmp_path / TRAY_NAME).write_bytes(b"\x00garbage")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q"))
    config = parse_config(
        {"buttons": {"source": "keyboard"}, "display": {"type": "dummy"}, "camera": {"backend": "synthetic"},
         "data": {"dir": str(tmp_path)}}
    )
    with caplog.at_level(logging.ERROR):
        assert run_device(config).winner is None
    assert "is not a usable tray outline" in caplog.text


def test_on_the_simulated_desk_a_calibrated_tray_reads_the_thrown_dice():
    """The synthetic camera's desk scene, calibrated, then a throw read by the real reader."""
    from firmware.devices import camera_opener
    from vision.read.tray import find_tray

    config = parse_config({"camera": {"backend": "synthetic", "width": 640, "height": 480, "scene": "desk", "seed": 3}})
    opener = camera_opener(config.camera)
    assert opener is not None
    camera = opener()
    tray = find_tray(camera.frame())
    assert tray is not None
    companion = Companion(dummy_display(), GameSetup(NAMES), tray=tray)
    start_game(companion)
    values = camera.place((1, 4, 5, 6))  # type: ignore[attr-defined]
    press(companion, Press.ROLL)
    for _ in range(10):
        companion.handle(FrameEvent(camera.frame()))
    assert companion.state.dice.dice == values
