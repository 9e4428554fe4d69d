"""The companion keeps the dice the players played on as the table's examples: read, or corrected by hand."""

from __future__ import annotations

import numpy as np
import pytest

from engine.cant_stop import GAME
from firmware.calibration.table_dice import TableDice
from firmware.core.events import FrameEvent
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import BadReadScreen
from firmware.table._confirmed_dice import placed_values
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.display import dummy_display
from table_helpers import NAMES, press, start_game
from vision.read.reading import DiceReading, Die


def die(value, x):
    return Die(value, (40.0 + 60.0 * x, 60.0), 40.0, 0.99 if value else 0.4, ((0, 0),) * 4)


def reading(*values):
    return DiceReading(tuple(die(v, x) for x, v in enumerate(values)))


@pytest.mark.parametrize(
    ("read", "entered", "placed"),
    [
        ((1, 2, 3, None), (1, 2, 3, 5), (1, 2, 3, 5)),  # the unsure die gets the face left over
        ((None, 2, None, 4), (6, 2, 6, 4), (6, 2, 6, 4)),  # two unsure dice, one face left for both
        ((None, 2, None, 4), (1, 2, 6, 4), ()),  # which unsure die showed which: unknown
        ((1, 2, 3, 4), (1, 2, 3, 5), ()),  # a die read wrong: which one is unknown
        ((1, 2, 3), (1, 2, 3, 5), ()),  # a die not seen: where it lay is unknown
    ],
)
def test_faces_entered_by_hand_are_put_on_the_dice_only_without_guessing(read, entered, placed):
    assert tuple(value for _, value in placed_values(reading(*read), entered)) == placed


def throw(companion, values):
    """The camera reads ``values`` (None: unsure) once ROLL is pressed and the frames settle."""
    companion.watcher.reader = lambda frame, up=None, closer=0: reading(*values)
    press(companion, Press.ROLL)
    frame = np.full((240, 320, 3), 90, np.uint8)
    for _ in range(10):
        companion.handle(FrameEvent(frame))


@pytest.fixture
def table(tmp_path):
    dice = TableDice(tmp_path, "white", background=False)
    companion = Companion(dummy_display(), GameSetup(NAMES), table_dice=dice)
    start_game(companion)
    return companion, dice


def test_a_throw_read_and_played_on_becomes_examples_when_the_next_is_taken(table):
    companion, dice = table
    throw(companion, (1, 4, 5, 6))
    press(companion, Press.SELECT)  # a pair: the turn goes on
    assert dice.counts() == [0] * 6, "not before the players played on"
    throw(companion, (2, 2, 3, 3))
    assert dice.counts() == [1, 0, 0, 1, 1, 1]


def test_an_undone_throw_is_no_example(table):
    companion, dice = table
    throw(companion, (1, 4, 5, 6))
    press(companion, Press.UNDO)
    assert companion.state == GAME.new_game(2)
    throw(companion, (2, 2, 3, 3))
    press(companion, Press.SELECT)
    throw(companion, (6, 6, 6, 6))
    assert dice.counts() == [0, 2, 2, 0, 0, 0]


def test_a_refused_throw_corrected_by_hand_teaches_the_corrected_die(table):
    companion, dice = table
    throw(companion, (1, 2, 3, None))
    assert companion.screen == BadReadScreen(4, (1, 2, 3), 1, 4)
    press(companion, Press.SELECT)  # enter the dice by hand: 1, 2, 3, then 5 for the unsure one
    press(companion, Press.SELECT, Press.NEXT, Press.SELECT, Press.NEXT, Press.NEXT, Press.SELECT)
    press(companion, *[Press.NEXT] * 4, Press.SELECT)
    assert companion.state.phase.name != "ROLL", "the entered roll was taken"
    press(companion, Press.SELECT)
    throw(companion, (6, 6, 6, 6))
    assert dice.counts() == [1, 1, 1, 0, 1, 0]
