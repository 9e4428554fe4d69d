"""Tumblin' Dice boards read by the camera: face, colour and level of every die, unsure ones said."""

import numpy as np
import pytest

from engine.tumblin import Die, make_variant, round_scores
from vision.board.board_levels import LevelMap, LevelMapError
from vision.board.board_reading import read_board
from vision.board.die_colour import DEFAULT_PALETTE, Palette, PaletteError
from vision.scenes.synthetic_board import COOL, WARM, render_board

COLOURS = ("red", "green", "blue", "black")
BOARDS = 12  # per white balance
TUNGSTEN = (0.65, 0.9, 1.3)  # B, G, R gains: a cast that leaves a quarter of the dice unnamed without the pips' white


def _dice(rng, per_colour=3):
    return [(colour, int(rng.integers(1, 7))) for colour in COLOURS for _ in range(per_colour)]


def _truth_counted(truth):
    return sorted((d.colour, d.face, d.level) for d in truth if d.on_board)


@pytest.mark.parametrize("balance", [(1.0, 1.0, 1.0), WARM, COOL, TUNGSTEN], ids=["neutral", "warm", "cool", "tungsten"])
def test_boards_are_read_exactly(balance):
    """Every die's face, colour and level, off-board dice apart; the same under a colour cast."""
    exact = 0
    for seed in range(BOARDS):
        rng = np.random.default_rng(500 + seed)
        image, levels, truth = render_board(_dice(rng), rng, off_board=2, white_balance=balance)
        reading = read_board(image, levels)
        counted = reading.counted()
        assert counted is not None, [d.problems() for d in reading.unsure]
        assert sorted(counted) == _truth_counted(truth)
        assert sorted((d.colour, d.face) for d in reading.off_board) == sorted(
            (d.colour, d.face) for d in truth if not d.on_board
        )
        exact += 1
    assert exact == BOARDS


def test_the_reading_scores_as_the_board():
    rng = np.random.default_rng(7)
    image, levels, truth = render_board(_dice(rng, 4), rng, off_board=3)
    variant = make_variant(colours=COLOURS)
    read = [Die(colour, face, level) for colour, face, level in read_board(image, levels).counted()]
    drawn = [Die(d.colour, d.face, d.level) for d in truth if d.on_board]
    assert round_scores(variant, read) == round_scores(variant, drawn)


def test_a_die_across_a_step_is_unsure():
    rng = np.random.default_rng(11)
    image, levels, truth = render_board(_dice(rng, 2), rng, on_border=1)
    reading = read_board(image, levels)
    (unsure,) = reading.unsure
    (across,) = [d for d in truth if d.on_board and d.level is None]
    assert np.hypot(unsure.die.centre[0] - across.placed.centre[0], unsure.die.centre[1] - across.placed.centre[1]) < 10
    assert unsure.level is None and unsure.level_reason.startswith("on the border of levels ")
    assert (unsure.colour, unsure.face) == (across.colour, across.face)
    assert reading.counted() is None


def test_off_board_dice_do_not_count():
    rng = np.random.default_rng(3)
    image, levels, truth = render_board([("red", 6), ("blue", 2), ("black", 5)], rng, off_board=2)
    reading = read_board(image, levels)
    assert reading.counted() == (("red", 6, truth[0].level),)
    assert sorted((d.colour, d.face, d.level) for d in reading.off_board) == [("black", 5, None), ("blue", 2, None)]


def test_two_palette_colours_too_close_are_unsure():
    rng = np.random.default_rng(5)
    image, levels, _ = render_board([("red", 4), ("green", 3)], rng)
    crimson = Palette(DEFAULT_PALETTE.colours + (("crimson", (45, 35, 190)),))
    reading = read_board(image, levels, crimson)
    red = next(d for d in reading.dice if d.face == 4)
    assert red.colour is None and red.colour_reason in ("red or crimson: too close to call", "crimson or red: too close to call")
    assert next(d for d in reading.dice if d.face == 3).colour == "green"


def test_a_colour_not_in_the_palette_is_unsure():
    rng = np.random.default_rng(6)
    image, levels, _ = render_board([("red", 2), ("green", 5)], rng)
    without_green = Palette(tuple(c for c in DEFAULT_PALETTE.colours if c[0] != "green"))
    reading = read_board(image, levels, without_green)
    green = next(d for d in reading.dice if d.face == 5)
    assert green.colour is None and green.colour_reason.startswith("no player's colour: nearest ")
    assert "colour: no player's colour" in green.problems()[0]


def test_palettes_are_checked():
    with pytest.raises(PaletteError, match="at least one"):
        Palette(())
    with pytest.raises(PaletteError, match="each colour once"):
        Palette((("red", (0, 0, 200)), ("red", (0, 0, 190))))


def _square_levels(frame=(800, 600)):
    w, h = frame
    return LevelMap(
        tuple(((0.0, h * k / 5), (float(w), h * k / 5), (float(w), h * (k + 1) / 5), (0.0, h * (k + 1) / 5))
              for k in range(5)),
        frame,
    )


def test_level_map_json_round_trip_and_rescale():
    levels = render_board([], np.random.default_rng(0))[1]
    again = LevelMap.from_json(levels.to_json())
    assert again.to_json() == levels.to_json() and again.frame_size == levels.frame_size
    assert np.allclose(np.array(again.outlines), np.array(levels.outlines), atol=0.005)
    half = levels.scaled_to((400, 300))
    assert half.frame_size == (400, 300)
    assert half.outlines[2][0] == (levels.outlines[2][0][0] / 2, levels.outlines[2][0][1] / 2)
    assert _square_levels().place((400, 300), 40).level == 2
    assert _square_levels().scaled_to((1600, 1200)).place((800, 600), 80).level == 2


def test_levels_place_border_and_off_board():
    levels = _square_levels()
    assert levels.place((100, 245), 40).reason == "on the border of levels 1 and 2"  # 5 px from the line at 240
    assert levels.place((100, 252), 40).level == 2  # 12 px: past the 8 px margin
    off = LevelMap(levels.outlines[:4] + (((0.0, 480.0), (400.0, 480.0), (400.0, 600.0), (0.0, 600.0)),), (800, 600))
    assert off.place((700, 560), 40).on_board is False


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON"),
        ('{"format": "dice-companion tray"}', "not a board level map"),
        ('{"format": "dice-companion board levels", "version": 9}', "version 9"),
        ('{"format": "dice-companion board levels", "version": 1, "frame": [800], "levels": []}', '"frame" must be'),
        ('{"format": "dice-companion board levels", "version": 1, "frame": [800, 600], "levels": [1]}', '"levels" must be'),
        ('{"format": "dice-companion board levels", "version": 1, "frame": [800, 600], "levels": []}', "one outline per level"),
    ],
)
def test_bad_level_maps_are_refused(text, message):
    with pytest.raises(LevelMapError, match=message):
        LevelMap.from_json(text)


def test_level_maps_of_another_shape_or_outside_the_frame_are_refused():
    with pytest.raises(LevelMapError, match="another shape: outline the levels again"):
        _square_levels().scaled_to((800, 800))
    with pytest.raises(LevelMapError, match="lies outside the 800x500 frame"):
        LevelMap(_square_levels().outlines, (800, 500))
    with pytest.raises(LevelMapError, match="no area"):
        LevelMap(_square_levels().outlines[:4] + (((0.0, 0.0), (1.0, 1.0), (2.0, 2.0)),), (800, 600))
    image, levels, _ = render_board([("red", 1)], np.random.default_rng(1))
    with pytest.raises(LevelMapError, match="another shape"):
        read_board(image[:, :600], levels)
