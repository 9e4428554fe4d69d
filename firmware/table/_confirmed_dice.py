"""Which dice the players confirmed, for the table's own dice examples (firmware.calibration.table_dice).

A throw's dice become examples only once the players played on with them: when the next throw
is taken without the last one undone. A throw read by the camera confirms the faces read; a
throw entered by hand after a refused reading confirms the faces entered, where each can be put
on a die the camera saw (the same number of dice, the faces read among those entered, and the
rest all one face), and those corrected dice are what the table learns most from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from firmware.calibration.table_dice import TableDice
from vision.read.reading import DiceReading, Die


def placed_values(reading: DiceReading, entered: Sequence[int]) -> list[tuple[Die, int]]:
    """Each die of ``reading`` with the face it showed, given the faces ``entered`` by hand for
    that throw; empty where the faces cannot be put on the dice without guessing."""
    if len(reading.dice) != len(entered):
        return []
    left = Counter(entered)
    left.subtract(die.value for die in reading.dice if die.value is not None)
    if any(n < 0 for n in left.values()):
        return []  # a face was read that was not entered: which die was misread is unknown
    rest = [value for value, n in left.items() for _ in range(n)]
    if len(set(rest)) > 1:
        return []
    return [(die, die.value if die.value is not None else rest[0]) for die in reading.dice]


class ConfirmedDice:
    """Follows the throws at the table and hands those played on to ``table`` as examples."""

    def __init__(self, table: TableDice) -> None:
        self.table = table
        self._refused: tuple[np.ndarray, DiceReading] | None = None
        self._last: tuple[np.ndarray, list[tuple[Die, int]]] | None = None

    def refused(self, frame: np.ndarray, reading: DiceReading) -> None:
        """The camera's reading was refused; the faces may come by hand next."""
        self._refused = (frame, reading)

    def read(self, frame: np.ndarray, reading: DiceReading) -> None:
        """A throw read by the camera was taken."""
        self._taken(frame, [(die, die.value) for die in reading.dice if die.value is not None])

    def by_hand(self, values: Sequence[int]) -> None:
        """A throw was entered by hand (after a refused reading, its dice get the faces entered)."""
        frame, reading = self._refused if self._refused is not None else (None, DiceReading())
        self._taken(frame, placed_values(reading, values) if frame is not None else [])

    def undone(self) -> None:
        """The last throw was undone: it is not what was thrown."""
        self._last = None

    def _taken(self, frame: np.ndarray | None, dice: list[tuple[Die, int]]) -> None:
        if self._last is not None:
            last_frame, last_dice = self._last
            self.table.confirm(last_frame, [die for die, _ in last_dice], [value for _, value in last_dice])
        self._last = (frame, dice) if frame is not None and dice else None
        self._refused = None
