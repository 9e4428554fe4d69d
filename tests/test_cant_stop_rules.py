"""Stopping, claiming, winning, and each variant rule."""

import pytest

from engine.errors import IllegalMoveError
from engine.cant_stop import HEIGHTS, STOP, Advance, Phase, Variant, apply, choices, legal_moves, new_game
from engine.dice import Roll
from engine.errors import VariantError
from positions import position


def chosen(state, dice, move):
    """Roll ``dice`` and use them as ``move``."""
    return apply(apply(state, Roll(dice)), Advance(move))


def test_stop_banks_runners_and_passes_the_turn():
    state = chosen(position(), (1, 2, 3, 4), (4, 6))
    after = apply(state, STOP)
    assert after.saved_space(0, 4) == 1 and after.saved_space(0, 6) == 1
    assert after.runners == () and after.current == 1 and after.turn == 2
    assert after.phase is Phase.ROLL


def test_bust_loses_runners_keeps_saved_pieces():
    state = position(runners={6: 4, 7: 3, 8: 2}, saved={0: {6: 2, 7: 1}})
    after = apply(state, Roll((1, 1, 1, 1)))  # 2+2 only: no runner left for column 2
    assert after.current == 1 and after.runners == ()
    assert after.saved == state.saved


def test_topping_a_column_and_stopping_claims_it_and_removes_other_pieces():
    state = position(
        players=3, runners={3: HEIGHTS[3]}, saved={1: {3: 2, 7: 4}, 2: {3: 1}}
    )
    after = apply(state, STOP)
    assert after.owner(3) == 0
    assert after.saved_space(1, 3) == 0 and after.saved_space(2, 3) == 0
    assert after.saved_space(1, 7) == 4  # other columns untouched
    assert after.saved_space(0, 3) == HEIGHTS[3]


def test_runner_at_the_top_does_not_claim_until_stop():
    state = position(runners={6: HEIGHTS[6], 3: 1, 8: 1})
    after = apply(state, Roll((2, 4, 5, 5)))  # 6+10, 7+9: 6 is topped, others need runners
    assert after.owner(6) is None and after.runners == ()


def test_game_ends_the_moment_the_target_is_reached():
    state = position(runners={12: HEIGHTS[12]}, claimed={2: 0, 3: 0}, saved={0: {2: 3, 3: 5}})
    after = apply(state, STOP)
    assert after.phase is Phase.OVER and after.winner == 0
    assert legal_moves(after) == ()


def test_more_columns_to_win_keeps_the_game_going():
    variant = Variant(columns_to_win=4)
    state = position(runners={12: HEIGHTS[12]}, claimed={2: 0, 3: 0}, variant=variant)
    after = apply(state, STOP)
    assert after.phase is Phase.ROLL and after.current == 1 and after.owner(12) == 0


@pytest.mark.parametrize(("players", "cap"), [(2, 5), (3, 4), (4, 3)])
def test_columns_to_win_is_capped_by_players(players, cap):
    new_game(players, Variant(columns_to_win=cap))
    if cap < 5:
        with pytest.raises(VariantError, match=f"{players} players can play to at most {cap} columns"):
            new_game(players, Variant(columns_to_win=cap + 1))


def test_jumping_skips_occupied_spaces():
    variant = Variant(jumping=True)
    state = position(saved={1: {7: 1}, 2: {7: 2}}, players=3, variant=variant)
    after = chosen(state, (3, 4, 3, 4), (7,) * 2)
    # first step: 1 and 2 are taken -> 3; second step -> 4
    assert after.runner_space(7) == 4


def test_jumping_goes_to_the_top_when_nothing_below_is_open():
    variant = Variant(jumping=True)
    state = position(runners={2: 1}, saved={1: {2: 2}}, variant=variant)
    after = chosen(state, (1, 1, 2, 2), (2, 4))
    assert after.runner_space(2) == HEIGHTS[2]


def test_without_jumping_a_runner_shares_the_space():
    state = position(saved={1: {7: 1}})
    after = chosen(state, (1, 6, 2, 2), (4, 7))
    assert after.runner_space(7) == 1


def test_forced_move_forbids_stopping_on_an_occupied_space():
    variant = Variant(forced_move=True)
    state = position(runners={7: 3}, saved={1: {7: 3}}, variant=variant)
    assert legal_moves(state) == ()
    with pytest.raises(IllegalMoveError, match="Forced Move: the runner in column 7 stands on player 2's piece"):
        apply(state, STOP)
    moved = chosen(state, (3, 4, 1, 1), (2, 7))
    assert legal_moves(moved) == (STOP,)


def test_forced_move_still_busts():
    variant = Variant(forced_move=True)
    state = position(runners={6: 2, 7: 3, 8: 2}, saved={1: {7: 3}}, variant=variant)
    after = apply(state, Roll((1, 1, 1, 1)))
    assert after.current == 1 and after.runners == ()


def test_jumping_and_forced_move_together_are_refused():
    with pytest.raises(VariantError, match="Jumping and Forced Move cannot be combined"):
        new_game(2, Variant(jumping=True, forced_move=True))


def test_jumping_applies_to_the_second_step_of_a_double():
    variant = Variant(jumping=True)
    state = position(saved={1: {7: 2}}, variant=variant)
    after = chosen(state, (3, 4, 3, 4), (7, 7))
    assert after.runner_space(7) == 3  # 1, then over the piece on 2 to 3


def test_jumping_double_that_reaches_the_top_on_its_first_step_is_one_step():
    variant = Variant(jumping=True)
    state = position(runners={2: 1}, saved={1: {2: 2}}, variant=variant)
    assert [c.text() for c in choices(state, Roll((1, 1, 1, 1)))] == ["2"]
    with pytest.raises(IllegalMoveError, match="the first step reaches the top of column 2, so use 2 once"):
        chosen(state, (1, 1, 1, 1), (2, 2))


def test_forced_move_allows_stopping_below_or_above_an_opponent():
    variant = Variant(forced_move=True)
    below = position(runners={7: 3}, saved={1: {7: 4}}, variant=variant)
    above = position(runners={7: 5}, saved={1: {7: 4}}, variant=variant)
    assert legal_moves(below) == (STOP,) and legal_moves(above) == (STOP,)


def test_forced_move_checks_every_opponent():
    variant = Variant(forced_move=True)
    state = position(players=4, runners={5: 2, 9: 4}, saved={1: {5: 1}, 3: {9: 4}}, variant=variant)
    with pytest.raises(IllegalMoveError, match="column 9 stands on player 4's piece"):
        apply(state, STOP)


@pytest.mark.parametrize(
    ("players", "current", "runners", "claimed", "dice", "expected"),
    [
        # 3 players: player 3 to move, columns claimed by players 1 and 2.
        (3, 2, {4: 1}, {6: 0, 8: 1}, (2, 2, 4, 4), {"4"}),
        (3, 2, {}, {6: 0, 8: 1}, (1, 3, 5, 6), {"4+11", "9", "7"}),
        # 4 players: three runners out, one of them at the top.
        (4, 3, {3: 5, 5: 2, 11: 1}, {7: 2}, (1, 2, 3, 6), {"5"}),
        (4, 3, {3: 5, 5: 2, 11: 1}, {7: 2}, (1, 2, 5, 6), {"11"}),
    ],
)
def test_recorded_choices_with_more_players(players, current, runners, claimed, dice, expected):
    saved = {owner: {column: HEIGHTS[column]} for column, owner in claimed.items()}
    state = position(players=players, current=current, runners=runners, claimed=claimed, saved=saved)
    assert {c.text() for c in choices(state, Roll(dice))} == expected
