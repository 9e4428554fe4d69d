"""At the table a throw read short (fewer dice than the roll needs) is looked at again closer."""

import numpy as np
import pytest

from table_helpers import first_seen
from vision.read.reading import DiceReading, Die
from vision.read.tray import TrayOutline

SMALL, BIG = (Die(value=3, centre=(200.0, 240.0), size=40.0, confidence=0.99),
             Die(value=5, centre=(420.0, 240.0), size=160.0, confidence=0.99))


class CloseUpReader:
    """A reader whose usual look misses the big die close to the camera and whose closer look (from
    the ``finds_at``-th on) finds it; it remembers each look's ``closer`` and ``up``."""

    def __init__(self, finds_at: int = 1) -> None:
        self.finds_at = finds_at
        self.closer: list[int] = []
        self.told: list[float | None] = []

    def __call__(self, frame: np.ndarray, *, up: float | None = None, closer: int = 0) -> DiceReading:
        self.closer.append(closer)
        self.told.append(up)
        return DiceReading((SMALL, BIG) if closer >= self.finds_at else (SMALL,))


def _confirmed(reader: CloseUpReader, expected: int, tray: TrayOutline | None = None) -> DiceReading:
    return first_seen(reader, tray, expected).reading


def test_a_throw_read_short_is_taken_from_the_closer_look():
    reader = CloseUpReader()
    assert _confirmed(reader, 2).values == (3, 5)
    assert 1 in reader.closer and 2 not in reader.closer


def test_a_throw_the_first_closer_look_still_reads_short_is_taken_from_the_second():
    reader = CloseUpReader(finds_at=2)
    assert _confirmed(reader, 2).values == (3, 5)
    assert reader.closer[:3] == [0, 1, 2]


def test_a_throw_read_in_full_is_never_looked_at_closer():
    reader = CloseUpReader()
    assert _confirmed(reader, 1).values == (3,)
    assert reader.closer and not any(reader.closer)


def test_the_closer_look_under_a_leaning_camera_keeps_its_far_side_and_the_tray():
    """A tray seen obliquely (far side at 90 degrees) that holds only the small die: the closer look,
    told the same far side, finds the big die outside the tray, so the throw stays short."""
    tray = TrayOutline(((100.0, 100.0), (330.0, 70.0), (330.0, 410.0), (100.0, 380.0)), (640, 480))
    reader = CloseUpReader()
    assert _confirmed(reader, 2, tray).values == (3,)
    assert 1 in reader.closer and all(up == pytest.approx(90.0) for up in reader.told)
