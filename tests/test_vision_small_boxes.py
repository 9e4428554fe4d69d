"""A die boxed too tightly is read again at the size of the dice around it.

The classifier learned whole dice; a crop cut around a box smaller than the die cuts its edges and
pips. Here a fake classifier reads a 4 surely from a crop cut at SIDE or bigger and is unsure of a
smaller one, so each test says exactly which boxes are read again and at what size.
"""

import math
from dataclasses import replace

import numpy as np
import pytest

from vision.read import reader
from vision.read.detect import Candidate
from vision.read.params import DEFAULT_PARAMS

SIDE = 50.0
SURE_FOUR = np.array([0.01, 0.01, 0.01, 0.95, 0.01, 0.01])
SURE_TWO = np.array([0.01, 0.95, 0.01, 0.01, 0.01, 0.01])
UNSURE = np.array([0.1, 0.1, 0.1, 0.4, 0.2, 0.1])
BLANK = np.zeros((8, 8, 3), np.uint8)
LEANING = replace(DEFAULT_PARAMS, up=0.0)


def fake_classifier(monkeypatch, not_a_die: float = 0.0) -> list[tuple[Candidate, object]]:
    """``_probabilities_at`` replaced: a crop at SIDE or more reads a 4 surely, a smaller one is
    unsure, each ``not_a_die`` likely no die; each candidate it was asked about is recorded with
    the table layer it was read through."""
    asked: list[tuple[Candidate, object]] = []

    def probabilities_at(bgr, candidates, params, head):
        asked.extend((c, head) for c in candidates)
        faces = [(SURE_FOUR if c.size >= SIDE else UNSURE) * (1 - not_a_die) for c in candidates]
        return np.array([np.append(f, not_a_die) for f in faces])

    monkeypatch.setattr(reader, "_probabilities_at", probabilities_at)
    return asked


def a_throw(small_size: float, presence: float = 1.0) -> tuple[list[Candidate], Candidate, dict]:
    """Three dice of SIDE read surely and one more of ``small_size`` read unsure."""
    dice = [Candidate((100.0 * i, 100.0), SIDE, 1.0) for i in range(1, 4)]
    small = Candidate((400.0, 100.0), small_size, presence)
    faces = {**{d: SURE_FOUR for d in dice}, small: UNSURE}
    return [*dice, small], small, faces


def read_again(kept: list[Candidate], faces: dict, params=DEFAULT_PARAMS, head=None) -> None:
    reader._small_boxes_read_at_the_dices_size(BLANK, kept, faces, params, head)


def test_a_die_boxed_smaller_than_the_throws_dice_is_read_again_at_their_size(monkeypatch):
    asked = fake_classifier(monkeypatch)
    kept, small, faces = a_throw(0.7 * SIDE)
    layer = object()
    read_again(kept, faces, head=layer)
    assert asked == [(replace(small, size=SIDE), layer)], "read again once, where it lies, at the dice's size, through the table's layer"
    assert np.array_equal(faces[small], SURE_FOUR)
    assert kept[-1] is small, "its place, size and presence stay the first look's"


@pytest.mark.parametrize(("small_size", "presence", "why"), [
    (0.96 * SIDE, 1.0, "within small_box_ratio of the dice's size"),
    (DEFAULT_PARAMS.small_box_ratio * SIDE, 1.0, "at small_box_ratio exactly"),
    (0.7 * SIDE, 0.3, "a doubtful candidate, not a die"),
])
def test_a_box_is_left_as_it_is(monkeypatch, small_size, presence, why):
    asked = fake_classifier(monkeypatch)
    kept, small, faces = a_throw(small_size, presence)
    read_again(kept, faces)
    assert not asked and np.array_equal(faces[small], UNSURE), why


def test_straight_down_a_small_die_read_surely_is_read_again_too(monkeypatch):
    """Seen straight down every die is of the throw's size: a small box read surely as a 2 may be
    a crop that cuts pips off a 4."""
    fake_classifier(monkeypatch)
    kept, small, faces = a_throw(0.7 * SIDE)
    faces[small] = SURE_TWO
    read_again(kept, faces)
    assert np.array_equal(faces[small], SURE_FOUR)


def test_a_look_that_is_no_die_leaves_the_faces_as_they_were(monkeypatch):
    """Where the crop at the dice's size is likelier no die than a die is allowed to be
    (``max_not_die_probability``), its faces are not taken."""
    asked = fake_classifier(monkeypatch, not_a_die=0.9)
    kept, small, faces = a_throw(0.7 * SIDE)
    read_again(kept, faces)
    assert len(asked) == 1 and np.array_equal(faces[small], UNSURE)


def test_the_dices_size_is_that_of_the_dice_read_surely(monkeypatch):
    """Dice kept unsure say nothing of the size: with none read surely, nothing is read again; a big
    unsure die does not raise the size the others are read at."""
    asked = fake_classifier(monkeypatch)
    unsure_only = [Candidate((100.0 * i, 100.0), SIDE * (0.6 + 0.2 * i), 1.0) for i in range(1, 4)]
    read_again(unsure_only, {c: UNSURE for c in unsure_only})
    assert not asked
    kept, small, faces = a_throw(0.7 * SIDE)
    big = Candidate((500.0, 100.0), 3 * SIDE, 1.0)
    faces[big] = UNSURE
    read_again([*kept, big], faces)
    assert [c for c, _ in asked] == [replace(small, size=SIDE)]


def test_a_leaning_camera_reads_a_small_box_at_the_size_of_its_nearest_dice(monkeypatch):
    """A leaning camera sees the nearer dice bigger: sure dice of 40 to 120 px along the picture, a
    die boxed at 30 px among the small ones, its face unsure, is read again at the median of its
    five nearest (60), not at the throw's (80); one boxed at 56 px there is near enough their size,
    and the dice read surely are not looked at again, the smallest of them though it is."""
    asked = fake_classifier(monkeypatch)
    dice = [Candidate((100.0 * i, 100.0), 30.0 + 10.0 * i, 1.0) for i in range(1, 10)]
    small, near_enough = Candidate((150.0, 160.0), 30.0, 1.0), Candidate((250.0, 160.0), 56.0, 1.0)
    faces = {**{d: SURE_FOUR for d in dice}, small: UNSURE, near_enough: UNSURE}
    read_again([*dice, small, near_enough], faces, LEANING)
    assert [c for c, _ in asked] == [replace(small, size=60.0)]
    assert reader._size_around(small, dice[:2], LEANING) == 45.0, "two neighbours tell"
    assert reader._size_around(small, dice[:1], LEANING) is None, "one does not"
    assert reader._size_around(small, dice[:1], DEFAULT_PARAMS) == 40.0, "straight down, any die read surely tells"


def test_a_leaning_cameras_neighbours_are_the_nearest_in_the_picture_not_in_size(monkeypatch):
    """Five dice of 56 px lie beside a 45 px box and five of 40 px far off: its size is the near
    ones' 56, and it is read again at it; by size alone the 40 px dice would be its neighbours, and
    45 px near enough theirs."""
    asked = fake_classifier(monkeypatch)
    near = [Candidate((100.0 + 60.0 * i, 100.0), 56.0, 1.0) for i in range(5)]
    far = [Candidate((900.0 + 50.0 * i, 100.0), 40.0, 1.0) for i in range(5)]
    small = Candidate((220.0, 160.0), 45.0, 1.0)
    read_again([*near, *far, small], {**{d: SURE_FOUR for d in near + far}, small: UNSURE}, LEANING)
    assert [c for c, _ in asked] == [replace(small, size=56.0)]


def through_the_reader(monkeypatch, kept: list[Candidate], params=DEFAULT_PARAMS):
    """``read_dice`` on a blank picture whose detector proposes ``kept`` and whose classifier is the fake."""
    monkeypatch.setattr(reader, "find_candidates", lambda bgr, params: list(kept))
    fake_classifier(monkeypatch)
    return reader.read_dice(np.full((200, 500, 3), 128, np.uint8), params)


def test_the_reader_reads_a_tightly_boxed_die_and_without_the_second_look_keeps_it_unsure(monkeypatch):
    """Through ``read_dice``: the detector boxes one of four dice at 0.7 of its size, and the
    classifier is unsure of it there; read again at the dice's size it is a 4, like the others.
    With ``small_box_ratio`` 0 it stays unreadable."""
    kept, small, _ = a_throw(0.7 * SIDE)
    reading = through_the_reader(monkeypatch, kept)
    assert reading.values == (4, 4, 4, 4) and not reading.unreadable, reading.summary()
    without = through_the_reader(monkeypatch, kept, replace(DEFAULT_PARAMS, small_box_ratio=0.0))
    assert without.values == (4, 4, 4) and len(without.unreadable) == 1, without.summary()
    unread = without.unreadable[0]
    assert math.dist(unread.centre, small.centre) < 1 and unread.size == pytest.approx(small.size)


def test_a_candidate_held_doubtful_for_another_size_is_not_read_again_at_the_dices_size(monkeypatch):
    """Read at the dice's size, a key's corner held doubtful for its size (``_odd_sized_doubted``)
    would become a die: on bench-vision's desks drawn for choosing, 4 dice invented became 7."""
    kept, small, _ = a_throw(0.7 * SIDE)
    monkeypatch.setattr(reader, "_odd_sized_doubted", lambda kept, faces, params: {small})
    reading = through_the_reader(monkeypatch, kept)
    assert reading.values == (4, 4, 4) and not reading.unreadable
    assert [(d.centre, d.is_readable) for d in reading.doubtful] == [(small.centre, False)]


@pytest.mark.parametrize("params", [DEFAULT_PARAMS, LEANING], ids=["straight down", "leaning"])
def test_a_reading_keeping_every_face_reads_the_small_boxes_again_as_the_reader_does(monkeypatch, params):
    """The thresholds command and ``eval-vision --calibration`` read every face and apply the face
    threshold afterwards (``keeping_every_face``): which dice tell the throw's size, and which are
    unsure, must still be the reader's, or their figures are another reader's (a leaning camera's
    small unsure die would not be read again at all)."""
    kept, _, _ = a_throw(0.7 * SIDE)
    as_read = through_the_reader(monkeypatch, kept, params)
    every_face = through_the_reader(monkeypatch, kept, params.keeping_every_face())
    assert [d.confidence for d in every_face.dice] == [d.confidence for d in as_read.dice]
    assert as_read.values == every_face.values == (4, 4, 4, 4)
