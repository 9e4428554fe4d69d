"""A camera that leans too far is told: ``calibrate`` says the tilt it found and, past
``TILT_WARNING``, tells the player on stderr and in one line on the OLED to raise the camera over
the tray's middle; ``run`` says it again at start, in the log and on the OLED. Below the warning
nothing more is said."""

from __future__ import annotations

import io
import re
import logging
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.calibration import _tray_view, camera_lean
from firmware.calibration._tray_view import PICTURE_SIZE, WARNING_TOP_PX, tray_view
from firmware.calibration.calibrate import calibrate
from firmware.calibration.camera_lean import TILT_WARNING, advice
from firmware.calibration.tray_file import load_tray, save_tray
from firmware.config import load_config, parse_config
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import NoticeScreen, draw
from firmware.table.companion import Companion
from firmware.table.start import run_device, tray_at_table
from golden import assert_matches_golden, watch_for_cut_text
from hardware.display import dummy_display
from table_helpers import NAMES
from test_camera_tilt import seen
from test_tray import SIZE, desk_scene
from vision.read.tray import TrayOutline

STEEP, GENTLE = 35.0, 10.0  # degrees: well past the warning, and well below it


def leaning_tray(tilt: float) -> TrayOutline:
    """The outline of a tray seen ``tilt`` degrees from straight down, its corners to 0.01 px as stored."""
    return TrayOutline(tuple((round(x, 2), round(y, 2)) for x, y in seen(tilt, turn=15.0, roll=10.0).points), SIZE)


def calibrated(folder: Path, tilt: float, corners: bool = False) -> tuple[int, str, str, object]:
    """Calibrate on a picture of a desk whose tray the camera sees ``tilt`` degrees from straight
    down (found in it, or given as the configuration's exact corners); the exit status, stdout,
    stderr and the OLED's picture."""
    tray = leaning_tray(tilt).points
    frames = folder / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "desk.png"), desk_scene(tray, seed=3))
    given = f"[tray]\ncorners = {[[float(x), float(y)] for x, y in tray]}\n" if corners else ""
    path = folder / "table.toml"
    path.write_text(f'[display]\ntype = "dummy"\n[camera]\nbackend = "folder"\nfolder = "{frames}"\n{given}'
                    f'[data]\ndir = "{folder / "data"}"\n')
    display, out, err = dummy_display(persist=True), io.StringIO(), io.StringIO()
    status = calibrate(load_config(path), display, out, err)
    return status, out.getvalue(), err.getvalue(), display.device.image


def test_calibrate_tells_a_camera_leaning_past_the_warning_to_rise_over_the_tray(tmp_path, monkeypatch, update_golden):
    cut = watch_for_cut_text(monkeypatch, _tray_view)  # its warning line in the tiny font
    status, out, err, picture = calibrated(tmp_path, STEEP)
    assert status == 0 and (tmp_path / "data" / "tray.json").exists(), "the tray is stored all the same"
    assert out.splitlines()[2] == ("camera tilt: 35 degrees from straight down (from the tray's corners, "
                                   "taking the lens as 55 degrees across)")
    assert err == f"dice-companion calibrate: {advice(35.0)}\n"
    assert "raise it higher, over the middle of the tray" in err
    assert_matches_golden(picture, "calibrate-tray-leaning", update_golden, dithered=(0, 0, PICTURE_SIZE[0], WARNING_TOP_PX - 2))
    assert cut == []


def test_calibrate_below_the_warning_says_the_tilt_and_nothing_more(tmp_path):
    status, out, err, picture = calibrated(tmp_path, GENTLE)
    assert status == 0 and err == ""
    found = re.fullmatch(r"camera tilt: (\d+) degrees from straight down \(.*\)", out.splitlines()[2])
    assert found is not None and abs(int(found.group(1)) - GENTLE) <= 1, "the tray finder's corners add a degree at most"
    frame = cv2.imread(str(tmp_path / "frames" / "desk.png"))
    tray = load_tray(tmp_path / "data")
    assert picture == tray_view(frame, tray, ("Tray", "found,", "saved."))


@pytest.mark.parametrize(("tilt", "warned"), [(TILT_WARNING - 0.5, False), (TILT_WARNING + 0.5, True)])
def test_the_warning_starts_just_past_the_threshold(tmp_path, tilt, warned):
    status, _, err, _ = calibrated(tmp_path, tilt, corners=True)
    assert status == 0 and (err != "") == warned


def test_run_says_it_again_at_start_in_the_log_and_on_the_oled(tmp_path, caplog, monkeypatch, update_golden):
    cut = watch_for_cut_text(monkeypatch)
    save_tray(tmp_path, leaning_tray(STEEP), np.zeros((SIZE[1], SIZE[0], 3), np.uint8))
    with caplog.at_level(logging.INFO):
        tray, notice = tray_at_table(tmp_path)
    assert tray == leaning_tray(STEEP) and notice == camera_lean.notice(35.0)
    assert ("dice_companion", logging.WARNING, advice(35.0)) in caplog.record_tuples
    assert_matches_golden(draw(notice), "screen-notice-camera-leans", update_golden)
    assert cut == []
    companion = Companion(dummy_display(), GameSetup(NAMES), notice=notice, tray=tray)
    assert companion.screen == NoticeScreen("Camera leans 35 deg", ("Raise it over the", "middle of the tray,", "then calibrate again."))
    assert companion.watcher.tray == tray, "the tray is used all the same"


def test_run_below_the_warning_says_nothing_of_the_tilt(tmp_path, caplog):
    save_tray(tmp_path, leaning_tray(GENTLE), np.zeros((SIZE[1], SIZE[0], 3), np.uint8))
    with caplog.at_level(logging.INFO):
        assert tray_at_table(tmp_path) == (leaning_tray(GENTLE), None)
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


def test_the_device_logs_it_when_run_starts(monkeypatch, tmp_path, caplog):
    save_tray(tmp_path, leaning_tray(STEEP), np.zeros((SIZE[1], SIZE[0], 3), np.uint8))
    monkeypatch.setattr(sys, "stdin", io.StringIO("q"))
    config = parse_config({"buttons": {"source": "keyboard"}, "display": {"type": "dummy"},
                           "camera": {"backend": "synthetic", "width": SIZE[0], "height": SIZE[1]},
                           "data": {"dir": str(tmp_path)}})
    with caplog.at_level(logging.WARNING):
        run_device(config)
    assert advice(35.0) in caplog.text
