"""The board file: the shipped default, its format, and a clear message for every flaw."""

import tomllib
from importlib import resources

import pytest

from engine.counters import GAME, make_variant, new_game
from engine.counters.board import (
    COLUMN_NAMES, STRAIGHT, Board, BoardError, ColumnSpec, board_from_dict, board_from_toml, board_to_dict, default_board,
)
from engine.errors import VariantError
from counters_positions import plain_board

COLUMN_4 = '[columns.4]\ntop = 10\nspace_from = 8\n'


def board_text(column_4: str = COLUMN_4, extra: str = "") -> str:
    """A board file whose column 4 is ``column_4``; the other columns are plain."""
    others = "".join(
        f"[columns.{name}]\ntop = 9\nspace_from = 7\n\n" for name in COLUMN_NAMES if name != "4"
    )
    return extra + others + column_4


def test_the_default_board_is_the_packaged_file_and_a_playable_assumption():
    text = resources.files("engine.counters").joinpath("default_board.toml").read_text("utf-8")
    assert "ASSUMPTION" in text.splitlines()[2] and "not published" in text
    board = default_board()
    assert board is default_board() and board == board_from_toml(text)
    assert [c.name for c in board.columns] == list(COLUMN_NAMES)
    for spec in board.columns:
        assert 8 <= spec.top + 1 <= 12 and 1 <= spec.top - spec.space_from <= 3
        assert not spec.rockets & (spec.pink_stars | spec.blue_stars)
    assert sum(len(c.blue_stars) for c in board.columns) in range(2, 5)
    assert sum(len(c.rockets) for c in board.columns) in range(3, 8)
    assert new_game(2).board == board


def test_the_board_round_trips_through_plain_data_and_the_variant():
    board = plain_board(**{"4": {"rockets": [3], "pink_stars": [5]}, "S": {"blue_stars": [2]}})
    data = board_to_dict(board)
    assert data["columns"]["4"] == {"top": 10, "space_from": 8, "pink_stars": [5], "blue_stars": [], "rockets": [3]}
    assert board_from_dict(data) == board
    assert GAME.new_game(3, board=data).board == board
    assert make_variant(board=board).board is board
    assert board[STRAIGHT].blue_stars == {2} and board[3].is_star(5) and board[3].in_space(8)


def test_the_special_lists_may_be_left_out():
    board = board_from_toml(board_text())
    assert board[3] == ColumnSpec("4", 10, 8)


@pytest.mark.parametrize(
    ("column_4", "message"),
    [
        (COLUMN_4 + "rockets = [11]\n", "column 4: rockets must be square numbers from 1 to 10, got 11"),
        (COLUMN_4 + "rockets = [0]\n", "column 4: rockets must be square numbers from 1 to 10, got 0"),
        (COLUMN_4 + 'pink_stars = ["3"]\n', "column 4: pink_stars must be square numbers from 1 to 10, got '3'"),
        (COLUMN_4 + "blue_stars = [true]\n", "column 4: blue_stars must be square numbers from 1 to 10, got True"),
        (COLUMN_4 + "blue_stars = [[2]]\n", r"column 4: blue_stars must be square numbers from 1 to 10, got \[2\]"),
        (COLUMN_4 + "rockets = 3\n", "column 4: rockets must be a list of square numbers, got 3"),
        (COLUMN_4 + "rockets = [3, 3]\n", r"column 4: rockets lists a square twice: \[3, 3\]"),
        (COLUMN_4 + "rockets = [3]\npink_stars = [3]\n", "column 4: square 3 is both a rocket and a star"),
        (COLUMN_4 + "rockets = [3]\nblue_stars = [3]\n", "column 4: square 3 is both a rocket and a star"),
        (COLUMN_4 + "pink_stars = [3]\nblue_stars = [3]\n", "column 4: square 3 is both a pink and a blue star"),
        (COLUMN_4 + "rocket = [3]\n", "column 4: unknown key 'rocket'; known: top, space_from"),
        ("[columns.4]\nspace_from = 8\n", "column 4: top is missing"),
        ("[columns.4]\ntop = 10\n", "column 4: space_from is missing"),
        ("[columns.4]\ntop = 0\nspace_from = 0\n", "column 4: top must be a whole number of at least 1, got 0"),
        ('[columns.4]\ntop = "10"\nspace_from = 8\n', "column 4: top must be a whole number of at least 1, got '10'"),
        ("[columns.4]\ntop = 10\nspace_from = 11\n", "column 4: space_from must be a square number from 1 to 10 .* got 11"),
        ("[columns.4]\ntop = 10\nspace_from = 0\n", "so that the column reaches space, got 0"),
        ("[columns.4]\ntop = 10.0\nspace_from = 8\n", "column 4: top must be a whole number"),
        ("", "the board lacks column 4; it needs all of 1, 2, 3, 4, 5, 6, S"),
        (COLUMN_4 + "[columns.7]\ntop = 9\nspace_from = 7\n", "unknown column '7'; the columns are 1, 2, 3, 4, 5, 6, S"),
        (COLUMN_4 + "[name]\n", "unknown board key 'name'; a board has only 'columns'"),
        (COLUMN_4 + "top = [", "the board file is not valid TOML"),
    ],
)
def test_every_flaw_of_a_board_file_is_named(column_4, message):
    with pytest.raises(BoardError, match=message):
        board_from_toml(board_text(column_4))


def test_board_errors_are_variant_errors_and_refuse_other_shapes():
    assert issubclass(BoardError, VariantError)
    with pytest.raises(BoardError, match="a board must be a table"):
        board_from_dict([1, 2])
    with pytest.raises(BoardError, match="a board needs a 'columns' table"):
        board_from_dict({})
    columns = board_to_dict(default_board())["columns"]
    with pytest.raises(BoardError, match="column 4: must be a table of top, space_from"):
        board_from_dict({"columns": {**columns, "4": 3}})
    with pytest.raises(BoardError, match="the seven columns 1, 2, 3, 4, 5, 6, S in that order"):
        Board(default_board().columns[::-1])
    with pytest.raises(VariantError, match="unknown variant setting 'columns_to_win'; known: board"):
        GAME.new_game(2, columns_to_win=3)
    with pytest.raises(VariantError, match="for 2 to 4 players, got 5"):
        GAME.new_game(5)


def test_the_default_file_documents_its_format():
    header = resources.files("engine.counters").joinpath("default_board.toml").read_text("utf-8")
    for word in ("square 0", "top", "space_from", "pink_stars", "blue_stars", "rockets", "[columns.S]"):
        assert word in header
    assert set(tomllib.loads(header)) == {"columns"}
