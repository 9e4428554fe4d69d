"""States to JSON and back, the board included; anything that is not a reachable state is refused."""

import json

import pytest

from engine.counters import Phase, from_json, new_game, to_json
from engine.counters.codec import state_to_dict
from engine.errors import StateFormatError
from counters_positions import plain_board, play, position


def states():
    """One state of every phase, on a board with specials."""
    board = plain_board(**{"4": {"rockets": [1], "pink_stars": [5]}, "S": {"blue_stars": [3]}})
    handicap = new_game(3)
    throw = play(new_game(2), "handicap 2")
    choose = play(throw, "roll 1-2-4-4-6")
    kept = play(choose, "keep 4-4")
    rocket = play(position(dice=(4, 4, 1, 2, 6), board=board), "take pair 4")
    near = {"1": 8, "2": 8, "3": 8, "4": 8, "5": 7, "6": 1, "S": 1}
    over = play(position(squares={0: near}, dice=(5, 5, 1, 2, 6)), "take pair 5")
    return {"handicap": handicap, "throw": throw, "choose": choose, "kept": kept, "rocket": rocket, "over": over}


@pytest.mark.parametrize("name", ["handicap", "throw", "choose", "kept", "rocket", "over"])
def test_every_phase_round_trips(name):
    state = states()[name]
    assert state.phase.value == {"kept": "throw"}.get(name, name)
    assert from_json(to_json(state)) == state


def test_a_state_saved_before_the_handicap_reading_was_kept_reads_as_played_then():
    import json

    data = json.loads(to_json(states()["throw"]))
    del data["handicap"]
    assert from_json(json.dumps(data)).handicap == "own"


def test_the_saved_game_keeps_its_board():
    state = states()["rocket"]
    data = json.loads(to_json(state))
    assert data["board"]["columns"]["4"]["rockets"] == [1]
    assert data["positions"] == [{"4": 1}, {}]
    assert from_json(to_json(state)).board == state.board


def changed(state, **fields):
    data = state_to_dict(state)
    data.update(fields)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("name", "fields", "message"),
    [
        ("throw", {"game": "cant-stop"}, "not a Get Your Counters to the Top state"),
        ("throw", {"version": 2}, "state format version 2 is not supported"),
        ("throw", {"colour": "red"}, "unknown state field 'colour'"),
        ("throw", {"positions": [{}]}, "for 2 to 4 players, got 1"),
        ("throw", {"positions": [{"7": 1}, {}]}, "player 1 has a counter in column '7'"),
        ("choose", {"positions": [{"4": 12}, {"2": 1}]}, "player 1's counter in column 4 is on square 12, but the column runs from 0 to 11"),
        ("throw", {"positions": [{"4": 0}, {}]}, "bottom row are left out"),
        ("throw", {"positions": [{"4": True}, {}]}, "must be a whole number, got True"),
        ("throw", {"current": 2}, "current player 2 does not exist"),
        ("throw", {"turn": 2}, "turn 2 cannot be player 1's"),
        ("throw", {"phase": "dance"}, "invalid state"),
        ("throw", {"dice": [1, 2, 3, 4, 5]}, "5 dice on the table cannot be in the throw phase"),
        ("choose", {"dice": [1, 2, 3, 4]}, "4 dice on the table cannot be in the choose phase"),
        ("choose", {"dice": [5, 4, 3, 2, 1]}, "dice must be listed in order"),
        ("choose", {"dice": [1, 2, 3, 4, 7]}, "dice must be a list of values from 1 to 6"),
        ("choose", {"throws": 4}, "4 throws cannot be in the choose phase"),
        ("throw", {"kept": [4, 4]}, "2 kept dice cannot be in the throw phase"),
        ("rocket", {"rockets": 3}, "3 rocket squares due cannot be in the rocket phase"),
        ("handicap", {"positions": [{"1": 1}, {}, {}]}, "during the handicap player 1 has 0 counter"),
        ("handicap", {"current": 0}, "the handicap is moved by players 2 to 3"),
        ("over", {"winner": 1}, "a finished game needs exactly one winner"),
        ("over", {"phase": "throw", "winner": None, "throws": 0, "turn": 1}, "a game with a player at the goal must be over"),
        ("throw", {"board": {"columns": {}}}, "invalid state: the board lacks column 1"),
        ("throw", {"handicap": "sideways"}, "handicap must be one of apart, own"),
    ],
)
def test_impossible_states_are_refused(name, fields, message):
    with pytest.raises(StateFormatError, match=message):
        from_json(changed(states()[name], **fields))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "state is not valid JSON"),
        ("[]", "a state must be a JSON object"),
        ('{"game": "counters", "game": "counters"}', "names the same key twice"),
        ('{"game": "counters", "version": 1}', "missing or malformed field"),
    ],
)
def test_malformed_json_is_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        from_json(text)


def test_an_over_state_has_no_rockets_and_a_throw_state_no_dice():
    assert states()["over"].phase is Phase.OVER and states()["over"].rockets == 0
    assert states()["kept"].dice == () and states()["kept"].kept == (4, 4)
