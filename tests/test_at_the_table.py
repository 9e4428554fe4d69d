"""Photos read as at the table: the tray from the labelled dice's spread, the count known, the refusals told apart."""

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from vision.measure.at_the_table import at_the_table, spread_tray
from vision.measure.evaluation import CloserLook, LabelledPhoto, PhotoResult, TableFigures, table_outcome
from vision.read.params import DEFAULT_PARAMS
from vision.read.reading import DiceReading, Die
from vision.scenes.synthetic import random_look, render_tray

FRAME = (400, 300)
BOXES = ((90.0, 90.0, 110.0, 110.0, 2), (150.0, 90.0, 170.0, 110.0, 5))  # dice of 20 px at (100, 100), (160, 100)


def die(value, centre, presence=1.0, confidence=0.99):
    return Die(value=value, centre=centre, size=20.0, confidence=confidence, presence=presence)


def test_the_tray_is_the_centres_spread_grown_by_the_median_die_size_and_cut_to_the_frame():
    tray = spread_tray([((100.0, 100.0), 20.0), ((160.0, 100.0), 20.0), ((390.0, 290.0), 40.0)], 1.5, FRAME)
    assert tray.points == ((70.0, 70.0), (400.0, 70.0), (400.0, 300.0), (70.0, 300.0))
    assert spread_tray([], 1.5, FRAME).points == ((0.0, 0.0), (400.0, 0.0), (400.0, 300.0), (0.0, 300.0))


def test_at_the_table_keeps_the_dice_inside_the_spread_then_the_likeliest_of_the_count():
    """Read anywhere, a die beyond the spread makes a wrong pair taken silently; in the tray only the 2
    is clear, and knowing two were thrown, the doubtful die there makes the second."""
    photo = LabelledPhoto("x_1.jpg", (2, 5), "test", BOXES)
    reading = DiceReading((die(2, (100.0, 100.0)), die(4, (300.0, 250.0))), (die(5, (160.0, 100.0), presence=0.6),))
    result = PhotoResult(photo, reading, 1.0, frame_size=FRAME)
    assert result.table_outcome == "silent"
    assert at_the_table(result, 1.5, known_count=False).table_outcome == "missed"
    taken = at_the_table(result, 1.5, known_count=True)
    assert taken.reading.values == (2, 5) and taken.table_outcome == "right"


def test_a_photo_read_short_in_its_tray_is_taken_from_its_closer_look_cut_to_the_tray(tmp_path):
    """The closer look (read again only then, from the image file) finds the 5 and a die beyond the tray."""
    photo = LabelledPhoto("x_1.jpg", (2, 5), "test", BOXES)
    cv2.imwrite(str(tmp_path / "x_1.png"), np.zeros((FRAME[1], FRAME[0], 3), np.uint8))
    reads = []

    def read(image, params):
        reads.append(params.coarse_shrink)
        return DiceReading((die(2, (100.0, 100.0)), die(5, (160.0, 100.0)), die(4, (300.0, 250.0))))

    closer = CloserLook(read, tmp_path / "x_1.png", DEFAULT_PARAMS)
    result = PhotoResult(photo, DiceReading((die(2, (100.0, 100.0)),)), 1.0, frame_size=FRAME, closer=closer)
    assert at_the_table(result, 1.5, known_count=False).table_outcome == "missed" and not reads
    taken = at_the_table(result, 1.5, known_count=True)
    assert taken.reading.values == (2, 5) and taken.table_outcome == "right"
    assert reads == [DEFAULT_PARAMS.closer_looks[0][0]]


def test_a_photo_its_first_closer_look_finds_short_is_taken_from_its_second_each_look_read_once(tmp_path):
    """The first closer look finds only the 2 in the tray; the second (the coarse pass at 3) the 5 too.
    Taken again, the photo reads no look a second time."""
    photo = LabelledPhoto("x_1.jpg", (2, 5), "test", BOXES)
    cv2.imwrite(str(tmp_path / "x_1.png"), np.zeros((FRAME[1], FRAME[0], 3), np.uint8))
    reads = []

    def read(image, params):
        reads.append((params.coarse_shrink, params.fine_shrink))
        second = params.coarse_shrink == DEFAULT_PARAMS.closer_looks[1][0]
        return DiceReading((die(2, (100.0, 100.0)),) + ((die(5, (160.0, 100.0)),) if second else ()))

    closer = CloserLook(read, tmp_path / "x_1.png", DEFAULT_PARAMS)
    result = PhotoResult(photo, DiceReading((die(2, (100.0, 100.0)),)), 1.0, frame_size=FRAME, closer=closer)
    assert at_the_table(result, 1.5, known_count=True).reading.values == (2, 5)
    assert at_the_table(result, 1.5, known_count=True).table_outcome == "right"
    assert reads == list(DEFAULT_PARAMS.closer_looks[:2]), "the looks after the one taken are not read"


@pytest.mark.parametrize(("dice", "exact", "outcome"), [
    ((die(2, (0, 0)), die(None, (9, 9)), die(5, (5, 5))), False, "extra"),  # the count is told before the unsure die
    ((die(None, (0, 0)),), False, "missed"),
    ((die(2, (0, 0)), die(None, (9, 9))), False, "unsure"),
    ((die(2, (0, 0)), die(5, (9, 9))), True, "right"),
    ((die(2, (0, 0)), die(6, (9, 9))), False, "silent"),
])
def test_a_throw_is_refused_for_the_count_first_then_an_unsure_die(dice, exact, outcome):
    assert table_outcome(DiceReading(dice), 2, exact) == outcome


def test_the_table_figures_say_each_refusal_apart_and_the_photos():
    figures = TableFigures.of(["right"] * 5 + ["extra", "unsure", "unsure", "silent"])
    assert figures.line() == "table: right 55.6% refused 33.3% silent 11.1%"
    assert figures.line("at the table", "photos") == (
        "at the table: right 55.6% refused 33.3% (extra 1 unsure 2 missed 0) silent 11.1% photos 9")


@pytest.fixture
def tray_folder(tmp_path):
    """Two photos: three labelled dice with a fourth, unlabelled, far beyond them on the same cloth
    (the companion's tray would not hold it), and a photo without boxes."""
    rng = np.random.default_rng(5)
    look = random_look(rng)
    thrown, thrown_dice = render_tray([1, 3, 6], rng, (320, 240), look=look)
    beyond, _ = render_tray([4], rng, (320, 240), look=look)
    gap = np.empty_like(thrown)
    gap[:] = look.background
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "cloth_1.png"), np.hstack([thrown, gap, beyond]))
    cv2.imwrite(str(tmp_path / "images" / "cloth_2.png"), thrown)
    (tmp_path / "manifest.csv").write_text("file,values\ncloth_1.png,1 3 6\ncloth_2.png,1 3 6\n")
    rows = [f"cloth_1.png,{x - s / 2},{y - s / 2},{x + s / 2},{y + s / 2},{d.value}"
            for d in thrown_dice for x, y, s in [d.box()]]
    (tmp_path / "boxes.csv").write_text("file,x0,y0,x1,y1,value\n" + "\n".join(rows) + "\n")
    return tmp_path


def test_eval_vision_reads_only_the_dice_in_the_tray_and_ends_with_the_at_the_table_line(tray_folder, capsys):
    assert main(["eval-vision", str(tray_folder), "--only", "cloth_1*"]) == 0
    assert "per-photo 0.0%" in capsys.readouterr().out.splitlines()[-1]  # read anywhere, the fourth die is extra
    assert main(["eval-vision", str(tray_folder), "--tray-from-boxes", "1.5", "--table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "left out 1 of 2 photos: no labelled boxes to place the tray by"
    assert "per-photo 100.0%" in lines[-2]
    assert lines[-1] == "at the table: right 100.0% refused 0.0% (extra 0 unsure 0 missed 0) silent 0.0% photos 1"


@pytest.mark.parametrize("margin", ["-1", "0", "nan", "wide"])
def test_a_tray_margin_that_is_no_positive_number_is_refused_in_one_line(margin, capsys):
    with pytest.raises(SystemExit):
        main(["eval-vision", ".", "--tray-from-boxes", margin])
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        f"argument --tray-from-boxes: must be a number of die sizes above 0, such as 1.5, got '{margin}'")


def test_eval_vision_at_the_table_needs_boxes(tray_folder, capsys):
    assert main(["eval-vision", str(tray_folder), "--only", "cloth_2*", "--tray-from-boxes", "1.5"]) == 2
    assert capsys.readouterr().err == "dice-companion: no photo has labelled boxes (boxes.csv) to place its tray by\n"


def test_a_photo_is_taken_as_its_camera_leaned_as_it_was_read():
    """The photo read with its far side at the picture's top: the candidate just below the 2 is its
    side face, and the throw is taken; read straight down, the same candidate refuses it."""
    photo = LabelledPhoto("x_1.jpg", (2, 5), "test", BOXES)
    reading = DiceReading((die(2, (100.0, 100.0)), die(5, (160.0, 100.0)), die(None, (100.0, 111.0), presence=0.8)))

    def never(image, params):
        raise AssertionError("looked at again although no die is missing")

    for up, outcome in ((0.0, "right"), (None, "extra")):
        closer = CloserLook(never, Path("x_1.png"), replace(DEFAULT_PARAMS, up=up))
        result = PhotoResult(photo, reading, 1.0, frame_size=FRAME, closer=closer)
        assert at_the_table(result, 1.5, known_count=True).table_outcome == outcome
