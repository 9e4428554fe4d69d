"""``dice-companion calibrate`` end to end on the synthetic camera and luma's dummy OLED: the tray
found on a cluttered desk or taken from the configuration, stored; the levels of a board game's
board likewise; every failure said and nothing stored."""

from __future__ import annotations

import io
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.calibration._tray_view import PICTURE_SIZE
from firmware.calibration.board_file import LEVELS_NAME, LEVELS_PICTURE_NAME, load_levels
from firmware.calibration.calibrate import calibrate
from firmware.calibration.tray_file import TRAY_NAME, TRAY_PICTURE_NAME, load_tray
from firmware.cli import main
from firmware.config import ConfigError, load_config, parse_config
from firmware.devices import camera_opener
from firmware.games import GAMES
from golden import assert_matches_golden
from hardware.display import dummy_display
from vision.board.board_levels import LEVELS, LevelMap, LevelMapError
from vision.read.tray import TrayError, TrayOutline

DESK = '[display]\ntype = "dummy"\n[camera]\nbackend = "synthetic"\nwidth = 640\nheight = 480\nscene = "desk"\n'
CORNERS = [[100, 60], [560, 80], [540, 430], [90, 400]]


def config_file(folder: Path, text: str) -> Path:
    path = folder / "table.toml"
    path.write_text(text + '[data]\ndir = "data"\n')
    return path


def run(folder: Path, text: str, surface: str = "tray") -> tuple[int, str, str, object]:
    """Calibrate with ``text`` as the configuration; the exit status, stdout, stderr and the OLED's picture."""
    display, out, err = dummy_display(persist=True), io.StringIO(), io.StringIO()
    status = calibrate(load_config(config_file(folder, text)), display, out, err, surface)
    return status, out.getvalue(), err.getvalue(), display.device.image


def test_the_command_finds_the_tray_on_a_cluttered_desk_and_stores_it(tmp_path, capsys):
    assert main(["calibrate", "--config", str(config_file(tmp_path, DESK))]) == 0
    out = capsys.readouterr().out.splitlines()
    data = tmp_path / "data"
    assert out == [
        "tray outline found in the camera's view (640x480 frame)",
        "corners: (127.5, 66.7) (511.5, 66.7) (511.5, 412.3) (127.5, 412.3)",
        "camera tilt: 0 degrees from straight down (from the tray's corners, taking the lens as 55 degrees across)",
        f"stored: {data / TRAY_NAME}",
        f"picture: {data / TRAY_PICTURE_NAME}",
        "at the table only dice inside this outline count (dice-companion run reads it at start)",
    ]
    tray = load_tray(data)
    assert tray is not None and tray.frame_size == (640, 480)
    assert np.allclose(tray.points, ((128, 67.2), (512, 67.2), (512, 412.8), (128, 412.8)), atol=1.5)
    picture = cv2.imread(str(data / TRAY_PICTURE_NAME))
    assert picture.shape == (480, 640, 3)
    assert sorted(p.name for p in data.iterdir()) == [TRAY_NAME, TRAY_PICTURE_NAME], "no temporary files left"


def test_the_oled_shows_the_view_with_the_outline(tmp_path, update_golden):
    status, _, err, picture = run(tmp_path, DESK)
    assert status == 0 and err == ""
    assert_matches_golden(picture, "calibrate-tray-found", update_golden, dithered=(0, 0, *PICTURE_SIZE))


def test_corners_from_the_configuration_are_taken_as_they_are(tmp_path):
    text = DESK.replace('scene = "desk"\n', "") + f"[tray]\ncorners = {CORNERS}\n"
    status, out, _, _ = run(tmp_path, text)
    assert status == 0
    assert out.splitlines()[:2] == [
        "tray outline taken from tray.corners in the configuration (640x480 frame)",
        "corners: (100.0, 60.0) (560.0, 80.0) (540.0, 430.0) (90.0, 400.0)",
    ]
    assert load_tray(tmp_path / "data") == TrayOutline(tuple((float(x), float(y)) for x, y in CORNERS), (640, 480))


def test_no_tray_in_view_is_said_everywhere_and_nothing_is_stored(tmp_path, update_golden):
    data = tmp_path / "data"
    data.mkdir()
    (data / TRAY_NAME).write_text("the outline stored before")
    status, out, err, picture = run(tmp_path, DESK.replace('scene = "desk"', 'scene = "tray"'))
    assert status == 1 and out == ""
    assert err.startswith("dice-companion calibrate: no tray found in the camera's view: the empty tray must lie")
    assert "[tray] corners = [[x, y], [x, y], [x, y], [x, y]]" in err and err.endswith("nothing was stored\n")
    assert (data / TRAY_NAME).read_text() == "the outline stored before", "the last good outline is kept"
    assert not (data / TRAY_PICTURE_NAME).exists()
    assert_matches_golden(picture, "calibrate-no-tray", update_golden)


def test_a_camera_that_fails_is_said_and_nothing_is_stored(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    (frames / "a.png").write_bytes(b"\x89PNG truncated")
    status, out, err, picture = run(tmp_path, f'[display]\ntype = "dummy"\n[camera]\nbackend = "folder"\nfolder = "{frames}"\n')
    assert status == 1 and out == ""
    assert "dice-companion calibrate: camera: cannot decode " in err and "nothing was stored" in err
    assert not (tmp_path / "data").exists()
    assert np.asarray(picture.convert("L"))[:, 86:].any(), "the OLED says so"


def test_without_a_camera_there_is_nothing_to_calibrate(tmp_path):
    status, _, err, _ = run(tmp_path, '[display]\ntype = "dummy"\n[camera]\nbackend = "none"\n')
    assert status == 1 and 'camera.backend = "none": calibrating the tray needs a camera' in err


def test_corners_outside_the_frame_the_camera_gives_are_refused(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), np.full((240, 320, 3), 90, np.uint8))
    text = f'[display]\ntype = "dummy"\n[camera]\nbackend = "folder"\nfolder = "{frames}"\n[tray]\ncorners = {CORNERS}\n'
    status, _, err, _ = run(tmp_path, text)
    assert status == 1 and "tray.corners: tray corner (560, 80) lies outside the 320x240 frame" in err
    assert not (tmp_path / "data" / TRAY_NAME).exists()


def test_a_data_folder_that_cannot_be_written_is_said(tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    status, _, err, _ = run(tmp_path, DESK)
    assert status == 1 and "cannot store the tray in" in err


@pytest.mark.parametrize(
    ("corners", "message"),
    [
        ([[0, 0], [10, 0], [10, 10]], "tray.corners = \\[\\[0, 0\\], \\[10, 0\\], \\[10, 10\\]\\]: allowed is four corners"),
        ([[0, 0], [10, 0], [10, 10], [0]], "allowed is four corners \\[\\[x, y\\]"),
        ([[0, 0], [10, 0], [10, "ten"], [0, 10]], "allowed is four corners"),
        ([[0, 0], [10, 0], [10, True], [0, 10]], "allowed is four corners"),
        ([[0, 0], [1400, 0], [1400, 10], [0, 10]], "\\[1400, 0\\] lies outside the frame; allowed is .* inside the camera's 1280x960 frame"),
        ([[0, 0], [10, 10], [10, 0], [0, 10]], "do not go round a convex area"),
        ([[0, 0], [5, 0], [10, 0], [0, 10]], "three lie in a line"),
        ("all of it", "tray.corners = 'all of it': allowed is four corners"),
    ],
)
def test_wrong_corners_in_the_configuration_are_refused(corners, message):
    with pytest.raises(ConfigError, match=message):
        parse_config({"tray": {"corners": corners}})


def test_the_configuration_knows_only_corners_in_its_tray_section():
    with pytest.raises(ConfigError, match="unknown key tray.outline; known: corners"):
        parse_config({"tray": {"outline": []}})


def test_a_missing_tray_file_is_no_tray_and_a_corrupt_one_is_named(tmp_path):
    assert load_tray(tmp_path) is None
    (tmp_path / TRAY_NAME).write_text('{"format": "dice-companion tray", "version": 1, "frame": [640, 480]')
    with pytest.raises(TrayError, match=f"{tmp_path / TRAY_NAME} is not a usable tray outline \\(not JSON.*calibrate again"):
        load_tray(tmp_path)
    (tmp_path / TRAY_NAME).write_bytes(b"\xff\xfe")
    with pytest.raises(TrayError, match="cannot read the tray outline"):
        load_tray(tmp_path)
    (tmp_path / TRAY_NAME).write_text(json.dumps({"format": "dice-companion tray"}))
    with pytest.raises(TrayError, match="version None"):
        load_tray(tmp_path)


BOARD = DESK.replace('width = 640\nheight = 480\nscene = "desk"', 'width = 800\nheight = 600\nscene = "board"')
LEVEL_OUTLINES = [[[100 + 10 * k, 100 * k], [700 - 10 * k, 100 * k], [710 - 10 * k, 100 * k + 100], [90 + 10 * k, 100 * k + 100]]
                  for k in range(LEVELS)]
USE = "at the table a die counts on the level whose outline holds it (the board is read with these at every look)"


def _overlap(first, second, size):
    """Intersection over union of two outlines' areas."""
    masks = [cv2.fillPoly(np.zeros(size[::-1], np.uint8), [np.round(np.array(o)).astype(np.int32)], 1) > 0 for o in (first, second)]
    return np.count_nonzero(masks[0] & masks[1]) / np.count_nonzero(masks[0] | masks[1])


def test_the_board_is_found_on_the_simulated_board_and_its_levels_stored(tmp_path, update_golden):
    status, out, err, picture = run(tmp_path, BOARD, "board")
    assert status == 0 and err == ""
    data = tmp_path / "data"
    lines = out.splitlines()
    assert lines[0] == "board levels found in the camera's view (800x600 frame)"
    assert [line.split(": ")[0] for line in lines[1:6]] == [f"level {level}" for level in range(LEVELS)]
    assert lines[6:] == [f"stored: {data / LEVELS_NAME}", f"picture: {data / LEVELS_PICTURE_NAME}", USE]
    levels = load_levels(data)
    drawn = camera_opener(load_config(tmp_path / "table.toml").camera)().levels
    assert levels is not None and levels.frame_size == drawn.frame_size == (800, 600)
    assert all(_overlap(levels.outlines[k], drawn.outlines[k], (800, 600)) >= 0.9 for k in range(LEVELS))
    assert cv2.imread(str(data / LEVELS_PICTURE_NAME)).shape == (600, 800, 3)
    assert sorted(p.name for p in data.iterdir()) == [LEVELS_NAME, LEVELS_PICTURE_NAME], "no temporary files left"
    assert_matches_golden(picture, "calibrate-board-found", update_golden, dithered=(0, 0, *PICTURE_SIZE))


def test_board_levels_from_the_configuration_are_taken_as_they_are(tmp_path):
    status, out, _, _ = run(tmp_path, BOARD + f"[board]\nlevels = {LEVEL_OUTLINES}\n", "board")
    assert status == 0
    assert out.splitlines()[:2] == [
        "board levels taken from board.levels in the configuration (800x600 frame)",
        "level 0: (100.0, 0.0) (700.0, 0.0) (710.0, 100.0) (90.0, 100.0)",
    ]
    given = tuple(tuple((float(x), float(y)) for x, y in outline) for outline in LEVEL_OUTLINES)
    assert load_levels(tmp_path / "data") == LevelMap(given, (800, 600))


def test_no_board_in_view_is_said_and_the_levels_stored_before_are_kept(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / LEVELS_NAME).write_text("the levels stored before")
    status, out, err, picture = run(tmp_path, BOARD.replace('scene = "board"', 'scene = "tray"'), "board")
    assert status == 1 and out == ""
    assert err.startswith("dice-companion calibrate: no board found: ") and "photograph the empty board" in err
    assert "[board] levels = [[[x, y], ...], ...]" in err and err.endswith("nothing was stored\n")
    assert (data / LEVELS_NAME).read_text() == "the levels stored before"
    assert not (data / LEVELS_PICTURE_NAME).exists()
    assert np.asarray(picture.convert("L"))[:, 86:].any(), "the OLED says so"


def test_a_board_without_a_camera_or_with_levels_outside_the_frame_is_refused(tmp_path):
    status, _, err, _ = run(tmp_path, '[display]\ntype = "dummy"\n[camera]\nbackend = "none"\n', "board")
    assert status == 1 and 'camera.backend = "none": calibrating the board needs a camera' in err
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), np.full((240, 320, 3), 90, np.uint8))
    text = f'[display]\ntype = "dummy"\n[camera]\nbackend = "folder"\nfolder = "{frames}"\n[board]\nlevels = {LEVEL_OUTLINES}\n'
    status, _, err, _ = run(tmp_path, text, "board")
    assert status == 1 and "board.levels: level 0's corner (700, 0) lies outside the 320x240 frame" in err
    assert not (tmp_path / "data").exists()


def test_a_data_folder_that_cannot_take_the_levels_is_said(tmp_path):
    (tmp_path / "data").write_text("a file where the folder should be")
    status, _, err, _ = run(tmp_path, BOARD, "board")
    assert status == 1 and "cannot store the board's levels in" in err and err.endswith("nothing was stored\n")


def test_the_game_says_what_to_calibrate(tmp_path, capsys):
    """A tray game's --game calibrates the tray as before; a game without dice has nothing to calibrate."""
    text = config_file(tmp_path, DESK)
    assert main(["calibrate", "--game", "counters", "--config", str(text)]) == 0
    assert capsys.readouterr().out.startswith("tray outline found in the camera's view (640x480 frame)\n")
    assert main(["calibrate", "--game", "columns", "--config", str(text)]) == 1
    assert capsys.readouterr().err == "dice-companion calibrate: Columns reads no dice, so there is nothing to calibrate\n"


def test_the_command_calibrates_the_board_of_a_board_game(tmp_path, capsys):
    board_games = [game.kind for game in GAMES if game.camera == "board"]
    if not board_games:
        pytest.skip("no board game is in firmware.games yet")
    assert main(["calibrate", "--game", board_games[0], "--config", str(config_file(tmp_path, BOARD))]) == 0
    assert capsys.readouterr().out.startswith("board levels found in the camera's view (800x600 frame)\n")
    assert load_levels(tmp_path / "data") is not None


def test_a_missing_levels_file_is_no_board_and_a_corrupt_one_is_named(tmp_path):
    assert load_levels(tmp_path) is None
    path = tmp_path / LEVELS_NAME
    path.write_text('{"format": "dice-companion board levels", "version": 1')
    with pytest.raises(LevelMapError, match=f"{path} is not a usable board level map \\(not JSON.*run dice-companion calibrate --game tumblin again"):
        load_levels(tmp_path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(LevelMapError, match="cannot read the board level map"):
        load_levels(tmp_path)
    path.write_text(json.dumps({"format": "dice-companion board levels", "version": 1, "frame": [800, 600], "levels": []}))
    with pytest.raises(LevelMapError, match="one outline per level.*calibrate --game tumblin again"):
        load_levels(tmp_path)


def test_a_stepped_board_is_not_taken_for_a_tray_and_the_tray_stored_before_is_kept(tmp_path, update_golden):
    """Level 2's band was taken for the tray and replaced a good one: the dice lesson then saw 1 die of 4."""
    data = tmp_path / "data"
    data.mkdir()
    (data / TRAY_NAME).write_text("the tray stored before")
    status, out, err, picture = run(tmp_path, BOARD)
    assert status == 1 and out == ""
    assert err == ("dice-companion calibrate: the camera sees a stepped board, not a dice tray: a game played on a "
                   "board (Tumblin' Dice) is calibrated with its levels, dice-companion calibrate --game tumblin; "
                   "nothing was stored\n")
    assert (data / TRAY_NAME).read_text() == "the tray stored before"
    assert_matches_golden(picture, "calibrate-tray-sees-a-board", update_golden, dithered=(0, 0, *PICTURE_SIZE))


def test_a_tray_stored_before_is_said_to_be_replaced(tmp_path, update_golden):
    assert run(tmp_path, DESK)[0] == 0
    status, out, err, picture = run(tmp_path, DESK)
    assert status == 0 and err == ""
    corners = out.splitlines()[1].removeprefix("corners: ")
    assert out.splitlines()[3] == f"replaced the outline stored before (corners: {corners})"
    assert_matches_golden(picture, "calibrate-tray-replaced", update_golden, dithered=(0, 0, *PICTURE_SIZE))
