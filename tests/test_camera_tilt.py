"""How far the camera leans, measured from the tray's outline: exact for trays seen at known tilts
through the assumed lens (by this file's camera and by render3d's, Mitsuba's own projection), off
by what the docstring says through another, and within a degree and a half on drawn desks where the
tray finder found the outline."""

from __future__ import annotations

import math

import numpy as np
import pytest

from hardware.desk import polygon
from test_tray import SIZE, desk_scene, tray_seen_by_a_camera
from vision.read.perspective import ASSUMED_FIELD_OF_VIEW, camera_tilt
from vision.read.tray import TrayOutline, find_tray

EXACT = 0.05  # degrees: what rounding leaves through the assumed lens
FOUND = 1.5  # degrees: on a drawn desk, the found corners lie a pixel or so from the true ones


def focal_px(field_of_view: float) -> float:
    """The focal length, px, of a lens ``field_of_view`` degrees across the 640 px wide picture."""
    return SIZE[0] / 2 / math.tan(math.radians(field_of_view) / 2)


def seen(tilt: float, turn: float = 0.0, roll: float = 0.0, field_of_view: float = ASSUMED_FIELD_OF_VIEW) -> TrayOutline:
    return TrayOutline(tray_seen_by_a_camera(turn, tilt, roll, focal_px(field_of_view)), SIZE)


@pytest.mark.parametrize("tilt", [0.0, 5.0, 15.0, 25.0, 35.0, 45.0])
@pytest.mark.parametrize(("turn", "roll"), [(0.0, 0.0), (30.0, 120.0), (70.0, 250.0)])
def test_the_tilt_of_a_tray_seen_through_the_assumed_lens_is_measured_exactly(tilt, turn, roll):
    assert seen(tilt, turn, roll).tilt() == pytest.approx(tilt, abs=EXACT)


@pytest.mark.parametrize(("tilt", "azimuth", "roll"), [(4.0, 10.0, 0.0), (18.0, 100.0, 40.0), (33.0, 250.0, 180.0)])
def test_render3d_s_camera_leans_as_measured(tilt, azimuth, roll):
    render3d = pytest.importorskip("vision.training.render3d")
    pytest.importorskip("mitsuba", reason="render3d's camera projects with Mitsuba (the train extra)")
    t, a, r = (math.radians(v) for v in (tilt, azimuth, roll))
    view = (math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), -math.cos(t))
    camera = render3d.Camera(tuple(-700 * v for v in view), (0.0, 0.0, 0.0), (math.cos(a + r), math.sin(a + r), 0.0),
                             ASSUMED_FIELD_OF_VIEW, SIZE)
    corners = camera.project(np.array([[-150, -90, 0], [150, -90, 0], [150, 90, 0], [-150, 90, 0]], float))
    assert camera_tilt([(float(x), float(y)) for x, y in corners], SIZE) == pytest.approx(tilt, abs=EXACT)


@pytest.mark.parametrize(("field_of_view", "read_as"), [(40.0, 22.0), (66.0, 35.8)])
def test_through_another_lens_a_30_degree_tilt_reads_as_the_docstring_says(field_of_view, read_as):
    expected = math.degrees(math.atan(math.tan(math.radians(30.0)) * focal_px(ASSUMED_FIELD_OF_VIEW) / focal_px(field_of_view)))
    assert expected == pytest.approx(read_as, abs=0.1)
    assert seen(30.0, 20.0, field_of_view=field_of_view).tilt() == pytest.approx(expected, abs=EXACT)


def test_a_camera_straight_above_but_beside_the_tray_leans_as_its_view_of_the_dice_does():
    beside = tuple((x + 150, y) for x, y in seen(0.0).points)  # the tray's middle 150 px right of the picture's
    assert camera_tilt(beside, SIZE) == pytest.approx(math.degrees(math.atan(150 / focal_px(ASSUMED_FIELD_OF_VIEW))), abs=EXACT)


def test_an_outline_without_four_corners_has_no_tilt():
    assert TrayOutline(polygon((320, 240), 180, 90), SIZE).tilt() is None
    assert TrayOutline(((100, 100), (500, 100), (300, 400)), SIZE).tilt() is None


@pytest.mark.parametrize("tilt", [0.0, 12.0, 24.0, 36.0])
def test_the_tilt_of_a_leaning_tray_found_on_a_drawn_desk(tilt):
    truth = seen(tilt, turn=15.0, roll=10.0)
    found = find_tray(desk_scene(truth.points, seed=int(tilt)))  # the empty tray, as calibrated
    assert found is not None and len(found.points) == 4
    assert found.tilt() == pytest.approx(tilt, abs=FOUND)
