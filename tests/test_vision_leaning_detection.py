"""A leaning camera's detector sees the picture turned far side up, and its candidates come back to the picture."""

import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.read.classify import far_side_direction
from vision.read.detect import far_side_up, find_candidates
from vision.read.params import DEFAULT_PARAMS
from vision.scenes.synthetic import render_tray


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 360.0), st.integers(120, 300), st.integers(120, 300))
def test_the_far_side_is_turned_to_the_top_and_the_points_are_carried_along(up, width, height):
    """A mark 40 px from the middle towards the far side lands 40 px above the turned picture's
    middle, where the matrix says, and the whole picture stays on the canvas."""
    image = np.zeros((height, width, 3), np.uint8)
    dx, dy = far_side_direction(up)
    mark = (width / 2 + 40 * dx, height / 2 + 40 * dy)
    image[round(mark[1]) - 3 : round(mark[1]) + 4, round(mark[0]) - 3 : round(mark[0]) + 4] = 255
    turned, turn = far_side_up(image, up)
    ys, xs = np.nonzero(turned[..., 0] > 127)
    middle = ((turned.shape[1] - 1) / 2, (turned.shape[0] - 1) / 2)
    assert math.dist((xs.mean(), ys.mean()), turn @ (mark[0], mark[1], 1.0)) < 1.5
    assert abs(xs.mean() - middle[0]) < 2 and abs(ys.mean() - (middle[1] - 40)) < 2
    corners = np.array([[0, 0, 1], [width, 0, 1], [0, height, 1], [width, height, 1]], float) @ turn.T
    assert corners.min() > -1 and (corners.max(axis=0) < (turned.shape[1] + 1, turned.shape[0] + 1)).all()


@pytest.mark.parametrize("far_side", [0.0, 75.0, 200.0, 313.0])
def test_a_leaning_camera_s_candidates_lie_on_its_dice_in_the_picture_however_it_leans(far_side):
    """Dice drawn leaning away from a far side anywhere are each found where they lie in the picture
    (the candidates turned back from the turned picture the detector read), and none lies off the picture."""
    image, placed = render_tray((1, 2, 3, 4, 5, 6), np.random.default_rng(5), lean=0.3, far_side=far_side)
    candidates = find_candidates(image, replace(DEFAULT_PARAMS, up=far_side))
    height, width = image.shape[:2]
    assert all(0 <= c.centre[0] < width and 0 <= c.centre[1] < height for c in candidates)
    for die in placed:
        top = (die.centre[0] - die.lean[0] / 2, die.centre[1] - die.lean[1] / 2)
        assert min(math.dist(c.centre, top) for c in candidates) < 0.35 * die.side, (far_side, die)
