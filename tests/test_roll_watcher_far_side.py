"""At the table the tray's outline tells the reader where the camera's far side lies."""

import numpy as np
import pytest

from firmware.core.roll_watcher import RollWatcher
from vision.read.reading import DiceReading, Die
from vision.read.tray import TrayOutline

FRAME = np.full((480, 640, 3), 90, np.uint8)


class RecordingReader:
    """A reader that finds one die in the middle and remembers where it was told the far side lies."""

    def __init__(self) -> None:
        self.told: list[float | None] = []

    def __call__(self, frame: np.ndarray, *, up: float | None = None, closer: int = 0) -> DiceReading:
        self.told.append(up)
        return DiceReading((Die(value=3, centre=(320.0, 240.0), size=40.0, confidence=0.99),))


def _watch_until_read(tray: TrayOutline | None) -> RecordingReader:
    reader = RecordingReader()
    watcher = RollWatcher(reader, tray=tray)
    watcher.request()
    for _ in range(200):
        if watcher.frame(FRAME, roll_due=True) is not None:
            return reader
    pytest.fail("no reading after 200 still frames")


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


def _seen_with_count(tray: TrayOutline, expected: int) -> DiceReading:
    watcher = RollWatcher(SideFaceReader(), tray=tray)
    watcher.request()
    for _ in range(200):
        seen = watcher.frame(FRAME, roll_due=True, expected=expected)
        if seen is not None:
            return seen.reading
    pytest.fail("no reading after 200 still frames")


def test_under_a_tray_seen_obliquely_a_side_face_taken_for_a_die_more_than_thrown_is_left_out():
    """Far side on the left: the candidate on the die's right is its side face, and a throw of one is
    taken; seen from above, nothing says so, and the throw is refused for a die too many."""
    oblique = TrayOutline(((100.0, 100.0), (500.0, 50.0), (500.0, 430.0), (100.0, 380.0)), (640, 480))
    square = TrayOutline(((100.0, 100.0), (500.0, 100.0), (500.0, 400.0), (100.0, 400.0)), (640, 480))
    assert _seen_with_count(oblique, 1).values == (3,) and len(_seen_with_count(oblique, 1).dice) == 1
    assert len(_seen_with_count(square, 1).dice) == 2
