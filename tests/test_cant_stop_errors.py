"""Every refusal is a typed error whose message says what and why."""

import pytest

from engine.cant_stop import GAME, HEIGHTS, STOP, Advance, apply, from_json, new_game, parse_move, to_json
from engine.dice import Roll, make_roll, parse_roll
from engine.errors import IllegalMoveError, InvalidRollError, StateFormatError, VariantError
from positions import position


def rolled(state, dice):
    return apply(state, Roll(dice))


def test_wrong_die_value():
    with pytest.raises(InvalidRollError, match=r"dice must be four values from 1 to 6, got \(1, 7, 3, 4\)"):
        make_roll((1, 7, 3, 4), 4)


def test_roll_with_a_value_off_the_die():
    with pytest.raises(InvalidRollError, match=r"dice must be values from 1 to 6, got \(0, 2\)"):
        Roll((0, 2))


def test_wrong_number_of_dice():
    with pytest.raises(InvalidRollError, match=r"dice must be four values from 1 to 6, got \(1, 2, 3\)"):
        apply(position(), Roll((1, 2, 3)))


def test_claimed_column():
    state = rolled(position(claimed={7: 1}), (3, 4, 1, 1))
    with pytest.raises(IllegalMoveError, match="7 is not a choice for roll 1-1-3-4: column 7 is claimed by player 2"):
        apply(state, Advance((7,)))


def test_runner_at_the_top():
    state = rolled(position(runners={2: HEIGHTS[2]}), (1, 1, 3, 4))
    with pytest.raises(IllegalMoveError, match="the runner in column 2 is already at the top"):
        apply(state, Advance((2, 7)))


def test_no_runner_left():
    state = rolled(position(runners={4: 1, 6: 1, 8: 1}), (1, 3, 4, 5))
    with pytest.raises(IllegalMoveError, match="all 3 runners are out, none is left for column 5"):
        apply(state, Advance((5,)))


def test_sum_the_dice_cannot_make():
    state = rolled(position(), (1, 1, 1, 1))
    with pytest.raises(IllegalMoveError, match="no split of the dice makes 12"):
        apply(state, Advance((12,)))


def test_one_sum_when_both_can_be_placed():
    state = rolled(position(), (1, 2, 3, 4))
    with pytest.raises(IllegalMoveError, match="both sums must be used when both can be placed"):
        apply(state, Advance((4,)))


def test_both_sums_with_only_one_runner_left():
    state = rolled(position(runners={3: 1, 6: 1}), (2, 4, 5, 5))
    with pytest.raises(IllegalMoveError, match="only one runner is left, so pick one column"):
        apply(state, Advance((7, 9)))


def test_choice_before_rolling():
    with pytest.raises(IllegalMoveError, match="6\\+8 needs a roll first"):
        apply(position(), Advance((6, 8)))


def test_roll_while_a_choice_is_pending():
    state = rolled(position(), (1, 2, 3, 4))
    with pytest.raises(IllegalMoveError, match="a roll is not due: first choose how to use roll 1-2-3-4"):
        rolled(state, (1, 1, 1, 1))


def test_stop_before_any_runner():
    with pytest.raises(IllegalMoveError, match="cannot stop before placing a runner"):
        apply(position(), STOP)


def test_stop_while_a_choice_is_pending():
    state = rolled(position(), (1, 2, 3, 4))
    with pytest.raises(IllegalMoveError, match="cannot stop now: first choose how to use roll 1-2-3-4"):
        apply(state, STOP)


def test_move_after_the_game_is_over():
    state = apply(position(runners={12: HEIGHTS[12]}, claimed={2: 0, 3: 0}), STOP)
    with pytest.raises(IllegalMoveError, match="the game is over: player 1 won"):
        rolled(state, (1, 2, 3, 4))


@pytest.mark.parametrize(
    ("players", "settings", "message"),
    [
        (1, {}, "Can't Stop is for 2 to 4 players, got 1"),
        (5, {}, "Can't Stop is for 2 to 4 players, got 5"),
        (2, {"columns_to_win": 6}, "columns to win must be 3, 4 or 5, got 6"),
        (4, {"columns_to_win": 4}, "4 players can play to at most 3 columns, got 4"),
        (2, {"jumping": "yes"}, "jumping must be true or false, got 'yes'"),
        (2, {"doubling": True}, "unknown variant setting 'doubling'"),
    ],
)
def test_bad_set_up(players, settings, message):
    with pytest.raises(VariantError, match=message):
        GAME.new_game(players, **settings)


@pytest.mark.parametrize(
    "text", ["", "6+", "6+10+2", "13", "1", "roll", "roll 1-2-x", "stopp", "roll 1-2-3-9"]
)
def test_bad_move_text(text):
    with pytest.raises((StateFormatError, InvalidRollError)):
        parse_move(text)


def test_bad_roll_text_says_the_form():
    with pytest.raises(StateFormatError, match="a roll is written like 'roll 1-4-5-6'"):
        parse_roll("roll one")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(game="columns"), "not a Can't Stop state"),
        (lambda d: d.update(version=99), "state format version 99 is not supported"),
        (lambda d: d.update(players=7), "Can't Stop is for 2 to 4 players, got 7"),
        (lambda d: d["saved"][0].update({"7": 14}), "column has 13 spaces"),
        (lambda d: d["saved"][0].update({"13": 1}), "column '13' does not exist"),
        (lambda d: d.update(runners={"2": 1, "3": 1, "4": 1, "5": 1}), "4 runners are out"),
        (lambda d: d.update(claimed={"7": 1}, runners={"7": 2}), "a runner stands in column 7, which is claimed"),
        (lambda d: d.update(current=3), "current player 3 does not exist"),
        (lambda d: d.update(phase="choose"), "dice must be given exactly when a choice is pending"),
        (lambda d: d.update(phase="dancing"), "malformed"),
        (lambda d: d.pop("turn"), "malformed"),
        (lambda d: d.update(winner=0), "a game with a winner must be over"),
    ],
)
def test_corrupt_state_json(mutate, message):
    import json

    data = json.loads(to_json(new_game(2)))
    mutate(data)
    with pytest.raises(StateFormatError, match=message):
        from_json(json.dumps(data))


def test_state_json_that_is_not_json():
    with pytest.raises(StateFormatError, match="state is not valid JSON"):
        from_json("{players: 2")
