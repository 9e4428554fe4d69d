"""Moves' text forms and states' JSON form: exact round trips; anything that is not a reachable state is refused."""

import json
import random

import pytest

from engine.columns import (
    Kind,
    score,
    Orientation,
    Placement,
    from_json,
    move_text,
    new_game,
    parse_move,
    to_json,
)
from engine.columns.board import ROW
from engine.columns.codec import state_to_dict
from engine.errors import StateFormatError
from columns_positions import play, playout, row_game


# Text forms.


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("R B2", Placement(Kind.ROUNDEL, 5)),
        ("S C4", Placement(Kind.SINGLE, 11)),
        ("D A1-A2", Placement(Kind.DOUBLE, 0, 1)),
        ("D A1-B1", Placement(Kind.DOUBLE, 0, 4)),
        ("L B3-C3 up", Placement(Kind.TRIPLE, 6, 10, Orientation.UP)),
        ("L C3-B3 down", Placement(Kind.TRIPLE, 10, 6, Orientation.DOWN)),
        ("R 7", Placement(Kind.ROUNDEL, 6, board=ROW)),
        ("S 12", Placement(Kind.SINGLE, 11, board=ROW)),
        ("D 4-5", Placement(Kind.DOUBLE, 3, 4, board=ROW)),
        ("L 8-9 up", Placement(Kind.TRIPLE, 7, 8, Orientation.UP, ROW)),
        ("L 9-8 down", Placement(Kind.TRIPLE, 8, 7, Orientation.DOWN, ROW)),
    ],
)
def test_moves_round_trip_through_text(text, move):
    assert parse_move(text) == move and move_text(move) == text and str(move) == text


def test_text_is_read_whatever_the_case_and_spacing():
    assert parse_move("  l  8-9   UP ") == parse_move("L 8-9 up") and parse_move("r 1") == parse_move("R 1")
    assert parse_move(" l b3-c3  Up") == parse_move("L B3-C3 up")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("R 13", "columns on the row of 12 are 1 to 12"),
        ("R 0", "columns on the row of 12 are 1 to 12"),
        ("R D1", "columns on the 3x4 grid are A1 to C4"),
        ("R A5", "columns on the 3x4 grid are A1 to C4"),
        ("D A1-2", "columns on the 3x4 grid are A1 to C4"),
        ("X 3", "a move is written like 'R B2'"),
        ("D A2-A1", "a double is named by its lower column first: D A1-A2"),
        ("D A1-B2", "a double blocker spans two neighbouring columns on the 3x4 grid, got A1-B2"),
        ("L A4-B1 up", "a triple blocker spans two neighbouring columns on the 3x4 grid, got A4-B1"),
        ("R 7 up", "only a triple names an orientation"),
        ("S 3-4", "only doubles and triples name a second column"),
        ("D 4", "only doubles and triples name a second column"),
        ("D 5-4", "a double is named by its lower column first: D 4-5"),
        ("D 4-6", "a double blocker spans two neighbouring columns on the row of 12, got 4-6"),
        ("L 8-8 up", "a triple blocker spans two neighbouring columns"),
        ("L 8-9", "only a triple names an orientation"),
        ("L 8-9 sideways", "a move is written like"),
        ("roll 1-2", "a move is written like"),
        ("", "a move is written like"),
    ],
)
def test_bad_text_is_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        parse_move(text)


def test_move_text_refuses_what_is_not_a_placement():
    with pytest.raises(StateFormatError, match="not a Columns move"):
        move_text("R 7")


# JSON.

PLAYING = [(0, "L 8-9 up", 1), (1, "R 10", 1), (0, "R 7", 1), (1, "D 9-10", 2)]


def states():
    """Empty boards, one in play, one won (every player taking the first legal move), one drawn:
    on the row of 12 (older journals), and on the grid."""
    playing = play(row_game(), *(text for _, text, _ in PLAYING), "S 8")
    won = playout(lambda moves: moves[0], row_game())
    draw_picks = random.Random(403)
    drawn = playout(draw_picks.choice, row_game())
    assert won.winner == 1 and drawn.over and drawn.winner is None
    grid_won = playout(random.Random(1).choice)
    assert grid_won.over and grid_won.board.name == "grid"
    return {
        "new": new_game(2),
        "new on the row": row_game(),
        "playing": playing,
        "won": won,
        "drawn": drawn,
        "grid playing": play(new_game(2), "L B3-C3 up", "R A1", "R B1", "D A1-B1"),
        "grid won": grid_won,
    }


def test_a_state_written_before_the_grid_was_known_is_on_the_row():
    data = state_to_dict(states()["playing"])
    assert data.pop("board") == "row"
    assert from_json(json.dumps(data)) == states()["playing"]


def test_a_piece_named_for_another_board_is_refused():
    data = state_to_dict(states()["grid playing"])
    data["pieces"][1]["piece"] = "R 1"
    with pytest.raises(StateFormatError, match=r"piece 2 \(R 1\) is not on the 3x4 grid: its columns are A1 to C4"):
        from_json(json.dumps(data))
    with pytest.raises(StateFormatError, match="board must be 'grid' or 'row', got 'hex'"):
        from_json(json.dumps({**data, "board": "hex"}))


@pytest.mark.parametrize("name", ["new", "new on the row", "playing", "won", "drawn", "grid playing", "grid won"])
def test_states_round_trip(name):
    state = states()[name]
    assert from_json(to_json(state)) == state


def test_the_json_lists_pieces_in_placing_order():
    data = json.loads(to_json(states()["playing"]))
    assert data["pieces"][:2] == [
        {"player": 0, "piece": "L 8-9 up", "level": 1},
        {"player": 1, "piece": "R 10", "level": 1},
    ]
    assert data["left"][0] == {"R": 11, "S": 2, "D": 3, "L": 2} and data["current"] == 1
    assert data["over"] is False and data["winner"] is None


def changed(state, **fields):
    data = state_to_dict(state)
    data.update(fields)
    return json.dumps(data)


def pieces(*entries):
    """JSON piece entries from (player index, text, level) triples."""
    return [{"player": p, "piece": t, "level": lv} for p, t, lv in entries]


LEFT = [{"R": 11, "S": 3, "D": 3, "L": 2}, {"R": 11, "S": 3, "D": 2, "L": 3}]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "counters"}, "not a Columns state: game is 'counters'"),
        ({"version": 2}, "state format version 2 is not supported"),
        ({"colour": "dark"}, "unknown state field 'colour'"),
        ({"pieces": {}}, "pieces must be a list"),
        ({"pieces": [["R 7"]]}, "piece 1 must be an object with player, piece, level"),
        ({"pieces": pieces((2, "R 7", 1))}, "piece 1 belongs to player index 2"),
        ({"pieces": pieces((0, "R 13", 1))}, "columns on the row of 12 are 1 to 12"),
        ({"pieces": pieces((0, 7, 1))}, "piece 1 must be written like 'R 7'"),
        ({"pieces": pieces((0, "R 7", True))}, "piece 1's level must be a whole number"),
        ({"pieces": pieces((0, "R 7", 6))}, "piece 1 \\(R 7\\) fills column 7 level 6: levels run from 1 to 5"),
        ({"pieces": pieces((0, "L 7-8 up", 5))}, "fills column 7 level 6"),
        ({"pieces": pieces((0, "R 7", 0))}, "fills column 7 level 0"),
        ({"pieces": pieces((0, "D 6-7", 1), (1, "R 7", 1))}, "pieces 1 and 2 both fill column 7 level 1"),
        ({"pieces": pieces((0, "R 7", 2))}, "column 7 has a gap at level 1: no gaps are allowed"),
        ({"pieces": pieces((0, "L 8-9 down", 1))}, "column 9 has a gap at level 1"),
        ({"pieces": pieces(*PLAYING[:3])}, "piece counts are not conserved: player 2 has 0 placed and 2 left of 3 double blockers"),
        ({"left": [{"R": 11, "S": 3, "D": 3, "L": 2}]}, "left must list the pieces left of each of the 2 players"),
        ({"left": [{"R": 11, "S": 3, "D": 3}, LEFT[1]]}, "player 1's pieces left must be an object keyed R, S, D, L"),
        ({"left": [{**LEFT[0], "R": 12, "S": 2}, LEFT[1]]}, "player 1 has 1 placed and 12 left of 12 roundels"),
        ({"pieces": pieces(PLAYING[1], PLAYING[0], *PLAYING[2:])}, "piece 1 \\(R 10 by player 2\\) was placed in player 1's turn"),
        (
            {"pieces": pieces(PLAYING[0], PLAYING[3], PLAYING[2], PLAYING[1])},
            "piece 2 \\(D 9-10 by player 2\\) could not have been placed: it would leave a gap under column 10",
        ),
        ({"current": 1}, "current 1, over False, winner None do not fit the board: it is player 1 to place"),
        ({"over": True, "winner": 0}, "current 0, over True, winner 0 do not fit the board: it is player 1 to place"),
        ({"over": "no"}, "over must be true or false"),
        ({"current": "1"}, "current player must be a whole number"),
    ],
)
def test_impossible_states_are_refused(fields, message):
    base = play(row_game(), *(text for _, text, _ in PLAYING))
    assert state_to_dict(base)["pieces"] == pieces(*PLAYING) and state_to_dict(base)["left"] == LEFT
    with pytest.raises(StateFormatError, match=message):
        from_json(changed(base, **fields))


def test_a_roundel_on_the_opponents_blocker_is_not_a_reachable_state():
    entries = pieces((0, "S 7", 1), (1, "R 8", 1), (0, "R 9", 1), (1, "R 7", 2))
    left = [{"R": 11, "S": 2, "D": 3, "L": 3}, {"R": 10, "S": 3, "D": 3, "L": 3}]
    text = json.dumps({**state_to_dict(row_game()), "pieces": entries, "left": left})
    with pytest.raises(StateFormatError, match="could not have been placed: a roundel may not go on player 1's blocker"):
        from_json(text)


def test_a_piece_listed_before_the_one_under_it_is_refused():
    entries = pieces((0, "R 7", 2), (1, "R 7", 1))
    left = [{"R": 11, "S": 3, "D": 3, "L": 3}, {"R": 11, "S": 3, "D": 3, "L": 3}]
    text = json.dumps({**state_to_dict(row_game()), "pieces": entries, "left": left})
    with pytest.raises(StateFormatError, match="piece 1 \\(R 7 by player 1\\) would rest at level 1, not 2"):
        from_json(text)


def test_pieces_after_the_end_are_refused():
    data = state_to_dict(states()["won"])
    assert data["over"] is True and data["winner"] == 1 and data["left"][0] == {"R": 0, "S": 0, "D": 0, "L": 1}
    data["pieces"].append({"player": 0, "piece": "L 11-12 up", "level": 4})  # fits, but the game is over
    data["left"][0]["L"] = 0
    with pytest.raises(StateFormatError, match="piece 41 .* could not have been placed: the game is over: player 2 won"):
        from_json(json.dumps(data))


def test_a_recorded_game_stuck_by_the_back_to_back_rule():
    """Both players take their first legal move: player 1 ends with a triple in hand that fits nowhere
    (its only level pair, columns 11-12, is the flat top of one triple); player 2 wins on level 4."""
    won = states()["won"]
    assert [p.placement.text() for p in won.pieces][24:] == [
        "S 5", "S 6", "S 6", "S 6", "S 6", "S 6", "D 7-8", "D 9-10", "D 8-9", "D 11-12", "D 10-11", "D 9-10",
        "L 7-8 down", "L 8-9 up", "L 10-9 down", "L 12-11 down",
    ]
    assert won.current == 0 and won.left[0] == (0, 0, 0, 1)
    assert [won.height(c) for c in range(12)] == [5, 5, 5, 5, 5, 5, 3, 5, 5, 5, 3, 3]
    assert score(won) == ((3, 2, 3, 2, 2), (2, 3, 2, 3, 2))  # 2-2 on level 5, 2-3 on level 4


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "state is not valid JSON"),
        ("[]", "a state must be a JSON object"),
        ('{"game": "columns", "game": "columns"}', "names the same key twice"),
        ('{"game": "columns", "version": 1}', "missing or malformed field"),
    ],
)
def test_malformed_json_is_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        from_json(text)
