"""At the table the tray's outline tells the reader where the camera's far side lies."""

from dataclasses import replace

import numpy as np
import pytest

from table_helpers import first_seen
from vision.read.params import DEFAULT_PARAMS
from vision.read.reading import DiceReading, Die
from vision.read.tray import TrayOutline


class RecordingReader:
    """A reader that finds one die in the middle and remembers where it was told the far side lies."""

    def __init__(self) -> None:
        self.told: list[float | None] = []

    def __call__(self, frame: np.ndarray, *, up: float | None = None, closer: int = 0) -> DiceReading:
        self.told.append(up)
        return DiceReading((Die(value=3, centre=(320.0, 240.0), size=40.0, confidence=0.99),))


def _watch_until_read(tray: TrayOutline | None) -> RecordingReader:
    reader = RecordingReader()
    first_seen(reader, tray)
    return reader


def test_a_tray_seen_obliquely_turns_the_reader_to_its_far_side():
    tray = TrayOutline(((100.0, 100.0), (500.0, 50.0), (500.0, 430.0), (100.0, 380.0)), (640, 480))
    told = _watch_until_read(tray).told
    assert told and all(up == pytest.approx(90.0) for up in told)


def test_a_tray_seen_from_above_no_tray_or_a_round_tray_leave_the_reader_straight_down():
    square = TrayOutline(((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0)), (640, 480))
    round_tray = TrayOutline(tuple((320.0 + 150.0 * np.cos(a), 240.0 + 150.0 * np.sin(a))
                                   for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)), (640, 480))
    for tray in (square, None, round_tray):
        assert set(_watch_until_read(tray).told) == {None}, "the reader's own: straight down"


class SideFaceReader:
    """A reader that finds a die in the middle and, beside it on the picture's right, a candidate
    0.55 of its size away that is likely a die too: its side face, where the camera's far side is
    on the left."""

    def __call__(self, frame: np.ndarray, *, up: float | None = None, closer: int = 0) -> DiceReading:
        return DiceReading((Die(value=3, centre=(320.0, 240.0), size=40.0, confidence=0.99),
                            Die(value=None, centre=(342.0, 240.0), size=28.0, confidence=0.5, presence=0.8)))


def test_under_a_tray_seen_obliquely_a_side_face_taken_for_a_die_more_than_thrown_is_left_out():
    """Far side on the left: the candidate on the die's right is its side face, and a throw of one is
    taken; seen from above, nothing says so, and the throw is refused for a die too many."""
    oblique = TrayOutline(((100.0, 100.0), (500.0, 50.0), (500.0, 430.0), (100.0, 380.0)), (640, 480))
    square = TrayOutline(((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0)), (640, 480))
    taken = first_seen(SideFaceReader(), oblique, expected=1).reading
    assert taken.values == (3,) and len(taken.dice) == 1
    assert len(first_seen(SideFaceReader(), square, expected=1).reading.dice) == 2


def test_the_readers_own_params_say_how_likely_a_die_too_many_must_be():
    """Seen from above, the candidate beside the die refuses a throw of one; a reader whose params
    take a throw unless the next die is at least 0.9 likely takes it."""
    square = TrayOutline(((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0)), (640, 480))
    lenient = replace(DEFAULT_PARAMS, expected_max_extra_presence=0.9)
    assert first_seen(SideFaceReader(), square, expected=1, reader_params=lenient).reading.values == (3,)
