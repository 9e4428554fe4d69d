"""The ceiling (what the classifier alone reads on the labelled boxes) and why the pipeline lost each die it lost."""

import re
from dataclasses import replace

import cv2
import numpy as np
import pytest

from firmware.cli import main
from vision.measure.ceiling import CAUSES, ceiling, why_lost, why_table
from vision.measure.evaluation import LabelledPhoto, PhotoResult, box_readings
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import read_dice
from vision.read.reading import DiceReading, Die
from vision.scenes.synthetic import render_tray

CEILING = re.compile(r"ceiling: label-boxes \d+\.\d% pipeline \d+\.\d% said-on-boxes \d+\.\d%")


@pytest.fixture(scope="module")
def tray():
    """Five dice on a synthetic tray, their boxes, and the reader's own reading of them."""
    values = (1, 2, 3, 5, 6)
    image, placed = render_tray(values, np.random.default_rng(11), (640, 480))
    boxes = tuple((d.centre[0] - d.side / 2, d.centre[1] - d.side / 2, d.centre[0] + d.side / 2,
                   d.centre[1] + d.side / 2, d.value) for d in placed)
    return image, boxes, read_dice(image)


def box_faces(image, boxes, params=DEFAULT_PARAMS):
    return box_readings(image, boxes, params)[0]


def box_said(image, boxes, params=DEFAULT_PARAMS):
    return box_readings(image, boxes, params)[1]


def result_of(image, boxes, dice):
    photo = LabelledPhoto("t_1.png", tuple(sorted(b[4] for b in boxes)), "", boxes)
    return PhotoResult(photo, DiceReading(tuple(dice)), 1.0, box_faces(image, boxes))


def test_the_classifier_reads_every_labelled_box_of_a_plain_tray(tray):
    image, boxes, reading = tray
    assert box_faces(image, boxes) == tuple(b[4] for b in boxes)
    assert ceiling([result_of(image, boxes, reading.dice)]).line() == "ceiling: label-boxes 100.0% pipeline 100.0%"


def test_a_die_the_pipeline_lost_lowers_the_pipeline_not_the_ceiling(tray):
    image, boxes, reading = tray
    limit = ceiling([result_of(image, boxes, reading.dice[1:])])
    assert (limit.dice, limit.boxes_right, limit.pipeline_right) == (5, 5, 4)


def test_the_faces_said_on_the_boxes_are_those_read_surely(tray):
    """On a plain tray every box's face is read surely; a threshold no face reaches says none, and
    the ceiling's line then tells the faces read right but not said apart from those read right."""
    image, boxes, reading = tray
    assert box_said(image, boxes) == tuple(b[4] for b in boxes)
    never = replace(DEFAULT_PARAMS, min_value_probability=1.01)
    assert box_said(image, boxes, never) == (0,) * len(boxes)
    leaning = replace(DEFAULT_PARAMS, up=0.0)  # its own classifier and threshold
    assert box_said(image, boxes, replace(leaning, leaning_min_value_probability=1.01)) == (0,) * len(boxes)
    assert box_said(image, boxes, replace(leaning, min_value_probability=1.01)) != (0,) * len(boxes)
    assert box_said(image, boxes, replace(DEFAULT_PARAMS, max_not_die_probability=-0.01)) == (0,) * len(boxes)
    photo = LabelledPhoto("t_1.png", tuple(sorted(b[4] for b in boxes)), "", boxes)
    faces = box_faces(image, boxes)
    said = box_said(image, boxes[:2], never) + box_said(image, boxes[2:])
    limit = ceiling([PhotoResult(photo, reading, 1.0, faces, said)])
    assert limit.line() == "ceiling: label-boxes 100.0% pipeline 100.0% said-on-boxes 60.0%"
    assert CEILING.fullmatch(limit.line())


def test_photos_without_boxes_have_no_ceiling():
    photo = LabelledPhoto("t_1.png", (1, 2))
    assert ceiling([PhotoResult(photo, DiceReading(), 1.0)]) is None


def causes(image, boxes, reading, replaced: dict[int, Die | None]) -> list[str]:
    """The causes why_lost gives when the reader's die at each box in ``replaced`` is swapped for another (or none)."""
    dice = [replaced.get(i, d) for i, d in enumerate(reading.dice)]
    return [lost.cause for lost in why_lost(result_of(image, boxes, [d for d in dice if d is not None]), image)]


@pytest.fixture(scope="module")
def by_box(tray):
    """The reader's die at each labelled box, in box order."""
    _, boxes, reading = tray
    return [min(reading.dice, key=lambda d: abs(d.centre[0] - (b[0] + b[2]) / 2) + abs(d.centre[1] - (b[1] + b[3]) / 2))
            for b in boxes]


def test_each_cause_is_named(tray, by_box):
    """An unsure die, another face, a die off its box read wrong, one merged over two: each its cause."""
    image, boxes, _ = tray
    first = by_box[0]
    wrong = 6 if boxes[0][4] != 6 else 1
    assert causes(image, boxes, DiceReading(tuple(by_box)), {0: Die(None, first.centre, first.size, 0.5)}) == ["unsure"]
    assert causes(image, boxes, DiceReading(tuple(by_box)), {0: Die(wrong, first.centre, first.size, 0.9)}) == [
        "another face"]
    shifted = (first.centre[0] + 0.4 * first.size, first.centre[1])
    assert causes(image, boxes, DiceReading(tuple(by_box)), {0: Die(wrong, shifted, first.size, 0.9)}) == [
        "box off the die"]
    a, b = by_box[2], by_box[3]
    centre = ((a.centre[0] + b.centre[0]) / 2, (a.centre[1] + b.centre[1]) / 2)
    span = max(abs(a.centre[0] - b.centre[0]), abs(a.centre[1] - b.centre[1])) + a.size
    neither = next(v for v in range(1, 7) if v not in (boxes[2][4], boxes[3][4]))  # the two faces read as one
    merged = Die(neither, centre, span, 0.9)
    assert causes(image, boxes, DiceReading(tuple(by_box)), {2: merged, 3: None}) == [
        "merged with a neighbour", "merged with a neighbour"]


def test_a_die_whose_box_covers_a_neighbour_read_on_its_own_is_lost_for_its_own_cause():
    """Two dice whose boxes overlap, as a leaning camera's boxes hold their side faces: the first read
    unsure covers the second's centre. With the second found and read it was lost unsure; with the
    second found by no die, the first may have swallowed it: merged."""
    image = np.zeros((300, 300, 3), np.uint8)
    boxes = ((70.0, 70.0, 130.0, 130.0, 4), (100.0, 80.0, 160.0, 140.0, 2))  # centres (100, 100), (130, 110)
    photo = LabelledPhoto("t_1.png", (2, 4), "", boxes)
    unsure, second = Die(None, (100.0, 100.0), 60.0, 0.5), Die(2, (130.0, 110.0), 60.0, 0.99)
    for dice, cause in (((unsure, second), "unsure"), ((unsure,), "merged with a neighbour")):
        result = PhotoResult(photo, DiceReading(dice), 1.0, box_faces=(4, 2))
        assert why_lost(result, image)[0].cause == cause


def test_a_die_read_and_then_cut_or_never_proposed(tray):
    image, boxes, reading = tray
    empty = (500.0, 400.0, 540.0, 440.0)
    nothing_there = empty + (box_faces(image, (empty + (1,),))[0],)
    lost = why_lost(result_of(image, boxes + (nothing_there,), reading.dice[1:]), image)
    assert [d.cause for d in lost] == ["cut by the count", "no candidate"]


def test_the_why_table_counts_every_cause_then_lists_the_dice(tray):
    image, boxes, reading = tray
    lines = why_table(why_lost(result_of(image, boxes, reading.dice[1:]), image))
    assert lines[0].startswith("why: 1 dice lost")
    assert len(lines) == 2 + len(CAUSES)
    assert "cut by the count" in lines[-1]


def test_eval_vision_prints_the_ceiling_before_the_overall_line_and_why_with_why(tray, tmp_path, capsys):
    image, boxes, _ = tray
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "t_1.png"), image)
    (tmp_path / "manifest.csv").write_text(f"file,values\nt_1.png,{' '.join(str(b[4]) for b in boxes)}\n")
    (tmp_path / "boxes.csv").write_text("file,x0,y0,x1,y1,value\n" + "".join(
        f"t_1.png,{b[0]},{b[1]},{b[2]},{b[3]},{b[4]}\n" for b in boxes))
    assert main(["eval-vision", str(tmp_path), "--why"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "why: 0 dice lost by the pipeline that the classifier reads right on the labelled box"
    assert CEILING.fullmatch(lines[-2]) and lines[-1].startswith("overall: ")
