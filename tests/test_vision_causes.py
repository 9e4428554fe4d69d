"""The causes of misreads measured at a real table, each on a render: clutter, oblique views, touching dice, hard faces.

Each render must be read exactly (every die, nothing else); a die that cannot be read must say
so rather than take a wrong value. One annotated sheet of all of them is kept as a golden picture.
"""

import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from golden import assert_matches_golden_annotated
from vision.measure.annotate import annotate
from vision.read import reader
from vision.read.detect import Candidate
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import read_dice
from vision.scenes.bench_trays import TRAY_KINDS, throw
from vision.scenes.synthetic import TrayLook, render_tray
from vision.training.samples import motion_kernel

WHITE_RED_PIPS = TrayLook(background=(40, 90, 30), body=(235, 238, 240), pips=(40, 40, 190),
                          light_gradient=0.2, blur_sigma=0.4, noise_sigma=2.0, shadow=0.3)

CAUSES = {
    "clutter beside the dice": dict(values=(2, 3, 5, 6), seed=3, clutter=8),
    "oblique: side faces show": dict(values=(1, 3, 4, 6), seed=5, lean=0.35),
    "touching dice": dict(values=(1, 2, 4, 5, 6), seed=7, touching=True),
    "one red pip, diagonal twos": dict(values=(1, 1, 2, 2), seed=9, look=WHITE_RED_PIPS),
}


def render(values, seed, **options):
    return render_tray(values, np.random.default_rng(seed), (640, 480), **options)


def invented(reading, placed) -> int:
    """Dice reported where none was drawn."""
    return sum(all(math.dist(die.centre, drawn.centre) > drawn.side / 2 for drawn in placed) for die in reading.dice)


@pytest.mark.parametrize("cause", list(CAUSES))
def test_each_cause_is_read_exactly(cause):
    case = CAUSES[cause]
    image, placed = render(**case)
    reading = read_dice(image)
    assert reading.values == case["values"] and not reading.unreadable, reading.summary()
    assert invented(reading, placed) == 0


def test_a_die_still_rolling_is_read_right_or_called_unreadable_never_misread():
    """Motion blur: a smeared 4 must not become a 6."""
    for seed in range(6):
        image, placed = render((4, 4, 4, 4), seed, side_range=(60.0, 70.0))
        smeared = cv2.filter2D(image, -1, motion_kernel(14.0, 30.0 * seed))
        reading = read_dice(smeared)
        assert set(reading.values) <= {4}, (seed, reading.summary())
        assert invented(reading, placed) == 0


def test_the_causes_annotated(update_golden):
    """What the reader saw in each render, side by side (look at tests/golden/annotated-causes.png)."""
    tiles = []
    for cause, case in CAUSES.items():
        image, _ = render(**case)
        tiles.append(cv2.resize(annotate(image, read_dice(image), cause), (320, 240), interpolation=cv2.INTER_AREA))
    sheet = np.vstack([np.hstack(tiles[:2]), np.hstack(tiles[2:])])
    assert_matches_golden_annotated(sheet, "annotated-causes", update_golden)  # the readings: test_each_cause_is_read_exactly


def _touching_tray_read_exactly(seed: int) -> tuple[np.ndarray, tuple[int, ...]]:
    """Five touching dice drawn from ``seed``, and their values, once the reader reads them exactly."""
    rng = np.random.default_rng(seed)
    values = tuple(sorted(int(v) for v in rng.integers(1, 7, 5)))
    image, placed = render_tray(values, rng, (640, 480), touching=True)
    reading = read_dice(image)
    assert reading.values == values and not reading.unreadable and invented(reading, placed) == 0
    return image, values


@pytest.mark.parametrize("seed", [29, 44])
def test_a_die_pressed_among_others_and_taken_for_a_pip_is_looked_at_again_at_the_dice_size(seed):
    """The detector proposed the missing die at half its size; the classifier rejected that crop.
    Looked at again at the size of the dice found, it is read; without the second look it is lost.
    (Seeds where the second look decides, for the shipped nets: with issue 50's first classifier
    seed 29's 2 was not read even at the dice's size; with the classifier fine-tuned with its colours
    kept it is, and seed 32's tray, a 6 pressed between two dice, is read a die short.)"""
    image, values = _touching_tray_read_exactly(seed)
    without = read_dice(image, replace(DEFAULT_PARAMS, typical_size_min_presence=1.01))
    assert len(without.dice) < len(values)


@pytest.mark.parametrize("seed", [127, 128])
def test_a_die_whose_pip_was_its_only_candidate_is_found_by_a_shifted_second_look(seed):
    """The detector's only candidate for a die pressed among others lay on one of its pips, off its
    centre: looked at again at the dice's size but also shifted each of eight ways, the die is read;
    with no shifted looks at all (``typical_size_near`` 0), it is lost."""
    image, values = _touching_tray_read_exactly(seed)
    unshifted = read_dice(image, replace(DEFAULT_PARAMS, typical_size_near=0.0))
    assert len(unshifted.dice) == len(values) - 1


@pytest.mark.parametrize("seed", [112, 125])
def test_a_die_doubted_where_it_was_proposed_is_read_where_a_shifted_look_finds_it(seed, monkeypatch):
    """The detector proposed a die pressed among others off its centre, so its crop held half a
    neighbour and the classifier doubted it; a look shifted at the dice's size finds it surely and
    it is read. Without that look it stays doubtful and the throw is a die short. (Seed 114's tray,
    chosen so for the classifier before, the one fine-tuned with its colours kept reads exactly
    without the look.)"""
    image, values = _touching_tray_read_exactly(seed)
    monkeypatch.setattr(reader, "_recentred", lambda bgr, kept, faces, params, head: kept)
    unshifted = read_dice(image)
    assert len(unshifted.dice) == len(values) - 1 and len(unshifted.doubtful) >= 1


# A throw rendered by ``render3d`` (``--seed 41 --tilt 20 40 --photo-set``, its fourth; our own
# render, tests/renders/README.md): four dice pressed into a square, the camera leaning 20-40 degrees.
PRESSED_SQUARE = Path(__file__).resolve().parent / "renders" / "render3d-s41-00003.png"
PRESSED_SQUARE_UP = 115.3  # degrees: where its camera's far side lies
PRESSED_SQUARE_DICE = [((204.0, 170.1), 43.4, 5), ((221.7, 199.2), 41.4, 3), ((230.9, 154.5), 42.9, 4),
                       ((250.9, 192.1), 43.4, 2)]  # its labelled dice: middle (px), side (px), value


def _two_pressed_dice_proposed_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The detector made to propose the pressed square's dice 3 and 2 as one candidate between
    them, half as big again as a die, as the leaning detector before 2026-12-01 did (the one
    shipped since finds die 3 on its own and misses die 2): the candidates near either die are
    dropped and that one put in."""
    pair = [centre for centre, _, value in PRESSED_SQUARE_DICE if value in (2, 3)]
    side = float(np.mean([side for _, side, _ in PRESSED_SQUARE_DICE]))
    middle = (float(np.mean([x for x, _ in pair])), float(np.mean([y for _, y in pair])))
    real_find_candidates = reader.find_candidates

    def proposing_the_pair_as_one(bgr: np.ndarray, params: ReaderParams) -> list[Candidate]:
        # the render is smaller than max_working_side_px, so working px are its own; the score is
        # the heatmap's, which the classifier's judgement replaces
        apart = [c for c in real_find_candidates(bgr, params)
                 if all(math.dist(c.centre, centre) > side / 2 for centre in pair)]
        return apart + [Candidate(middle, 1.5 * side, 0.6)]

    monkeypatch.setattr(reader, "find_candidates", proposing_the_pair_as_one)


def test_dice_read_too_big_and_unsure_under_a_leaning_camera_are_read_at_the_dices_size(monkeypatch):
    """Under a leaning camera the detector took dice pressed together for one big candidate, whose
    crop holds their faces, and its face was unsure; looked at the dice's size and shifted
    (``_split_merged``) they are read, right, and the throw exactly; with no such look
    (``merged_size_ratio`` out of reach) it is not: dice left unreadable or held doubtful. (On 1,200
    2D trays drawn leaning the leaning detector took no two dice for one; on 570 path-traced throws,
    the oblique renders and three sets for choosing, the detector before 2026-12-01 did in 4, and
    this square was one; with the one shipped since, that look is what reads a throw exactly on
    none of 1,270, so the candidate is put in here.)"""
    _two_pressed_dice_proposed_as_one(monkeypatch)
    image = cv2.imread(str(PRESSED_SQUARE))
    assert image is not None, PRESSED_SQUARE
    without = read_dice(image, replace(DEFAULT_PARAMS, merged_size_ratio=99.0), up=PRESSED_SQUARE_UP)
    reading = read_dice(image, up=PRESSED_SQUARE_UP)
    assert reading.values == tuple(sorted(value for _, _, value in PRESSED_SQUARE_DICE)), reading.summary()
    assert not reading.unreadable
    assert len(without.values) < len(PRESSED_SQUARE_DICE), without.summary()
    assert any(not die.is_readable for die in without.dice + without.doubtful), "left unreadable or held doubtful"
    for die in reading.dice:  # each die read is the labelled die it lies on
        centre, side, value = min(PRESSED_SQUARE_DICE, key=lambda labelled: math.dist(die.centre, labelled[0]))
        assert die.value == value and math.dist(die.centre, centre) < side / 2


@pytest.mark.parametrize("seed", [153, 388])
def test_a_mark_of_another_size_than_the_dice_and_unsure_is_held_doubtful_not_read_as_a_die(seed):
    """On a desk seen by a leaning webcam the reader took a key's corner, or the pips of a die's
    side face, for a die far off the thrown dice's size, its face unsure and less than 95 % likely
    a die: it is held doubtful (``odd_size_min_presence``) and the throw is read exactly. Without
    that rule the reading holds an unreadable die more than were thrown. (Seeds 368 and 469's desks
    were such before the leaning detector read pictures turned far side up, 107 and 263 before the
    leaning classifier was made twice as wide, 53 and 153 before the leaning detector learned more
    renders, 107 and 153 before a side face much smaller than its die was left out in every reading
    (``side_face_size_ratio``: 107's and 595's marks were such); now 153, 388, 423 and 463 of the
    first 600 are, and these are the first two.)"""
    desk = next(kind for kind in TRAY_KINDS if kind.desk)
    image, placed = throw(desk, np.random.default_rng(seed), 0.0)
    values = tuple(sorted(drawn.value for drawn in placed))
    without = read_dice(image, replace(DEFAULT_PARAMS, odd_size_min_presence=0.0), up=0.0)
    reading = read_dice(image, up=0.0)
    assert len(without.dice) > len(values) and without.unreadable and invented(without, placed) >= 1
    assert reading.values == values and not reading.unreadable and invented(reading, placed) == 0
    assert any(not die.is_readable for die in reading.doubtful)


@pytest.mark.parametrize(("size", "presence", "face", "doubtful"), [
    (100.0, 0.80, 0.50, True),  # twice the dice's size, unsure of its face and of being a die
    (25.0, 0.80, 0.50, True),  # half their size
    (100.0, 0.97, 0.50, False),  # sure of a die
    (100.0, 0.80, 0.90, False),  # sure of its face
    (65.0, 0.80, 0.50, False),  # of the dice's size (within typical_size_ratio)
])
def test_only_a_die_of_another_size_unsure_of_its_face_and_of_being_a_die_is_held_doubtful(size, presence, face, doubtful):
    """Each of the three conditions of ``_odd_sized_doubted`` is needed: a throw may hold a die of
    another size, read surely. Two dice beside it are enough to say what the dice's size is, even
    where they are as unsure as it; one is not."""
    sure, unsure = np.array([0.98, 0.004, 0.004, 0.004, 0.004, 0.004]), np.array([face, 1 - face, 0, 0, 0, 0])
    odd = Candidate((400.0, 50.0), size, presence)
    for dice, die_faces in (([Candidate((100.0 * i, 50.0), 50.0, 1.0) for i in range(1, 4)], sure),
                            ([Candidate((100.0 * i, 50.0), 50.0, 0.8) for i in range(1, 3)], unsure)):
        faces = {**{d: die_faces for d in dice}, odd: unsure}
        assert reader._odd_sized_doubted([*dice, odd], faces, DEFAULT_PARAMS) == ({odd} if doubtful else set())
    assert not reader._odd_sized_doubted([dice[0], odd], faces, DEFAULT_PARAMS), "one die and it: which is odd?"
    assert not reader._odd_sized_doubted(dice, faces, DEFAULT_PARAMS)
