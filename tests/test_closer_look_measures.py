"""Every measure that knows the count takes a throw read short as the companion does: looked at again
closer (``vision.read.reader.taken``), read with the same far side and table layer, cut to the same tray."""

import cv2
import numpy as np
import pytest

from firmware import vision_commands
from firmware.calibration import table_dice
from firmware.calibration.table_dice import TableDice
from vision.measure import tuning_evaluation
from vision.measure.evaluation import LabelledPhoto, evaluate
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import closer_look
from vision.read.reading import DiceReading, Die
from vision.scenes.synthetic import PlacedDie


def die(value, centre, size=40.0):
    return Die(value=value, centre=centre, size=size, confidence=0.99)


FIRST, SECOND = DEFAULT_PARAMS.closer_looks[:2]  # (coarse, fine) shrinks of the first two closer looks
USUAL = (DEFAULT_PARAMS.coarse_shrink, DEFAULT_PARAMS.fine_shrink)


class TwoLooks:
    """A reader that sees the 2 at the usual look and, only at the closer look ``finds_at`` (its
    detector passes' shrinks), the 5 beside it and a 4 far off; it remembers each read's passes."""

    def __init__(self, finds_at: tuple[int, int] = FIRST) -> None:
        self.finds_at = finds_at
        self.passes: list[tuple[int, int]] = []

    def __call__(self, image, params=DEFAULT_PARAMS, **told) -> DiceReading:
        read = closer_look(params, told["closer"]) if told.get("closer") else params
        self.passes.append((read.coarse_shrink, read.fine_shrink))
        seen = [die(2, (100.0, 100.0))]
        if self.passes[-1] == self.finds_at:
            seen += [die(5, (160.0, 100.0)), die(4, (600.0, 600.0))]
        return DiceReading(tuple(seen))


@pytest.mark.parametrize(("finds_at", "passes"), [(FIRST, [USUAL, FIRST]), (SECOND, [USUAL, FIRST, SECOND])])
def test_evaluate_with_the_count_known_takes_a_short_photo_from_the_closer_look_that_finds_it(tmp_path, finds_at, passes):
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "x_1.png"), np.zeros((300, 400, 3), np.uint8))
    read = TwoLooks(finds_at)
    photo = LabelledPhoto("x_1.png", (2, 4, 5))
    result = next(evaluate(tmp_path, read, [photo], known_count=True))
    assert result.reading.values == (2, 4, 5) and read.passes == passes


@pytest.mark.parametrize(("finds_at", "passes"), [(FIRST, [USUAL, FIRST]), (SECOND, [USUAL, FIRST, SECOND])])
def test_bench_vision_at_the_table_cuts_the_closer_look_to_the_drawn_dice_spread(monkeypatch, finds_at, passes):
    """The 4 the closer look finds far beyond the two drawn dice lies outside the tray: the throw is right."""
    read = TwoLooks(finds_at)
    monkeypatch.setattr(vision_commands, "read_dice", read)
    placed = (PlacedDie(2, (100.0, 100.0), 40.0, 0.0), PlacedDie(5, (160.0, 100.0), 40.0, 0.0))
    reading = read(None)
    assert vision_commands._at_the_table(reading, np.zeros((640, 640, 3), np.uint8), placed, 1.5, DEFAULT_PARAMS) == "right"
    assert read.passes == passes


@pytest.mark.parametrize(("finds_at", "looks"), [(1, [0, 1]), (2, [0, 1, 2])])
def test_a_tables_tuned_reading_looks_again_closer_with_the_tables_layer(monkeypatch, tmp_path, finds_at, looks):
    told = []
    layer = object()

    def read_dice(image, params=DEFAULT_PARAMS, expected=None, head=None, *, up=None, closer=0):
        told.append((head, closer))
        return DiceReading((die(2, (100.0, 100.0)),) + ((die(5, (160.0, 100.0)),) if closer == finds_at else ()))

    monkeypatch.setattr(tuning_evaluation, "read_dice", read_dice)
    (tmp_path / "images").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "x_1.png"), np.zeros((300, 400, 3), np.uint8))
    anywhere, counted = tuning_evaluation._read(tmp_path, LabelledPhoto("x_1.png", (2, 5)), layer, DEFAULT_PARAMS)
    assert anywhere.reading.values == (2,) and counted.reading.values == (2, 5)
    assert told == [(layer, look) for look in looks]


def test_the_table_dice_reader_passes_the_closer_look_on(monkeypatch, tmp_path):
    told = []
    monkeypatch.setattr(table_dice, "read_dice", lambda frame, params, **kwargs: told.append(kwargs) or DiceReading(()))
    dice = TableDice(tmp_path, "white", background=False)
    dice.read(np.zeros((60, 60, 3), np.uint8), up=90.0, closer=2)
    assert told == [{"head": None, "up": 90.0, "closer": 2}]
