"""Columns on its real board, "a matrix of 3x4 wooden pins": each rule's sentence checked where
the grid differs from a row, across the rows as along them."""

from __future__ import annotations

import json

import pytest

from engine.columns import GAME, from_json, new_game, parse_move, to_json
from engine.columns.board import GRID, ROW
from columns_positions import legal, play, position, refused, row_game, stack

# Pins: row A nearest player 1, A1..A4 left to right as player 1 sees them; B and C behind.


def test_the_grid_names_its_pins_and_its_17_neighbouring_pairs():
    assert [GRID.pin_name(pin) for pin in (0, 3, 4, 11)] == ["A1", "A4", "B1", "C4"]
    assert len(GRID.pairs) == 9 + 8 and len(ROW.pairs) == 11
    assert GRID.neighbours(GRID.pin("A2"), GRID.pin("B2")) and not GRID.neighbours(GRID.pin("A4"), GRID.pin("B1"))
    assert not GRID.neighbours(GRID.pin("A1"), GRID.pin("B2"))  # never diagonally


def test_a_double_rests_on_two_pieces_side_by_side_across_the_rows():
    """"it may rest on any two pieces that are side by side on the same level"."""
    state = position("1: R A2", "2: S B2")
    assert legal(state, "D A2-B2") and not legal(state, "D A2-A3")
    after = play(state, "D A2-B2")
    assert after.stacks[GRID.pin("A2")][-1] == after.stacks[GRID.pin("B2")][-1] == 2


def test_an_l_across_the_rows_thick_end_down_on_the_board_thin_end_on_a_piece():
    """"it may rest with the thick end down on the game board and the thin end on a game piece"."""
    state = position("1: R C3")
    assert legal(state, "L B3-C3 down")
    refused(state, "L B3-C3 up", "L B3-C3 up: it would leave a gap under column B3 .*: turned up, a triple needs")


def test_a_roundel_must_not_be_placed_on_the_opponents_blocker_across_the_rows():
    state = position("2: D A1-B1", to_move=1)
    refused(state, "R B1", "a roundel may not go on player 2's blocker in column B1")
    assert legal(position("1: D A1-B1"), "R B1")  # its own blocker


def test_blockers_exactly_back_to_back_across_the_rows_are_not_allowed():
    """"Placing double- or triple-unit blockers exactly back-to-back is NOT allowed"."""
    state = position("2: D B4-C4")
    refused(state, "D B4-C4", "both ends would rest on one piece, player 2's double blocker in columns B4-C4: "
            "blockers placed exactly back-to-back are not allowed")
    assert legal(position("1: D B4-C4", "2: R A4", "1: R B3"), "D A4-B4")  # offset: on two pieces


def test_nothing_goes_above_level_5_on_a_pin_of_the_grid():
    state = position(*stack("C2", 1, 2, 1, 2, 1))
    refused(state, "S C2", "column C2 is full: nothing may go above level 5")


def test_a_placement_named_for_the_row_is_refused_on_the_grid_and_the_other_way_round():
    refused(new_game(2), "R 7", "R 7: this game is played on the 3x4 grid: its columns are named A1 to C4")
    refused(row_game(), "R B2", "R B2: this game is played on the row of 12: its columns are named 1 to 12")


def test_on_the_row_a_pin_has_at_most_two_neighbours():
    assert legal(row_game(), "D 4-5")
    with pytest.raises(Exception, match="a double blocker spans two neighbouring columns on the row of 12, got 4-8"):
        parse_move("D 4-8")


def test_the_board_travels_with_the_state_and_the_contract():
    state = GAME.new_game(2, board="row")
    assert state.board is ROW and GAME.new_game(2).board is GRID
    data = json.loads(to_json(play(new_game(2), "R A1")))
    assert data["board"] == "grid" and data["pieces"][0]["piece"] == "R A1"
    assert from_json(to_json(state)).board is ROW
