"""The reader on synthetic trays: every die right, and the annotated picture as expected."""

from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np
import pytest

from golden import assert_matches_golden_annotated
from firmware.vision_commands import synthetic_accuracy
from vision.measure.annotate import annotate
from vision.read.reader import read_dice
from vision.scenes.bench_trays import TRAY_KINDS
from vision.scenes.synthetic import render_tray

TRAYS = 40
# Trays of each kind read exactly, out of TRAYS, and dice invented at most: plain trays all exact;
# the others as the shipped reader reads them on these seeds (fifth stop of 2026-11-29: touching 38,
# clutter 38 with 1 invented, garbage 38 with 2, a desk's webcam 38 with 1, crowds of 20 to 30 dice 27
# exact), less a margin. A candidate is a die only where the classifier finds it 70 % likely one
# (``max_not_die_probability``): at 50 % garbage invented 7 dice here, clutter 3 and a desk 4. A die
# pressed among others whose only candidate lay on a pip, or off its centre, is looked at again
# shifted (``typical_size_shift``): without that, touching 33 and crowds 16. They fall short of the targets
# (touching >= 99 % exact, desk 95 % with at most 2 invented in 200, crowd counted right 90 %): keep
# them from sliding.
EXACT_AT_LEAST = {"4 dice": TRAYS, "5 dice": TRAYS, "touching": 35, "clutter": 36, "garbage": 35, "desk": 35, "crowd": 24}
INVENTED_AT_MOST = {"4 dice": 0, "5 dice": 0, "touching": 2, "clutter": 2, "garbage": 5, "desk": 3, "crowd": 2}


@pytest.mark.parametrize("kind", TRAY_KINDS, ids=[kind.name for kind in TRAY_KINDS])
def test_synthetic_trays_are_read_exactly(kind):
    """Every kind the benchmark throws (plain, touching, clutter beside the dice), on other seeds than it."""
    figures = synthetic_accuracy(kind, TRAYS, seed=1000 + kind.dice + 10 * kind.touching + 20 * bool(kind.clutter))
    assert figures.exact >= EXACT_AT_LEAST[kind.name], figures.wrong
    assert figures.invented <= INVENTED_AT_MOST[kind.name], figures.wrong


def test_positions_and_sizes_match_the_drawn_dice():
    image, placed = render_tray((1, 2, 5, 6), np.random.default_rng(8))
    reading = read_dice(image)
    assert len(reading.dice) == 4
    for drawn in placed:
        box = drawn.side * (abs(np.cos(np.radians(drawn.angle))) + abs(np.sin(np.radians(drawn.angle))))
        nearest = min(reading.dice, key=lambda d: np.hypot(d.centre[0] - drawn.centre[0], d.centre[1] - drawn.centre[1]))
        assert nearest.value == drawn.value
        assert np.hypot(nearest.centre[0] - drawn.centre[0], nearest.centre[1] - drawn.centre[1]) < drawn.side * 0.15
        assert abs(nearest.size - box) < box * 0.2


def test_bgra_frames_read_like_bgr():
    image, _ = render_tray((3, 3, 4, 6), np.random.default_rng(21))
    assert read_dice(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)).values == read_dice(image).values == (3, 3, 4, 6)


def test_the_reader_leaves_its_input_alone():
    image, _ = render_tray((1, 1, 2, 6), np.random.default_rng(4))
    before = image.copy()
    read_dice(image)
    assert np.array_equal(image, before)


def test_annotated_synthetic_tray(update_golden):
    image, _ = render_tray((1, 2, 3, 4, 5, 6), np.random.default_rng(12))
    reading = read_dice(image)
    assert reading.values == (1, 2, 3, 4, 5, 6) and not reading.unreadable, "what the labels say, exactly"
    assert_matches_golden_annotated(annotate(image, reading), "annotated-synthetic-tray", update_golden)


@pytest.mark.parametrize(
    ("count", "side_range"),
    [(1, (260.0, 290.0)), (2, (150.0, 180.0)), (12, (30.0, 36.0)), (25, (22.0, 26.0))],
    ids=["one-big", "two-large", "twelve-small", "twenty-five-tiny"],
)
def test_dice_from_tiny_to_big(count, side_range):
    rng = np.random.default_rng(count)
    values = tuple(sorted(int(v) for v in rng.integers(1, 7, count)))
    image, _ = render_tray(values, rng, side_range=side_range)
    assert read_dice(image).values == values


def test_a_huge_image_is_read_in_its_own_coordinates():
    """Five times the size: the reader shrinks it to work, and answers in the input's pixels."""
    image, placed = render_tray((2, 3, 5, 6), np.random.default_rng(31))
    huge = cv2.resize(image, None, fx=5, fy=5, interpolation=cv2.INTER_CUBIC)
    reading = read_dice(huge)
    assert reading.values == (2, 3, 5, 6)
    for drawn in placed:
        x, y = drawn.centre[0] * 5, drawn.centre[1] * 5
        nearest = min(reading.dice, key=lambda d: np.hypot(d.centre[0] - x, d.centre[1] - y))
        assert nearest.value == drawn.value
        assert np.hypot(nearest.centre[0] - x, nearest.centre[1] - y) < drawn.side * 5 * 0.15


def test_several_threads_read_alike():
    trays = [render_tray((1, 2, 3, 4, 5, 6)[: 2 + k], np.random.default_rng(k))[0] for k in range(4)]
    alone = [read_dice(tray).values for tray in trays]
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(lambda tray: read_dice(tray).values, trays * 4))
    assert together == alone * 4


@pytest.mark.parametrize("far_side", [0.0, 90.0, 200.0])
def test_a_leaning_tray_says_where_its_camera_far_side_lies(far_side):
    """The side faces are drawn on the camera's side of the top face: the die's whole picture lies
    beyond its top face away from the far side."""
    from vision.scenes.synthetic import tray_far_side

    from dataclasses import replace

    from vision.scenes.synthetic import random_look

    look = replace(random_look(np.random.default_rng(5)), shadow=0.0, light_gradient=0.0)  # no shadow to weigh in
    image, placed = render_tray((3,), np.random.default_rng(5), (240, 240), (80.0, 80.0), look, lean=0.35,
                                far_side=far_side)
    assert tray_far_side(placed) == pytest.approx(far_side % 360, abs=1e-6)
    background = image[2, 2].astype(int)
    ys, xs = np.nonzero(np.abs(image.astype(int) - background).sum(axis=2) > 60)
    shift = np.array([xs.mean(), ys.mean()]) - np.array(placed[0].centre)
    towards_camera = -np.array([-np.sin(np.radians(far_side)), -np.cos(np.radians(far_side))])
    assert shift @ towards_camera > 0.1 * placed[0].side
    _, flat = render_tray((1, 2, 3), np.random.default_rng(5))
    assert tray_far_side(flat) is None


def test_a_desk_has_keys_and_a_phone_beside_dice_it_keeps_clear():
    rng = np.random.default_rng(9)
    plain, placed = render_tray((2, 5), np.random.default_rng(9), (640, 480), (40.0, 50.0))
    desk, placed_on_desk = render_tray((2, 5), rng, (640, 480), (40.0, 50.0), desk=True)
    assert [d.centre for d in placed] == [d.centre for d in placed_on_desk]
    edges = np.abs(cv2.Laplacian(cv2.cvtColor(desk, cv2.COLOR_BGR2GRAY), cv2.CV_32F))
    plain_edges = np.abs(cv2.Laplacian(cv2.cvtColor(plain, cv2.COLOR_BGR2GRAY), cv2.CV_32F))
    assert (edges > 60).sum() > 3 * (plain_edges > 60).sum(), "keys, a phone and cables add edges"
    assert read_dice(desk).values == (2, 5), "nothing lies on the dice: they read as on a plain tray"


def test_translucent_dice_let_the_table_show_through():
    look_rng, rng = np.random.default_rng(2), np.random.default_rng(2)
    solid, placed = render_tray((6,), look_rng, (200, 200), (80.0, 80.0))
    clear, _ = render_tray((6,), rng, (200, 200), (80.0, 80.0), translucent=True)
    x, y = (int(v) for v in placed[0].centre)
    background = solid[5, 5].astype(float)
    assert np.linalg.norm(clear[y, x] - background) < np.linalg.norm(solid[y, x] - background)
