"""A die read unsure is read again in other views: at each quarter turn for a camera straight down
(``ReaderParams.up`` None), mirrored left to right for one that leans."""

from dataclasses import replace

import numpy as np
import pytest

import vision.read.reader as reader
from vision.read.classify import NOT_A_DIE, classify, mirror_images, quarter_turns, reader_crop
from vision.read.params import DEFAULT_PARAMS
from vision.scenes.synthetic import render_tray


def _tray(seed: int = 5):
    image, placed = render_tray([2, 3, 5], np.random.default_rng(seed))
    return image, placed


@pytest.fixture
def turned(monkeypatch) -> list[np.ndarray]:
    """Every crop the reader turns by quarters, in order."""
    crops: list[np.ndarray] = []
    monkeypatch.setattr(reader, "quarter_turns", lambda crop: crops.append(crop) or quarter_turns(crop))
    return crops


@pytest.fixture
def mirrored(monkeypatch) -> list[np.ndarray]:
    """Every crop the reader mirrors, in order (the reader mirrors a batch at once)."""
    crops: list[np.ndarray] = []
    monkeypatch.setattr(reader, "mirror_images", lambda batch: crops.extend(batch) or mirror_images(batch))
    return crops


def test_quarter_turns_are_the_crop_turned_by_one_two_and_three_quarters():
    crop = np.arange(48 * 48 * 3, dtype=np.uint8).reshape(48, 48, 3)
    turns = quarter_turns(crop)
    assert turns.shape == (3, 48, 48, 3)
    assert np.array_equal(turns[1], crop[::-1, ::-1]), "half a turn"
    assert np.array_equal(np.rot90(turns[0], 3), crop) and np.array_equal(np.rot90(turns[2]), crop)


def test_the_mirror_image_keeps_the_far_side_at_the_top():
    crop = np.arange(48 * 48 * 3, dtype=np.uint8).reshape(48, 48, 3)
    mirror = mirror_images(crop[None])
    assert mirror.shape == (1, 48, 48, 3) and mirror.flags["C_CONTIGUOUS"]
    assert np.array_equal(mirror[0][:, ::-1], crop) and np.array_equal(mirror[0][0], crop[0][::-1]), "the top row stays on top"


def _unsure_and_no_die(read: np.ndarray) -> np.ndarray:
    """``read`` with its second crop a die of no face above 0.7 and its third no die."""
    read[1] = [0.3, 0.25, 0.2, 0.1, 0.05, 0.05, 0.05]
    read[2] = [0.01, 0.0, 0.0, 0.0, 0.0, 0.0, 0.99]  # no die: never looked at again
    return read


def test_only_an_unsure_die_is_averaged_with_its_three_turns():
    image, placed = _tray()
    crops = np.stack([reader_crop(image, d.centre, d.side, DEFAULT_PARAMS) for d in placed])
    read = _unsure_and_no_die(classify(crops, DEFAULT_PARAMS))
    averaged = reader._with_other_views(crops, read, DEFAULT_PARAMS, None)
    assert np.array_equal(averaged[0], read[0]), "a sure die keeps its one reading"
    assert np.array_equal(averaged[2], read[2])
    expected = (read[1] + classify(quarter_turns(crops[1]), DEFAULT_PARAMS).sum(axis=0)) / 4
    assert np.allclose(averaged[1], expected)
    assert averaged[1, NOT_A_DIE] < 0.5 and np.isclose(averaged[1].sum(), 1.0), "still a die, and probabilities"


def test_a_leaning_cameras_unsure_die_is_averaged_with_its_mirror_image():
    image, placed = _tray()
    leaning = replace(DEFAULT_PARAMS, up=0.0)
    crops = np.stack([reader_crop(image, d.centre, d.side, leaning) for d in placed])
    read = _unsure_and_no_die(classify(crops, leaning))
    averaged = reader._with_other_views(crops, read, leaning, None)
    assert np.array_equal(averaged[0], read[0]) and np.array_equal(averaged[2], read[2])
    assert np.allclose(averaged[1], (read[1] + classify(np.ascontiguousarray(crops[1:2, :, ::-1]), leaning)[0]) / 2)


def test_the_turns_are_read_only_for_a_camera_straight_down_the_mirror_only_for_one_that_leans(turned, mirrored):
    """Every die unsure (thresholds above 1): turned for a camera straight down, never for one that
    leans, whose crops are cut with its far side at the top and mean nothing turned; that one's
    crops are mirrored instead, which keeps the far side at the top."""
    image, placed = _tray()
    doubting = replace(DEFAULT_PARAMS, min_value_probability=1.01, leaning_min_value_probability=1.01,
                       quarter_turns_below=1.01, mirror_below=1.01)
    leaning = reader.read_dice(image, doubting, up=0.0)
    assert not turned and len(mirrored) >= len(placed) and len(leaning.unreadable) == len(placed)
    mirrored.clear()
    straight_down = reader.read_dice(image, doubting)
    assert not mirrored and len(turned) >= len(placed) and len(straight_down.unreadable) == len(placed)


def test_a_reading_with_every_face_kept_turns_the_dice_the_reader_turns(turned):
    """``eval-vision --calibration`` and the thresholds command read every face
    (``keeping_every_face``) and apply thresholds afterwards: the dice turned must be the reader's
    own, or its figures differ."""
    image, _ = _tray()
    doubting = replace(DEFAULT_PARAMS, quarter_turns_below=1.01)
    as_read = reader.read_dice(image, doubting)
    read_turns = len(turned)
    every_face = reader.read_dice(image, doubting.keeping_every_face())
    assert read_turns > 0 and len(turned) == 2 * read_turns
    assert [d.confidence for d in every_face.dice] == [d.confidence for d in as_read.dice]


def test_a_reading_with_every_face_kept_mirrors_the_dice_the_leaning_reader_mirrors(mirrored):
    image, _ = _tray()
    doubting = replace(DEFAULT_PARAMS, mirror_below=1.01, up=0.0)
    as_read = reader.read_dice(image, doubting)
    read_mirrors = len(mirrored)
    every_face = reader.read_dice(image, doubting.keeping_every_face())
    assert read_mirrors > 0 and len(mirrored) == 2 * read_mirrors
    assert [d.confidence for d in every_face.dice] == [d.confidence for d in as_read.dice]
