"""Recorded positions with their exact sets of legal choices (the engine's perft)."""

import pytest

from engine.cant_stop import HEIGHTS, Phase, apply, choices, legal_moves, parse_move
from engine.dice import Roll
from positions import position


def choice_texts(state, dice):
    return {c.text() for c in choices(state, Roll(dice))}


@pytest.mark.parametrize(
    ("runners", "claimed", "dice", "expected"),
    [
        ({3: 1, 6: 1}, {}, (2, 4, 5, 5), {"6+10", "7", "9"}),
        ({6: 1, 10: 1}, {}, (2, 4, 3, 5), {"6+8", "5", "9", "7+7"}),
        ({}, {}, (1, 2, 3, 4), {"3+7", "4+6", "5+5"}),
        ({2: HEIGHTS[2], 3: 1, 8: 1}, {}, (1, 1, 3, 3), set()),
        ({}, {6: 1, 8: 1, 10: 1}, (2, 4, 4, 6), set()),
        ({}, {7: 1}, (3, 4, 3, 4), {"6+8"}),
        # Both sums on existing runners must both be used; two new columns with one runner left
        # are two separate choices.
        ({4: 1, 9: 1}, {}, (1, 3, 4, 5), {"4+9", "5", "8", "6", "7"}),
        # Three runners out: only their columns can move.
        ({4: 1, 7: 2, 9: 1}, {}, (1, 3, 4, 5), {"4+9", "7"}),
        # A runner at the top of one sum: the other sum is used alone.
        ({5: HEIGHTS[5], 9: 1}, {}, (1, 4, 4, 5), {"9", "6", "8"}),
    ],
)
def test_recorded_choices(runners, claimed, dice, expected):
    assert choice_texts(position(runners=runners, claimed=claimed), dice) == expected


def test_double_below_the_top_moves_one_step_to_the_top():
    state = position(runners={2: HEIGHTS[2] - 1})
    assert choice_texts(state, (1, 1, 1, 1)) == {"2"}
    chosen = apply(apply(state, Roll((1, 1, 1, 1))), parse_move("2"))
    assert chosen.runner_space(2) == HEIGHTS[2]


def test_double_moves_one_runner_two_spaces():
    state = apply(position(), Roll((3, 4, 3, 4)))
    state = apply(state, parse_move("7+7"))
    assert state.runners == ((7, 2),)


def test_new_runner_starts_above_own_saved_piece():
    state = apply(position(saved={0: {9: 3}}), Roll((4, 5, 1, 1)))
    state = apply(state, parse_move("2+9"))
    assert state.runner_space(9) == 4 and state.runner_space(2) == 1


def test_legal_moves_follow_the_phase():
    state = position()
    assert legal_moves(state) == ()  # the turn starts with a roll; nothing to stop
    state = apply(state, Roll((1, 2, 3, 4)))
    assert state.phase is Phase.CHOOSE
    assert {m.text() for m in legal_moves(state)} == {"3+7", "4+6", "5+5"}
    state = apply(state, parse_move("4+6"))
    assert [m.text() for m in legal_moves(state)] == ["stop"]
