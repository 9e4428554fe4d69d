"""The training samples put the targets where the dice are (no PyTorch needed for these)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.classify import die_crop, far_side_direction
from vision.read.params import DEFAULT_PARAMS
from vision.training.photos import Scene
from vision.training.samples import (
    WINDOW,
    centre_targets,
    detector_sample,
    flip_turn,
    mirror_left_right,
    motion_kernel,
    recolour,
    true_colours,
)


def test_centre_targets_mark_the_die_cell_with_its_size_and_offset():
    maps = centre_targets(np.array([[50.0, 30.0]]), [20.0], stride=4)
    assert maps.shape == (5, WINDOW // 4, WINDOW // 4)
    assert maps[0, 7, 12] == 1.0 and np.count_nonzero(maps[0] == 1.0) == 1
    assert np.isclose(maps[1, 7, 12], np.log(20.0))
    assert np.allclose(maps[2:4, 7, 12], [0.5, 0.5])
    assert maps[4].sum() == 1.0
    assert 0 < maps[0, 7, 13] < 1, "a gaussian falls off around the centre"


def test_dice_outside_the_window_or_too_big_have_no_target():
    maps = centre_targets(np.array([[-5.0, 30.0], [30.0, 30.0]]), [20.0, 500.0], stride=4)
    assert not maps.any()


@pytest.mark.parametrize("move", [flip_turn, mirror_left_right])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), x=st.integers(5, 90), y=st.integers(5, 60))
def test_flips_and_turns_carry_the_points_along(move, seed, x, y):
    """A point at a pixel's centre (x + 0.5, y + 0.5) lands on the centre of the pixel that moved
    there; a mirror left to right (the far side kept at the top) keeps its row."""
    image = np.zeros((70, 100, 3), np.uint8)
    image[y, x] = 255
    moved, points = move(image, np.array([[x + 0.5, y + 0.5]], np.float32), np.random.default_rng(seed))
    (ys, xs) = np.nonzero(moved[..., 0])
    assert np.allclose(points[0], [xs[0] + 0.5, ys[0] + 0.5])
    assert move is flip_turn or ys[0] == y


def test_die_crop_centres_the_die_at_the_crop_margin_scale_whatever_its_size():
    p = DEFAULT_PARAMS
    for side in (20, 60, 300):
        image = np.zeros((4 * side, 4 * side, 3), np.uint8)
        image[side : 2 * side, 2 * side : 3 * side] = 255
        crop = die_crop(image, (2.5 * side, 1.5 * side), side, p)
        assert crop.shape == (p.crop_px, p.crop_px, 3)
        inside = p.crop_px / p.crop_margin
        middle = p.crop_px // 2
        assert crop[middle - 2 : middle + 2, middle - 2 : middle + 2].min() == 255
        bright = np.count_nonzero(crop[..., 0] > 127)
        assert abs(bright - inside**2) < 0.15 * inside**2, side


def test_die_crop_turns_counter_clockwise_by_the_angle():
    """A mark right of the centre moves above it when the crop turns by 90 degrees (image y points down)."""
    p = DEFAULT_PARAMS
    image = np.zeros((200, 200, 3), np.uint8)
    image[95:105, 125:135] = 255  # 30 px right of the centre (100, 100)
    crop = die_crop(image, (100.0, 100.0), 100.0, p, angle=90.0)
    ys, xs = np.nonzero(crop[..., 0] > 127)
    middle = (p.crop_px - 1) / 2
    assert abs(xs.mean() - middle) < 1.5 and ys.mean() < middle - 0.15 * p.crop_px


def test_motion_kernel_is_a_normalised_line_along_the_angle():
    flat = motion_kernel(9.0, 0.0)
    assert np.isclose(flat.sum(), 1.0)
    rows = np.nonzero(flat.sum(axis=1) > 0.05)[0]
    assert len(rows) == 1 and np.count_nonzero(flat[rows[0]] > 0.05) >= 7, "a horizontal smear 9 px long"
    upright = motion_kernel(9.0, 90.0)
    assert np.allclose(upright, flat.T, atol=0.02)


def _red_pips_on_a_dark_die() -> np.ndarray:
    die = np.full((48, 48, 3), (40, 40, 45), np.uint8)  # BGR: a dark die
    for y, x in ((14, 14), (24, 24), (34, 34)):
        die[y - 3 : y + 4, x - 3 : x + 4] = (30, 30, 200)  # red pips
    return die


def test_true_colours_keep_red_pips_red_on_a_dark_die_where_recolouring_swaps_or_inverts_them():
    """Fine-tuned with its colours kept, the classifier tells red pips from a translucent die's swirls."""
    die = _red_pips_on_a_dark_die()
    pips = np.zeros(die.shape[:2], bool)
    pips[21:28, 21:28] = True
    def still_red_on_dark(image: np.ndarray) -> bool:
        pip, face = image[pips].mean(axis=0), image[~pips].mean(axis=0)
        return bool(pip[2] > pip[0] + 60 and pip[2] > pip[1] + 60 and face.mean() < 110)
    kept = [still_red_on_dark(true_colours(die, np.random.default_rng(seed))) for seed in range(60)]
    recoloured = [still_red_on_dark(recolour(die, np.random.default_rng(seed))) for seed in range(60)]
    assert all(kept)
    assert sum(recoloured) < 45, "recolour swaps channels half the time and inverts now and then"
    assert any(not np.array_equal(true_colours(die, np.random.default_rng(seed)), die) for seed in range(3))


def _mark_left_of_centre() -> np.ndarray:
    image = np.zeros((200, 200, 3), np.uint8)
    image[95:105, 60:70] = 255  # a mark to the left of the die at (100, 100)
    return image


def _mark_place(crop: np.ndarray) -> tuple[float, float]:
    ys, xs = np.nonzero(crop[..., 0] > 128)
    return float(ys.mean()), float(xs.mean())


def test_the_reader_turns_its_crops_so_the_far_side_is_at_the_top():
    """A camera whose far side lies to the left (90 degrees) sees the top face left of the side face:
    the crop turns the left to the top, where the classifier learned the top face lies."""
    from dataclasses import replace

    from vision.read.classify import reader_crop

    image = _mark_left_of_centre()
    y, x = _mark_place(reader_crop(image, (100.0, 100.0), 60.0, replace(DEFAULT_PARAMS, up=90.0)))
    assert y < 8 and abs(x - 23.5) < 3
    y, x = _mark_place(reader_crop(image, (100.0, 100.0), 60.0, DEFAULT_PARAMS))
    assert x < 8 and abs(y - 23.5) < 3, "the picture's top by default: the crop is not turned"


def test_training_crops_keep_their_scene_far_side_up_within_a_small_turn():
    from vision.training.photos import Scene
    from vision.training.samples import SMALL_TURN, crop_turn

    rng = np.random.default_rng(3)
    leaning = Scene("s", np.zeros((8, 8, 3), np.uint8), (), up=90.0)
    turns = [crop_turn(leaning, rng) for _ in range(400)]
    assert all(-90 - SMALL_TURN <= t <= -90 + SMALL_TURN for t in turns)
    from_above = Scene("s", np.zeros((8, 8, 3), np.uint8), (), up=None)
    anyway = [crop_turn(from_above, rng) % 360 for _ in range(400)]
    assert min(anyway) < 30 and max(anyway) > 330, "a die seen straight from above may be turned any way"


def test_a_training_crop_is_cut_as_the_reader_cuts_its_die(monkeypatch):
    """With no small turn the classifier learns a leaning scene's die exactly as the reader, told
    where that scene's far side lies, crops it."""
    from dataclasses import replace

    from vision.read.classify import reader_crop
    from vision.training import samples
    from vision.training.photos import Scene

    monkeypatch.setattr(samples, "SMALL_TURN", 0.0)
    image = _mark_left_of_centre()
    scene = Scene("s", image, (), up=90.0)
    learned = die_crop(image, (100.0, 100.0), 60.0, DEFAULT_PARAMS, angle=samples.crop_turn(scene, np.random.default_rng(1)))
    read = reader_crop(image, (100.0, 100.0), 60.0, replace(DEFAULT_PARAMS, up=90.0))
    assert np.array_equal(learned, read)


def _far_and_near_rows(far_side_at_top: bool, up: float, seed: int) -> tuple[float, float] | None:
    """In one detector window of a scene seen from a camera whose far side is at ``up``, the target
    rows of a die towards that far side (the smaller) and of one towards the camera; None where the
    window holds only one of them."""
    dx, dy = far_side_direction(up)
    dice = tuple((100 + 25 * s * dx, 100 + 25 * s * dy, side, 3) for s, side in ((1, 20.0), (-1, 26.0)))
    scene = Scene("render3d-test", np.zeros((200, 200, 3), np.uint8), dice, up)
    _, maps = detector_sample(scene, np.random.default_rng(seed), DEFAULT_PARAMS, far_side_at_top)
    cells = np.argwhere(maps[4] == 1.0)
    if len(cells) < 2:
        return None
    far, near = sorted(cells.tolist(), key=lambda cell: maps[1][tuple(cell)])
    return float(far[0]), float(near[0])


def test_a_leaning_scene_s_detector_window_has_its_far_side_at_the_top_only_when_asked():
    """The leaning camera's detector learns its windows as the reader hands it pictures, far side up
    (give or take DETECTOR_TURN): the die towards the far side lies above the one towards the camera.
    Turned any way, as the straight-down detector learns, it lies below it in some windows."""
    for up in (0.0, 90.0, 200.0, 300.0):
        rows = [r for r in (_far_and_near_rows(True, up, seed) for seed in range(32)) if r is not None]
        assert len(rows) >= 8 and all(far < near for far, near in rows), (up, rows)
    turned_any_way = [r for r in (_far_and_near_rows(False, 90.0, seed) for seed in range(32)) if r is not None]
    assert any(far > near for far, near in turned_any_way)
