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
    "text",
    ["", "6+", "6+10+2", "13", "1", "07", "\u0667", "roll", "roll 1-2-x", "stopp", "roll 1-2-3-9", "roll  1-2"],
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
        (
            lambda d: d.update(claimed={"7": 1}, runners={"7": 2}, saved=[{}, {"7": 13}]),
            "a runner stands in column 7, which is claimed",
        ),
        (lambda d: d.update(claimed={"7": 0}), "column 7 is claimed by player 1, whose piece is not on its top"),
        (lambda d: d.update(runners={"07": 2}), "column '07' must be written as a plain number"),
        (lambda d: d.update(phase="choose", dice="roll 1-2-3"), r"dice must be four values from 1 to 6, got \(1, 2, 3\)"),
        (
            lambda d: d.update(runners={"2": 1, "3": 1, "12": 1}, phase="choose", dice="roll 3-3-4-4"),
            "roll 3-3-4-4 allows no choice here: it would have busted",
        ),
        (lambda d: d.update(current=1), "turn 1 cannot be player 2's"),
        (
            lambda d: d.update(variant={"columns_to_win": 3, "jumping": True, "forced_move": False},
                               runners={"7": 3}, saved=[{}, {"7": 3}]),
            "with Jumping no runner can stand on another player's piece",
        ),
        (
            lambda d: d.update(variant={"columns_to_win": 3.0, "jumping": False, "forced_move": False}),
            "columns to win must be 3, 4 or 5, got 3.0",
        ),
        (
            lambda d: d.update(phase="over", winner=0, current=1, turn=2, claimed={"2": 0, "3": 0, "12": 0},
                               saved=[{"2": 3, "3": 5, "12": 3}, {}]),
            "a finished game needs exactly one winner, the player who moved last",
        ),
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


@pytest.mark.parametrize("text", ["{players: 2", "[" * 100_000])
def test_state_json_that_is_not_json(text):
    with pytest.raises(StateFormatError, match="state is not valid JSON"):
        from_json(text)


def test_state_json_with_a_repeated_key():
    text = to_json(new_game(2)).replace('"runners":{}', '"runners":{"7":2,"7":5}')
    with pytest.raises(StateFormatError, match="names the same key twice"):
        from_json(text)


def test_double_refused_when_its_first_step_reaches_the_top():
    state = rolled(position(runners={7: HEIGHTS[7] - 1}), (3, 4, 3, 4))
    with pytest.raises(IllegalMoveError, match="the first step reaches the top of column 7, so use 7 once"):
        apply(state, Advance((7, 7)))


@pytest.mark.parametrize("dice", [(), (1.0, 2), (True, 2)])
def test_roll_values_must_be_whole_die_faces(dice):
    with pytest.raises(InvalidRollError, match="dice must be values from 1 to 6"):
        Roll(dice)


@pytest.mark.parametrize("columns", [(7.0,), ("7",), (True,)])
def test_advance_columns_must_be_whole_numbers(columns):
    with pytest.raises(StateFormatError, match="an advance names one or two columns from 2 to 12"):
        Advance(columns)
