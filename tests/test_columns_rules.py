"""Every rule of the Columns text, each "not allowed" picture and each reading of the geometry, as recorded positions."""

from dataclasses import replace

import pytest

from engine import Game
from engine.columns import (
    GAME,
    STOCK,
    Cell,
    Kind,
    Part,
    apply,
    cell,
    dice_due,
    game_over,
    grid,
    legal_moves,
    new_game,
    pieces_left,
    score,
    winner,
)
from engine.dice import Roll
from engine.errors import IllegalMoveError, VariantError
from columns_positions import legal, play, position, refused, row_game, stack, texts


def cells_of(state, piece_id: int) -> list[tuple[int, int]]:
    """(column, level) named from 1 of every cell of a piece, as the board shows it."""
    return sorted(
        (c + 1, level + 1)
        for c, column in enumerate(grid(state))
        for level, found in enumerate(column)
        if found and found.piece == piece_id
    )


# Set-up and the contract.


def test_two_players_only_and_no_dice():
    assert isinstance(GAME, Game) and GAME.name == "columns"
    for players in (1, 3, True, "2"):
        with pytest.raises(VariantError, match="Columns is for 2 players"):
            GAME.new_game(players)
    with pytest.raises(VariantError, match="board must be 'grid' or 'row', got 'big'"):
        GAME.new_game(2, board="big")
    with pytest.raises(VariantError, match="unknown variant setting 'size': Columns has only 'board'"):
        GAME.new_game(2, size=3)
    state = GAME.new_game(2)
    assert GAME.current_player(state) == 0 and GAME.winner(state) is None and dice_due(state) == 0
    assert pieces_left(state, 1) == {Kind.ROUNDEL: 12, Kind.SINGLE: 3, Kind.DOUBLE: 3, Kind.TRIPLE: 3}
    with pytest.raises(IllegalMoveError, match="not a Columns move"):
        apply(state, Roll((3, 4)))


def test_the_empty_grid_offers_12_roundels_12_singles_17_doubles_and_34_ls():
    """"a matrix of 3x4 wooden pins": a double or an L lies across any two pins side by side,
    along a row (9 pairs) or across the rows (8 pairs)."""
    moves = texts(legal_moves(new_game(2)))
    kinds = [move.split()[0] for move in moves]
    assert [kinds.count(kind) for kind in "RSDL"] == [12, 12, 17, 34]
    assert moves[:5] == ["R A1", "R A2", "R A3", "R A4", "R B1"] and moves[11] == "R C4"
    assert moves[24:27] == ["D A1-A2", "D A1-B1", "D A2-A3"] and "D A4-B1" not in moves and "D A1-B2" not in moves
    assert moves[41:45] == ["L A1-A2 up", "L A1-B1 up", "L A2-A1 up", "L A2-A3 up"]
    assert all(move.endswith("up") for move in moves[41:])  # turned down needs a piece under its thin end


def test_the_empty_row_lists_every_placement_on_the_row_grouped_by_kind():
    moves = texts(legal_moves(row_game()))
    assert moves[:3] == ["R 1", "R 2", "R 3"] and moves[12:14] == ["S 1", "S 2"]
    assert moves[24:26] == ["D 1-2", "D 2-3"] and moves[35:39] == ["L 1-2 up", "L 2-1 up", "L 2-3 up", "L 3-2 up"]
    assert len(moves) == 12 + 12 + 11 + 22  # a triple turned down needs a piece under its thin end
    assert all(move.endswith("up") for move in moves[35:])


def test_players_alternate_and_the_stock_runs_down():
    state = play(row_game(), "R 7", "D 4-5")
    assert state.current == 0
    assert pieces_left(state, 0)[Kind.ROUNDEL] == 11 and pieces_left(state, 1)[Kind.DOUBLE] == 2


def test_a_piece_type_used_up_is_refused():
    state = replace(row_game(), left=((12, 3, 0, 3), STOCK))
    refused(state, "D 4-5", "player 1 has no double blockers left")
    assert not any(m.kind is Kind.DOUBLE for m in legal_moves(state))


# Roundels.


def test_a_roundel_starts_a_column_or_goes_on_any_roundel():
    state = position("1: R 7", "2: R 8")
    assert legal(state, "R 3") and legal(state, "R 7") and legal(state, "R 8")
    assert cells_of(play(state, "R 8"), 2) == [(8, 2)]


def test_a_roundel_goes_on_its_own_players_blockers():
    state = position("1: S 2", "1: D 4-5", "1: L 8-9 up")
    assert all(legal(state, f"R {c}") for c in (2, 4, 5, 8, 9))


@pytest.mark.parametrize(
    ("pieces", "columns"),
    [
        (["2: S 7"], [7]),
        (["2: D 4-5"], [4, 5]),  # either end of a double
        (["2: L 8-9 up"], [8, 9]),  # the thick end and the thin end
        (["1: R 9", "2: L 8-9 down"], [8, 9]),
    ],
)
def test_not_allowed_a_roundel_on_the_opponents_blocker(pieces, columns):
    state = position(*pieces)
    for column in columns:
        refused(state, f"R {column}", f"R {column}: a roundel may not go on player 2's blocker in column {column}")
    player_2 = replace(state, current=1)
    assert all(legal(player_2, f"R {column}") for column in columns)


# Single blockers.


def test_a_single_blocker_goes_anywhere():
    state = position("2: S 7", "2: D 4-5", "1: R 2", "2: R 3")
    assert all(legal(state, f"S {column}") for column in (1, 2, 3, 4, 5, 7))


# Double blockers.


def test_a_double_on_the_board_or_on_two_pieces_side_by_side_on_one_level():
    assert cells_of(play(row_game(), "D 4-5"), 0) == [(4, 1), (5, 1)]
    state = position("1: R 4", "2: S 5")  # any players, any kinds
    assert legal(state, "D 4-5")
    assert cells_of(play(state, "D 4-5"), 2) == [(4, 2), (5, 2)]


def test_a_double_offset_by_one_column_on_another_double_is_allowed():
    state = position("2: D 4-5", "1: R 6")
    assert legal(state, "D 5-6") and not legal(state, "D 4-5")


@pytest.mark.parametrize(
    ("pieces", "move", "gap", "message"),
    [
        (["1: R 5"], "D 4-5", 4, "column 4 is empty, column 5 is filled to level 1"),
        (["1: R 4", "1: R 4", "2: R 5"], "D 4-5", 5, "column 4 is filled to level 2, column 5 is filled to level 1"),
    ],
)
def test_not_allowed_a_double_with_a_gap_under_one_end(pieces, move, gap, message):
    refused(position(*pieces), move, f"{move}: it would leave a gap under column {gap} \\({message}\\)")


def test_not_allowed_a_double_back_to_back_on_a_double():
    state = position("2: D 4-5")
    refused(
        state,
        "D 4-5",
        "D 4-5: both ends would rest on one piece, player 2's double blocker in columns 4-5: "
        "blockers placed exactly back-to-back are not allowed",
    )


def test_a_double_may_cap_two_columns_at_level_5():
    state = position(*stack(4, 1, 2, 1, 2), *stack(5, 2, 1, 2, 1))
    assert legal(state, "D 4-5") and cells_of(play(state, "D 4-5"), 8) == [(4, 5), (5, 5)]


# Triple blockers (the L).


def test_a_triple_flat_on_the_board_thick_end_up():
    state = play(row_game(), "L 8-9 up")
    assert cells_of(state, 0) == [(8, 1), (8, 2), (9, 1)]
    assert [cell(state, 7, level).part for level in (0, 1)] == [Part.THICK_LOW, Part.THICK_HIGH]
    assert cell(state, 8, 0) == Cell(piece=0, player=0, kind=Kind.TRIPLE, part=Part.THIN)
    assert cell(state, 8, 1) is None


def test_a_triple_thick_end_down_on_the_board_and_thin_end_on_a_piece():
    state = position("2: R 9")
    assert legal(state, "L 8-9 down")
    assert cells_of(play(state, "L 8-9 down"), 1) == [(8, 1), (8, 2), (9, 2)]


def test_a_triple_on_two_pieces_on_the_same_level():
    state = position("1: R 8", "2: S 9")
    assert legal(state, "L 9-8 up") and cells_of(play(state, "L 9-8 up"), 2) == [(8, 2), (9, 2), (9, 3)]


def test_a_triple_on_two_pieces_on_different_levels():
    state = position("1: R 8", "2: R 9", "2: R 9")
    assert legal(state, "L 8-9 down") and not legal(state, "L 8-9 up")
    assert cells_of(play(state, "L 8-9 down"), 3) == [(8, 2), (8, 3), (9, 3)]


@pytest.mark.parametrize(
    ("pieces", "move", "gap", "why"),
    [
        (["1: R 9"], "L 8-9 up", 8, "turned up, a triple needs its two columns filled to the same level"),
        ([], "L 8-9 down", 9, "turned down, a triple needs its thin column filled one level higher"),
        (["1: R 8"], "L 8-9 down", 9, "turned down"),
        (["1: R 9", "1: R 9"], "L 8-9 down", 8, "turned down"),  # thin column two levels higher
    ],
)
def test_not_allowed_a_triple_with_a_gap_under_one_end(pieces, move, gap, why):
    refused(position(*pieces, board="row"), move, f"{move}: it would leave a gap under column {gap} .*: {why}")


@pytest.mark.parametrize(
    ("pieces", "move", "under"),
    [
        (["2: D 8-9"], "L 8-9 up", "player 2's double blocker in columns 8-9"),
        (["2: L 8-9 up"], "L 9-8 down", "player 2's triple blocker in columns 8-9"),  # two Ls nested
        (["1: L 4-5 up"], "L 5-4 down", "player 1's triple blocker in columns 4-5"),
        (["1: R 9", "2: L 8-9 down"], "D 8-9", "player 2's triple blocker in columns 8-9"),  # on its flat top
        (["1: R 9", "2: L 8-9 down"], "L 9-8 up", "player 2's triple blocker in columns 8-9"),
    ],
)
def test_not_allowed_both_ends_on_one_piece_back_to_back(pieces, move, under):
    refused(
        position(*pieces),
        move,
        f"{move}: both ends would rest on one piece, {under}: blockers placed exactly back-to-back are not allowed",
    )


def test_a_triple_on_one_end_of_a_double_and_a_roundel_is_allowed():
    state = position("2: D 7-8", "1: R 9")
    assert legal(state, "L 8-9 up") and legal(state, "L 9-8 up") and not legal(state, "L 7-8 up")
    higher = position("2: D 7-8", "1: R 9", "1: R 9")
    assert legal(higher, "L 8-9 down") and not legal(higher, "L 8-9 up")


# Nothing above level 5.


def test_nothing_goes_on_a_full_column():
    state = position(*stack(7, 1, 2, 1, 2, 1))
    for move in ("R 7", "S 7"):
        refused(state, move, f"{move}: column 7 is full: nothing may go above level 5")
    refused(position(*stack(7, 1, 2, 1, 2, 1), *stack(8, 1, 2, 1, 2)), "D 7-8", "column 7 is full")


def test_a_triple_whose_thick_end_would_reach_level_6_is_refused():
    state = position(*stack(8, 1, 2, 1, 2), *stack(9, 2, 1, 2, 1), "1: R 10", *stack(10, 2, 1, 2, 1))
    refused(state, "L 8-9 up", "L 8-9 up: its thick end would reach level 6: nothing may go above level 5")
    refused(state, "L 9-10 down", "column 10 is full")
    assert legal(state, "D 8-9") and legal(state, "R 8")


def test_a_triple_turned_down_reaches_level_5_with_both_ends():
    state = position(*stack(8, 1, 2, 1), *stack(9, 2, 1, 2, 1))
    assert legal(state, "L 8-9 down")
    after = play(state, "L 8-9 down")
    assert cells_of(after, 7) == [(8, 4), (8, 5), (9, 5)]
    assert [after.height(c) for c in (7, 8)] == [5, 5]


# The end of play and the score.


def finished(state, last: str = "S 12"):
    """Player 2 left without pieces; player 1's ``last`` placement (off the score) ends the game."""
    return play(replace(state, left=(state.left[0], (0, 0, 0, 0)), current=0), last)


def test_play_ends_when_the_player_to_move_has_nothing_left():
    state = finished(position("1: R 1"))
    assert game_over(state) and state.current == 1 and legal_moves(state) == ()
    assert winner(state) == 0  # a roundel on level 1 against none
    with pytest.raises(IllegalMoveError, match="the game is over: player 1 won"):
        play(replace(state, current=0), "R 2")


def test_play_ends_when_no_piece_left_fits():
    odd = [f"1: R {c}" for c in (1, 3, 5, 7, 9)]  # no two neighbouring columns stand level
    state = replace(position(*odd), left=(STOCK, (0, 0, 1, 0)), current=0)
    assert not game_over(play(state, "R 12"))  # a double still fits on 11-12
    over = play(state, "R 11")
    assert game_over(over) and legal_moves(over) == () and over.current == 1
    assert winner(over) == 0


def test_level_5_decides():
    capped = [*stack(1, 2, 2, 2, 2, 1), *stack(2, 2, 2, 2, 2)]
    state = finished(position(*capped))
    assert score(state) == ((0, 0, 0, 0, 1), (2, 2, 2, 2, 0))
    assert winner(state) == 0


def test_a_tie_at_level_5_goes_to_level_4_then_down():
    even = [*stack(1, 1, 1, 1, 2, 1), *stack(2, 2, 2, 2, 1, 2)]  # one cap each, one level-4 roundel each
    assert winner(finished(position(*even))) is None
    assert game_over(finished(position(*even)))
    state = finished(position(*even, *stack(3, 1, 1, 1, 2)))
    assert score(state) == ((2, 2, 2, 1, 1), (1, 1, 1, 2, 1))
    assert winner(state) == 1  # level 4: two roundels to one; the lower levels do not matter
    assert winner(finished(position(*even, "1: R 3"))) == 0  # equal down to level 2, then level 1


def test_blockers_never_score():
    state = finished(position(*stack(1, 2, 2, 2, 2), "1: S 1", *stack(2, 1, 1, 1, 1), "2: S 2"))
    assert score(state)[0][4] == score(state)[1][4] == 0
    assert winner(state) is None


def test_a_draw_is_over_without_a_winner():
    state = finished(row_game())
    assert game_over(state) and winner(state) is None and GAME.winner(state) is None
    with pytest.raises(IllegalMoveError, match="the game is over: a draw"):
        play(replace(state, current=0), "R 1")
