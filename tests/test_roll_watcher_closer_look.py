"""At the table a throw read short (fewer dice than the roll needs) is looked at again closer."""

import numpy as np
import pytest

from firmware.core.roll_watcher import RollWatcher
from vision.read.reading import DiceReading, Die

FRAME = np.full((480, 640, 3), 90, np.uint8)
NEAR, FAR = (Die(value=3, centre=(200.0, 240.0), size=40.0, confidence=0.99),
             Die(value=5, centre=(420.0, 240.0), size=160.0, confidence=0.99))


class CloseUpReader:
    """A reader whose usual look misses the big die close to the camera and whose closer look finds it."""

    def __init__(self) -> None:
        self.closer: list[bool] = []

    def __call__(self, frame: np.ndarray, *, up: float | None = None, closer: bool = False) -> DiceReading:
        self.closer.append(closer)
        return DiceReading((NEAR, FAR) if closer else (NEAR,))


def _confirmed(reader: CloseUpReader, expected: int) -> DiceReading:
    watcher = RollWatcher(reader)
    watcher.request()
    for _ in range(200):
        seen = watcher.frame(FRAME, roll_due=True, expected=expected)
        if seen is not None:
            return seen.reading
    pytest.fail("no reading after 200 still frames")


def test_a_throw_read_short_is_taken_from_the_closer_look():
    reader = CloseUpReader()
    assert _confirmed(reader, 2).values == (3, 5)
    assert True in reader.closer


def test_a_throw_read_in_full_is_never_looked_at_closer():
    reader = CloseUpReader()
    assert _confirmed(reader, 1).values == (3,)
    assert reader.closer and not any(reader.closer)
