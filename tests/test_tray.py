"""The tray's outline: found on synthetic desks with clutter around the tray, stored, rescaled,
refused clearly when it cannot be used; only dice inside it count."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from hardware.camera import SyntheticCamera
from hardware.desk import Desk, bounding_box, desk_image, lay_tray, polygon, rectangle
from vision.read.reading import DiceReading, Die
from vision.scenes.synthetic import random_look, render_tray
from vision.read.tray import TrayError, TrayOutline, dice_inside, find_tray

SIZE = (640, 480)
DARK_RIM, LIGHT_RIM = (30, 30, 35), (150, 150, 150)
TRAYS = {
    "upright box lid": rectangle(SIZE),
    "turned square": polygon((320, 240), 200, 4, 20),
    "round": polygon((330, 245), 180, 90),
    "hexagon": polygon((310, 250), 190, 6, 10),
}


def desk_scene(tray: tuple[tuple[float, float], ...], seed: int, values: tuple[int, ...] = (),
               colour: tuple[int, int, int] = (110, 145, 180), clutter: int = 25) -> np.ndarray:
    """A desk of ``colour`` with ``clutter`` things on it around a tray of a random felt, with dice
    showing ``values`` in the tray's bounding box; the rim stands out from the felt."""
    rng = np.random.default_rng(seed)
    look = random_look(rng)
    rim = LIGHT_RIM if sum(look.background) < 300 else DARK_RIM
    desk = Desk(SIZE, tray, colour=colour, rim_colour=rim, clutter=clutter)
    _, _, width, height = bounding_box(tray)
    felt, _ = render_tray(values, rng, (width, height), (40.0, 56.0), look)
    return lay_tray(desk_image(desk, rng), desk, felt)


def distance(found: TrayOutline, truth: tuple[tuple[float, float], ...]) -> float:
    """The farthest a found corner lies from the true outline, or a point of the true outline from the found one."""
    true, seen = np.array(truth, np.float32), np.array(found.points, np.float32)
    along = [true[i] * (1 - s) + true[(i + 1) % len(true)] * s for i in range(len(true)) for s in np.linspace(0, 1, 11)]
    return max(
        max(abs(cv2.pointPolygonTest(true, (float(x), float(y)), True)) for x, y in seen),
        max(abs(cv2.pointPolygonTest(seen, (float(x), float(y)), True)) for x, y in along),
    )


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("shape", sorted(TRAYS))
def test_the_tray_is_found_within_two_pixels_among_clutter(shape, seed):
    desks = ((110, 145, 180), (60, 60, 65), (90, 120, 60))  # wood, dark, green
    found = find_tray(desk_scene(TRAYS[shape], seed, colour=desks[seed]))
    assert found is not None and found.frame_size == SIZE
    assert distance(found, TRAYS[shape]) < 2.0


def test_a_rectangular_tray_gets_four_corners_clockwise_from_the_top_left_and_dice_left_in_it_do_not_matter():
    found = find_tray(desk_scene(TRAYS["upright box lid"], seed=1, values=(1, 3, 5, 6, 2)))
    assert found is not None and len(found.points) == 4
    assert np.allclose(found.points, ((128, 67.2), (512, 67.2), (512, 412.8), (128, 412.8)), atol=1.5)


@pytest.mark.parametrize(
    "picture",
    [
        pytest.param(lambda: desk_image(Desk(SIZE, ((0, 0), (1, 0), (1, 1)), clutter=40), np.random.default_rng(4)),
                     id="a cluttered desk without a tray"),
        pytest.param(lambda: SyntheticCamera(1).frame(), id="a tray filling the whole frame"),
        pytest.param(lambda: np.zeros((480, 640, 3), np.uint8), id="a black frame"),
        pytest.param(lambda: np.random.default_rng(2).integers(0, 256, (480, 640, 3), dtype=np.uint8), id="noise"),
        pytest.param(lambda: desk_scene(TRAYS["round"], 6, colour=(120, 120, 120))[:, :200], id="a tray mostly out of view"),
    ],
)
def test_nothing_convincing_is_no_tray(picture):
    assert find_tray(picture()) is None


def test_a_tray_that_does_not_stand_out_from_the_desk_is_not_found():
    rng = np.random.default_rng(3)
    look = replace(random_look(rng), background=(200, 200, 200))
    desk = Desk(SIZE, TRAYS["upright box lid"], colour=(200, 200, 200), rim_px=0.0, clutter=20)
    _, _, width, height = bounding_box(desk.tray)
    felt, _ = render_tray((), rng, (width, height), look=replace(look, light_gradient=0.0))
    assert find_tray(lay_tray(desk_image(desk, rng), desk, felt)) is None


SQUARE = TrayOutline(((100.0, 100.0), (300.0, 100.0), (300.0, 300.0), (100.0, 300.0)), (400, 400))


def test_inside_outside_and_the_mask():
    assert SQUARE.contains((200, 200)) and SQUARE.contains((100, 150))
    assert not SQUARE.contains((50, 200)) and not SQUARE.contains((301, 200))
    mask = SQUARE.mask((400, 400, 3))
    assert mask.shape == (400, 400) and mask.dtype == np.uint8
    assert mask[200, 200] == 255 and mask[50, 200] == 0
    assert abs(np.count_nonzero(mask) - SQUARE.area()) < 2 * 800  # within a pixel all round
    small = SQUARE.mask((100, 100))
    assert small[50, 50] == 255 and small[10, 10] == 0 and abs(np.count_nonzero(small) - 2500) < 2 * 200


def test_the_outline_round_trips_through_json():
    assert TrayOutline.from_json(SQUARE.to_json()) == SQUARE


def test_another_resolution_of_the_same_shape_is_rescaled_and_another_shape_refused():
    bigger = SQUARE.scaled_to((800, 800))
    assert bigger.points[2] == (600.0, 600.0) and bigger.frame_size == (800, 800)
    assert SQUARE.scaled_to((400, 400)) is SQUARE
    assert not SQUARE.fits((640, 480))
    with pytest.raises(TrayError, match=r"calibrated on 400x400 frames and the camera gives 640x480.*calibrate again"):
        SQUARE.scaled_to((640, 480))
    with pytest.raises(TrayError, match="camera gives 640x480"):
        SQUARE.mask((480, 640))


@pytest.mark.parametrize(
    ("points", "size", "message"),
    [
        (((0, 0), (10, 0)), (40, 40), "at least 3 corners, got 2"),
        (((0, 0), (10, 0), (50, 10)), (40, 40), r"tray corner \(50, 10\) lies outside the 40x40 frame"),
        (((0, 0), (10, 0), (float("nan"), 3)), (40, 40), "lies outside"),
        (((0, 0), (10, 10), (20, 20)), (40, 40), "enclose no area"),
        (((0, 0), (10, 0), (0, 10)), (0, 40), "frame size of at least 1x1"),
    ],
)
def test_an_outline_that_cannot_be_is_refused(points, size, message):
    with pytest.raises(TrayError, match=message):
        TrayOutline(points, size)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not JSON"),
        ("[1, 2]", 'not a tray outline \\(no "format"'),
        ('{"format": "dice-companion tray", "version": 9}', "version 9: this companion reads version 1"),
        ('{"format": "dice-companion tray", "version": 1, "frame": [640], "outline": []}', '"frame" must be'),
        ('{"format": "dice-companion tray", "version": 1, "frame": [640, 480], "outline": [[1, 2], "x"]}',
         '"outline" must be a list of'),
        ('{"format": "dice-companion tray", "version": 1, "frame": [640, 480], "outline": [[1, 2], [3, 4]]}',
         "at least 3 corners"),
        ('{"format": "dice-companion tray", "version": 1, "frame": [640, 480], "outline": [[1, 2], [3, 4], [900, 5]]}',
         "outside the 640x480 frame"),
    ],
)
def test_a_stored_outline_that_is_not_one_is_refused_with_what_is_wrong(text, message):
    with pytest.raises(TrayError, match=message):
        TrayOutline.from_json(text)


def test_only_dice_inside_the_tray_count():
    inside, on_edge, outside = (Die(3, (200.0, 200.0), 40.0, 0.99), Die(5, (100.0, 250.0), 40.0, 0.99),
                                Die(6, (350.0, 200.0), 40.0, 0.99))
    unreadable_outside = Die(None, (20.0, 20.0), 40.0, 0.3)
    kept = dice_inside(DiceReading((inside, outside, on_edge, unreadable_outside)), SQUARE)
    assert kept == DiceReading((inside, on_edge))


def test_a_die_read_outside_the_found_tray_does_not_count():
    """The real reader on a desk with a die beside the tray: only the tray's dice are kept."""
    from vision import read_dice

    tray = TRAYS["upright box lid"]
    empty = desk_scene(tray, seed=2, clutter=0)
    outline = find_tray(empty)
    assert outline is not None
    rng = np.random.default_rng(7)
    look = replace(random_look(rng), background=(110, 145, 180), light_gradient=0.0)
    stray, _ = render_tray((6,), rng, (110, 110), (50.0, 56.0), look)
    scene = desk_scene(tray, seed=2, values=(1, 2, 4), clutter=0)
    scene[200:310, 5:115] = stray  # a die on the desk, left of the tray
    everything = read_dice(scene)
    assert sorted(everything.values) == [1, 2, 4, 6]
    assert dice_inside(everything, outline).values == (1, 2, 4)


@pytest.mark.parametrize(("corners", "far_side"), [
    (((200, 100), (440, 100), (500, 400), (140, 400)), 0.0),  # the top side shorter: the camera looks up the picture
    (((140, 80), (500, 80), (440, 380), (200, 380)), 180.0),
    (((100, 100), (500, 50), (500, 430), (100, 380)), 90.0),  # the left side shorter
    (((100, 50), (500, 100), (500, 380), (100, 430)), 270.0),
])
def test_a_tray_seen_obliquely_says_where_the_camera_far_side_lies(corners, far_side):
    assert TrayOutline(corners, (640, 480)).far_side() == pytest.approx(far_side)


def test_a_tray_seen_from_straight_above_or_without_four_corners_has_no_far_side():
    assert TrayOutline(((100, 100), (500, 100), (502, 400), (100, 399)), (640, 480)).far_side() is None
    assert TrayOutline(((100, 100), (500, 100), (300, 400)), (640, 480)).far_side() is None


def tray_seen_by_a_camera(turn: float, tilt: float, roll: float, focal_px: float = 500.0) -> tuple[tuple[float, float], ...]:
    """The corners of a 240x160 mm tray turned ``turn`` degrees on the table, in the 640x480 picture
    of a camera 600 mm from its middle, south of it looking north at it, ``tilt`` degrees from straight
    down through a lens ``focal_px`` long (500: 65 degrees across), its picture turned ``roll`` degrees
    counter-clockwise (so the far side lies ``roll`` degrees counter-clockwise from the top)."""
    half = np.array([[-120, -80], [120, -80], [120, 80], [-120, 80]], float)
    t = np.radians(turn)
    corners = half @ np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]).T
    tilt = np.radians(tilt)
    camera = np.array([0.0, -600 * np.sin(tilt), 600 * np.cos(tilt)])
    forward = np.array([0.0, np.sin(tilt), -np.cos(tilt)])
    up = np.array([0.0, np.cos(tilt), np.sin(tilt)])
    right = np.cross(forward, up)
    r = np.radians(roll)
    seen = []
    for x, y in corners:
        ray = np.array([x, y, 0.0]) - camera
        u, v = focal_px * (ray @ right) / (ray @ forward), focal_px * (ray @ up) / (ray @ forward)
        u, v = u * np.cos(r) - v * np.sin(r), u * np.sin(r) + v * np.cos(r)  # the picture turned
        seen.append((320 + u, 240 - v))
    return tuple(seen)


@pytest.mark.parametrize("turn", [0.0, 20.0, 45.0, 70.0])
@pytest.mark.parametrize(("tilt", "roll"), [(10.0, 0.0), (25.0, 30.0), (40.0, 200.0)])
def test_the_far_side_of_a_tray_turned_any_way_on_the_table_is_where_the_camera_looks(turn, tilt, roll):
    far_side = TrayOutline(tray_seen_by_a_camera(turn, tilt, roll), (640, 480)).far_side()
    assert far_side is not None and min(abs(far_side - roll), 360 - abs(far_side - roll)) < 0.5
