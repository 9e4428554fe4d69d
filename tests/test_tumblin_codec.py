"""Moves' text forms and states' JSON form: exact round trips; anything the moves do not give is refused."""

import json

import pytest

from engine.errors import StateFormatError
from engine.tumblin import Breed, Die, Flick, Mine, Tally, from_json, move_text, parse_move, to_json
from engine.tumblin.codec import state_to_dict
from tumblin_positions import flick_all, game, play, rounds


# Text forms.


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("flick", Flick()),
        ("flick stayed", Flick(stayed=True)),
        ("breed red", Breed("red")),
        ("mine", Mine()),
        ("tally", Tally()),
        ("tally blue 4@1*1 red 3@1*1 red 4@3", Tally((Die("red", 4, 3), Die("blue", 4, 1, 1), Die("red", 3, 1, 1)))),
        ("tally green 6@0", Tally((Die("green", 6, 0),))),
    ],
)
def test_moves_round_trip_through_text(text, move):
    assert parse_move(text) == move and move_text(move) == text and str(move) == text


def test_text_is_read_whatever_the_case_and_spacing_and_a_tally_in_any_order():
    assert parse_move("  FLICK   Stayed ") == Flick(stayed=True)
    assert parse_move("tally red 4@3  Blue 2@1") == parse_move("tally blue 2@1 red 4@3")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "a move is written like"),
        ("flick hard", "a move is written like"),
        ("breed", "a move is written like"),
        ("roll 1-2", "a move is written like"),
        ("breed red!", "a colour is a short lower-case word"),
        ("tally red", "a tally lists each die as 'colour face@level'"),
        ("tally red 7@3", "a die is written 'face@level'"),
        ("tally red 4@5", "a die is written 'face@level'"),
        ("tally red 4x3", "a die is written 'face@level'"),
        ("tally red 4@3*3", "a die's multiplier card is 1 or 2"),
        ("tally 4@3 red", "a die is written 'face@level'"),
        ("tally mine 4@3", "a colour is a short lower-case word"),
    ],
)
def test_bad_text_is_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        parse_move(text)


def test_move_text_refuses_what_is_not_a_move():
    with pytest.raises(StateFormatError, match="not a Tumblin' Dice move"):
        move_text("flick")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"colour": "red", "face": 0, "level": 1}, "a die's face is 1 to 6"),
        ({"colour": "red", "face": True, "level": 1}, "a die's face is 1 to 6"),
        ({"colour": "red", "face": 4, "level": -1}, "a die's level is 0"),
        ({"colour": "Red", "face": 4, "level": 1}, "a colour is a short lower-case word"),
    ],
)
def test_impossible_dice_are_refused(fields, message):
    with pytest.raises(StateFormatError, match=message):
        Die(**fields)


# JSON.


def states():
    """A new game, one in a round with every card, one awaiting the reading, one over with teams."""
    cards = play(game(3, mines=2, mine_kind="trip", breed_cards=1, multiplier_cards=1, colours=["a", "b", "c"]),
                 "flick", "breed a", "mine", "flick stayed")
    over = rounds(game(4, teams=True, target=20, scoring="add"), "red 6@4 black 6@4", "red 6@4 blue 6@4")
    assert over.over
    return {"new": game(2), "cards": cards, "due": flick_all(rounds(game(2), "red 4@3")), "over": over}


@pytest.mark.parametrize("name", ["new", "cards", "due", "over"])
def test_states_round_trip(name):
    state = states()[name]
    assert from_json(to_json(state)) == state


@pytest.mark.parametrize("key, older", [("order", "round"), ("ties", "round"), ("zero", "stays")])
def test_a_state_written_before_a_reading_was_kept_reads_as_played_then(key, older):
    data = json.loads(to_json(states()["due"]))
    del data["variant"][key]
    assert getattr(from_json(json.dumps(data)).variant, key) == older


def test_the_json_lists_the_variant_and_the_moves_with_what_they_give():
    data = json.loads(to_json(rounds(game(2), "red 4@3 green 1@1")))
    assert data["variant"] == {
        "colours": ["red", "green"], "target": None, "teams": None, "scoring": "multiply",
        "mines": 0, "mine_kind": None, "breed_cards": 0, "multiplier_cards": 0, "order": "total", "ties": "prior",
        "zero": "removed",
    }
    assert data["moves"] == ["flick"] * 8 + ["tally green 1@1 red 4@3"]
    assert (data["round"], data["current"], data["totals"], data["over"], data["winner"]) == (2, 0, [12, 1], False, None)


def changed(state, **fields):
    data = state_to_dict(state)
    data.update(fields)
    return json.dumps(data)


BASE_VARIANT = game(2).variant.settings()


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "columns"}, "not a Tumblin' Dice state: game is 'columns'"),
        ({"version": 2}, "state format version 2 is not supported"),
        ({"colour": "dark"}, "unknown state field 'colour'"),
        ({"variant": {"colours": ["red", "green"]}}, "variant must be an object keyed colours, target"),
        ({"variant": {**BASE_VARIANT, "colours": None}}, "variant must name the players' colours"),
        ({"variant": {**BASE_VARIANT, "colours": ["red"]}}, "Tumblin' Dice is for 2 to 4 players, got 1"),
        ({"variant": {**BASE_VARIANT, "mines": 2}}, "land mines need both a number"),
        ({"moves": "flick"}, "moves must be a list of move texts"),
        ({"moves": ["flick", 3]}, "moves must be a list of move texts"),
        ({"moves": ["flick", "fly"]}, "move 2 \\('fly'\\) could not have been made: a move is written like"),
        ({"moves": ["tally"]}, "move 1 \\('tally'\\) could not have been made: tally: the board is read after the last flick"),
        ({"moves": ["flick", "mine"]}, "move 2 .* there are no land mines in this game"),
        ({"round": 3}, "round is 3, but the moves give 2"),
        ({"current": 0}, "current is 0, but the moves give 1"),
        ({"totals": [0, 0]}, "totals is \\[0, 0\\], but the moves give \\[12, 0\\]"),
        ({"over": 0}, "over is 0, but the moves give False"),
        ({"winner": 1}, "winner is 1, but the moves give None"),
        ({"current": True}, "current is True, but the moves give 1"),
    ],
)
def test_impossible_states_are_refused(fields, message):
    base = play(rounds(game(2), "red 4@3"), "flick")
    with pytest.raises(StateFormatError, match=message):
        from_json(changed(base, **fields))


def test_a_missing_field_is_refused():
    data = state_to_dict(game(2))
    del data["totals"]
    with pytest.raises(StateFormatError, match="missing state field 'totals'"):
        from_json(json.dumps(data))


def test_moves_after_the_end_are_refused():
    data = state_to_dict(states()["over"])
    data["moves"].append("flick")
    with pytest.raises(StateFormatError, match="could not have been made: flick: the game is over: player 1 \\(red\\) and player 3"):
        from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "state is not valid JSON"),
        ("[]", "a state must be a JSON object"),
        ('{"game": "tumblin", "game": "tumblin"}', "names the same key twice"),
        ('{"game": "tumblin", "version": 1}', "missing state field 'variant'"),
    ],
)
def test_malformed_json_is_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        from_json(text)
