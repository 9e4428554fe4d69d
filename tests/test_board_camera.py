"""The simulated board camera: dice flicked toss by toss lie where they landed, a new round picks
them up, the picture tumbles then rests, and the real board reader reads it as it was drawn."""

import math

import numpy as np
import pytest

from hardware.board_camera import SyntheticBoardCamera, landing
from hardware.display import SIZE
from hardware.keyboard import HELP
from hardware.camera import Toss
from vision.board.board_reading import read_board
from vision.scenes.synthetic import PlacedDie
from vision.scenes.synthetic_board import BOX_DICE, TrueDie


def _clear_of_each_other(truth):
    reach = [d.placed.side * math.sqrt(2) / 2 for d in truth]
    return all(
        math.dist(a.placed.centre, b.placed.centre) > reach[i] + reach[j]
        for i, a in enumerate(truth) for j, b in enumerate(truth) if i < j
    )


def test_dice_flicked_stay_where_they_landed_until_a_new_round():
    camera = SyntheticBoardCamera(1)
    faces = camera.toss(Toss(2, colour="red", new_round=True))
    first = camera.truth
    assert faces == tuple(d.face for d in first) and [d.colour for d in first] == ["red", "red"]
    faces = camera.toss(Toss(3, colour="blue"))
    assert camera.truth[:2] == first, "the dice lying stay where they are"
    assert [d.colour for d in camera.truth] == ["red", "red", "blue", "blue", "blue"]
    assert faces == tuple(d.face for d in camera.truth) and all(1 <= f <= 6 for f in faces)
    assert _clear_of_each_other(camera.truth)
    assert len(camera.toss(Toss(1, colour="green", new_round=True))) == 1
    assert [d.colour for d in camera.truth] == ["green"], "a new round picks up the dice first"
    assert camera.toss(Toss(new_round=True)) == () and camera.truth == ()


def test_the_same_seed_lays_the_same_board():
    boards = []
    for _ in range(2):
        camera = SyntheticBoardCamera(7)
        for colour in BOX_DICE:
            camera.toss(Toss(4, colour=colour))
        boards.append((camera.truth, camera.frame()))
    assert boards[0][0] == boards[1][0] and np.array_equal(boards[0][1], boards[1][1])


@pytest.mark.parametrize(("toss", "message"), [
    (Toss(1, colour="purple"), "no 'purple' dice on the simulated board: its dice are red, green, blue, black"),
    (Toss(2), "no '' dice"),
    (Toss(-1, colour="red"), "a toss flicks 0 or more dice, got -1"),
])
def test_a_toss_the_board_cannot_do_is_refused_and_changes_nothing(toss, message):
    camera = SyntheticBoardCamera(2)
    camera.toss(Toss(2, colour="black"))
    before = camera.truth
    with pytest.raises(ValueError, match=message):
        camera.toss(toss)
    assert camera.truth == before


def test_dice_land_inside_levels_mostly_beside_the_board_sometimes_across_a_step_rarely():
    camera = SyntheticBoardCamera(3)
    wheres = []
    for _ in range(400):
        camera.toss(Toss(1, colour="red", new_round=True))
        (die,) = camera.truth
        wheres.append("level" if die.level is not None else "border" if die.on_board else "off")
    shares = {where: wheres.count(where) / len(wheres) for where in ("level", "border", "off")}
    assert abs(shares["level"] - 0.88) < 0.05 and abs(shares["off"] - 0.08) < 0.04 and 0 < shares["border"] < 0.08
    beside = SyntheticBoardCamera(3, off_board_share=1.0, on_border_share=0.0)
    beside.toss(Toss(3, colour="red"))
    assert not any(d.on_board for d in beside.truth)


def test_a_full_board_sends_the_next_dice_beside_it():
    camera = SyntheticBoardCamera(4, off_board_share=0.0, on_border_share=0.0)
    camera.toss(Toss(40, colour="green"))
    on_board = [d for d in camera.truth if d.on_board]
    assert len(camera.truth) == 40 and 10 < len(on_board) < 40
    assert all(d.level is not None for d in on_board) and _clear_of_each_other(camera.truth)


def test_shares_that_are_no_shares_are_refused():
    with pytest.raises(ValueError, match="must be 0 or more, together at most 1"):
        SyntheticBoardCamera(1, off_board_share=0.7, on_border_share=0.4)


def test_frames_tumble_after_a_toss_then_rest():
    camera = SyntheticBoardCamera(5, tumbling_frames=2)
    empty = camera.frame()
    assert np.array_equal(empty, camera.frame()), "an empty board at rest: what calibrate photographs"
    camera.toss(Toss(2, colour="blue"))
    tumbling = [camera.frame(), camera.frame()]
    rest = camera.frame()
    assert not np.array_equal(tumbling[0], tumbling[1]) and not np.array_equal(tumbling[1], rest)
    rest[:] = 0  # a copy: the next frame is untouched
    again = camera.frame()
    assert again.any() and np.array_equal(again, camera.frame())
    unchanged = np.all(np.abs(again.astype(int) - empty.astype(int)) < 1, axis=2)
    assert unchanged.mean() > 0.9, "the light stays: only the dice change the picture"
    camera.close()


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_tossed_board_is_read_as_it_lies(seed):
    """Every die well inside a level read with its face, colour and level; those beside the board as off it."""
    camera = SyntheticBoardCamera(seed)
    for colour in BOX_DICE:
        camera.toss(Toss(4, colour=colour))
    for _ in range(camera.tumbling_frames):
        camera.frame()
    reading = read_board(camera.frame(), camera.levels)
    read = sorted((d.colour, d.face, d.level) for d in reading.dice if d.is_sure)
    inside = sorted((d.colour, d.face, d.level) for d in camera.truth if d.level is not None)
    assert read == inside
    assert sorted((d.colour, d.face) for d in reading.off_board) == sorted(
        (d.colour, d.face) for d in camera.truth if not d.on_board
    )
    assert len(reading.unsure) == len([d for d in camera.truth if d.on_board and d.level is None]), "across a step"


@pytest.mark.parametrize("level, on_board, words", [
    (3, True, "red 4 landed on 3x"),
    (None, True, "red 4 landed across a step"),
    (None, False, "red 4 landed beside the board"),
    (0, True, "red 4 landed on 0x: it lies there until the count sets it aside"),
])
def test_where_a_flick_landed_is_said_and_on_0x_what_happens_to_it(level, on_board, words):
    """The keyboard demo never said where a flick landed, nor that no hand takes a die off 0x there."""
    die = TrueDie("red", 4, level, on_board, PlacedDie(4, (100.0, 100.0), 45.0, 0.0))
    assert landing(die) == words
    longest = landing(TrueDie("black", 6, 0, True, PlacedDie(6, (100.0, 100.0), 45.0, 0.0)))
    assert len(f"{HELP}   {longest}") <= SIZE[0] + 2, "said after the keys, within the framed picture's width"
