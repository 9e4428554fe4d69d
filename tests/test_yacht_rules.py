"""Yacht's rules on hand-made positions: every box, the joker rule, the bonuses, the end, the forms."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, IllegalMoveError, Roll, StateFormatError, VariantError
from engine.yacht import (
    BOXES,
    GAME,
    Box,
    Keep,
    Phase,
    Score,
    State,
    allowed_boxes,
    apply,
    box_score,
    from_json,
    legal_moves,
    new_game,
    parse_move,
    points_for,
    to_json,
    total,
    winners,
)
from engine.yacht.boxes import EMPTY_CARD
from property_runs import runs
import yacht_oracle

GAMES = runs(400)
"""Random games checked against the oracle in the suite (about 10 s); ``PROPERTY_RUNS=13`` checks
5,200, and ``python -m tests.yacht_oracle 5000`` checks 5,000 seeds in a row (the benchmark runs)."""


def card(**boxes: int):
    """A card with these boxes filled (``full_house=25``), the others empty."""
    named = {name.replace("_", "-"): points for name, points in boxes.items()}
    return tuple(named.get(box.value) for box in BOXES)


def choosing(dice: tuple[int, ...], rolls: int = 3, extra: int = 0, **boxes: int) -> State:
    """A solitaire state with ``dice`` on the table after roll ``rolls``."""
    return State(cards=(card(**boxes),), extra_yachts=(extra,), phase=Phase.CHOOSE, dice=tuple(sorted(dice)), rolls=rolls)


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((3, 3, 3, 5, 6), {"ones": 0, "threes": 9, "fives": 5, "sixes": 6, "three-of-a-kind": 20, "four-of-a-kind": 0,
                           "full-house": 0, "small-straight": 0, "large-straight": 0, "yacht": 0, "chance": 20}),
        ((2, 2, 2, 2, 5), {"twos": 8, "three-of-a-kind": 13, "four-of-a-kind": 13, "full-house": 0, "chance": 13}),
        ((2, 2, 5, 5, 5), {"twos": 4, "fives": 15, "three-of-a-kind": 19, "four-of-a-kind": 0, "full-house": 25}),
        ((1, 2, 3, 4, 6), {"small-straight": 30, "large-straight": 0, "chance": 16}),
        ((1, 3, 4, 5, 6), {"small-straight": 30, "large-straight": 0}),
        ((2, 3, 4, 4, 5), {"small-straight": 30, "large-straight": 0, "fours": 8}),
        ((1, 2, 3, 5, 6), {"small-straight": 0, "large-straight": 0}),
        ((1, 2, 3, 4, 5), {"small-straight": 30, "large-straight": 40}),
        ((2, 3, 4, 5, 6), {"small-straight": 30, "large-straight": 40, "chance": 20}),
        ((6, 6, 6, 6, 6), {"sixes": 30, "three-of-a-kind": 30, "four-of-a-kind": 30, "full-house": 0,
                           "small-straight": 0, "large-straight": 0, "yacht": 50, "chance": 30}),
    ],
)
def test_every_box_scores_as_the_table_says(dice, expected):
    for name, points in expected.items():
        assert box_score(Box(name), dice) == points, name
        assert yacht_oracle.natural(name, list(dice)) == points, name


def test_five_of_a_kind_is_no_full_house_until_it_is_a_joker():
    assert box_score(Box.FULL_HOUSE, (4,) * 5) == 0
    assert box_score(Box.FULL_HOUSE, (4,) * 5, joker=True) == 25
    assert box_score(Box.SMALL_STRAIGHT, (4,) * 5, joker=True) == 30
    assert box_score(Box.LARGE_STRAIGHT, (4,) * 5, joker=True) == 40
    assert box_score(Box.CHANCE, (4,) * 5, joker=True) == 20


def test_with_the_yacht_box_empty_five_of_a_kind_goes_anywhere():
    state = choosing((5,) * 5)
    assert allowed_boxes(state.card, state.dice) == BOXES
    assert points_for(state.card, Box.FULL_HOUSE, state.dice) == 0
    after = apply(state, Score(Box.YACHT))
    assert after.cards[0][Box.YACHT.index] == 50 and after.extra_yachts == (0,)


def test_joker_part_one_the_upper_box_of_the_face_is_forced():
    state = choosing((3,) * 5, yacht=50)
    assert legal_moves(state) == (Score(Box.THREES),)
    with pytest.raises(IllegalMoveError, match="five 3s with the Yacht box filled are a joker: they must be scored in threes"):
        apply(state, Score(Box.FULL_HOUSE))
    after = apply(state, Score(Box.THREES))
    assert after.cards[0][Box.THREES.index] == 15 and after.extra_yachts == (1,)
    assert total(after, 0) == 50 + 15 + 100


def test_joker_part_two_any_empty_lower_box_with_the_joker_scores():
    state = choosing((3,) * 5, rolls=1, yacht=50, threes=9, full_house=25)
    scores = [m for m in legal_moves(state) if isinstance(m, Score)]
    assert [m.box for m in scores] == [Box.THREE_OF_A_KIND, Box.FOUR_OF_A_KIND, Box.SMALL_STRAIGHT,
                                      Box.LARGE_STRAIGHT, Box.CHANCE]
    assert [points_for(state.card, m.box, state.dice) for m in scores] == [15, 15, 30, 40, 15]
    assert Keep((3, 3, 3)) in legal_moves(state)  # keeping on is allowed before the third roll
    with pytest.raises(IllegalMoveError, match="they go in an empty lower box while there is one"):
        apply(state, Score(Box.ONES))
    after = apply(state, Score(Box.LARGE_STRAIGHT))
    assert after.cards[0][Box.LARGE_STRAIGHT.index] == 40 and after.extra_yachts == (1,)


def test_joker_part_three_zero_in_an_empty_upper_box():
    lower = {name: 0 for name in ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight",
                                  "large_straight", "chance")}
    state = choosing((3,) * 5, yacht=50, threes=9, **lower)
    assert [m.box for m in legal_moves(state)] == [Box.ONES, Box.TWOS, Box.FOURS, Box.FIVES, Box.SIXES]
    after = apply(state, Score(Box.SIXES))
    assert after.cards[0][Box.SIXES.index] == 0 and after.extra_yachts == (1,)


def test_a_yacht_box_holding_zero_gives_the_joker_but_no_bonus():
    state = choosing((2,) * 5, yacht=0, twos=4)
    assert Score(Box.FULL_HOUSE) in legal_moves(state)
    after = apply(state, Score(Box.FULL_HOUSE))
    assert after.cards[0][Box.FULL_HOUSE.index] == 25 and after.extra_yachts == (0,)
    assert total(after, 0) == 29


def test_the_upper_bonus_is_earned_at_exactly_63():
    just = choosing((6, 6, 6, 1, 2), ones=3, twos=6, threes=9, fours=12, fives=15)  # 45 + 18 = 63
    assert total(apply(just, Score(Box.SIXES)), 0) == 63 + 35
    short = choosing((6, 6, 1, 1, 2), ones=3, twos=6, threes=9, fours=12, fives=20)  # 50 + 12 = 62
    assert total(apply(short, Score(Box.SIXES)), 0) == 62
    joker = choosing((6,) * 5, yacht=50, ones=3, twos=6, threes=9, fours=12, fives=15)  # 45 + 30, an extra Yacht
    assert total(apply(joker, Score(Box.SIXES)), 0) == 75 + 35 + 50 + 100


def test_a_turn_through_the_contract():
    assert isinstance(GAME, Game) and GAME.name == "yacht"
    state = GAME.new_game(2)
    assert GAME.current_player(state) == 0 and GAME.dice_due(state) == 5 and GAME.legal_moves(state) == ()
    state = GAME.apply(state, GAME.parse_move("roll 6-3-3-5-1"))
    assert GAME.dice_due(state) == 0 and state.dice == (1, 3, 3, 5, 6)
    moves = [GAME.move_text(m) for m in GAME.legal_moves(state)]
    assert moves[:2] == ["score ones", "score twos"] and "keep 3-3-5" in moves and "keep none" in moves
    state = GAME.apply(state, GAME.parse_move("keep 3-3-5"))
    assert GAME.dice_due(state) == 2
    with pytest.raises(Exception, match="dice must be two values"):
        GAME.apply(state, Roll((3, 3, 3)))
    state = GAME.apply(state, GAME.parse_move("roll 3-5"))
    assert state.dice == (3, 3, 3, 5, 5) and state.rolls == 2
    state = GAME.apply(state, GAME.parse_move("keep none"))
    assert GAME.dice_due(state) == 5
    state = GAME.apply(state, GAME.parse_move("roll 2-2-2-2-2"))
    assert not any(isinstance(m, Keep) for m in GAME.legal_moves(state)), "no fourth roll"
    with pytest.raises(IllegalMoveError, match="there is no fourth roll"):
        GAME.apply(state, Keep((2, 2)))
    state = GAME.apply(state, GAME.parse_move("score yacht"))
    assert GAME.current_player(state) == 1 and GAME.dice_due(state) == 5 and GAME.winner(state) is None
    assert GAME.from_json(GAME.to_json(state)) == state


@pytest.mark.parametrize(
    ("state", "move", "message"),
    [
        (choosing((1, 2, 3, 4, 5), chance=20), Score(Box.CHANCE), "the chance box already holds 20"),
        (choosing((1, 2, 3, 4, 5), rolls=1), Keep((6,)), r"keep 6: no 6s on the table \(1-2-3-4-5\)"),
        (choosing((1, 2, 3, 4, 5), rolls=1), Roll((1,) * 5), "roll 1-1-1-1-1 is not possible now: first keep dice or score"),
        (new_game(1), Score(Box.CHANCE), "score chance is not possible now: 5 dice are due: roll them"),
    ],
)
def test_illegal_moves_say_why(state, move, message):
    with pytest.raises(IllegalMoveError, match=message):
        apply(state, move)


def test_set_ups():
    assert new_game(1).players == 1 and new_game(7).players == 7
    for players in (0, -1, True, "2"):
        with pytest.raises(VariantError, match="Yacht is for 1 or more players"):
            new_game(players)
    with pytest.raises(VariantError, match="unknown variant setting 'jokers'"):
        GAME.new_game(2, jokers="free")


def finished(*cards: tuple, extra: tuple[int, ...] | None = None) -> State:
    state = State(cards=cards, extra_yachts=extra or (0,) * len(cards), current=len(cards) - 1, phase=Phase.OVER)
    totals = [total(state, p) for p in range(len(cards))]
    leaders = [p for p, t in enumerate(totals) if t == max(totals)]
    return replace(state, winner=leaders[0] if len(leaders) == 1 else None)


FULL = (3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0, 50, 22)  # upper 63 (+35), lower 147: 245


def test_equal_totals_share_the_win():
    low = FULL[:-1] + (21,)
    state = finished(FULL, low, FULL)
    assert winners(state) == (0, 2) and GAME.winner(state) is None
    assert from_json(to_json(state)) == state
    with pytest.raises(IllegalMoveError, match="equal totals of 245 share the win"):
        apply(state, Roll((1,) * 5))
    alone = finished(low, FULL)
    assert winners(alone) == (1,) and GAME.winner(alone) == 1


def test_the_last_box_ends_the_game():
    state = choosing((6, 6, 6, 6, 6), **{b.value.replace("-", "_"): p for b, p in zip(BOXES, FULL) if b is not Box.SIXES})
    after = apply(state, Score(Box.SIXES))
    assert after.phase is Phase.OVER and GAME.winner(after) == 0 and after.extra_yachts == (1,)
    assert total(after, 0) == 45 + 30 + 35 + 147 + 100  # the sixes forced by the joker, with the extra Yacht
    assert GAME.dice_due(after) == 0 and legal_moves(after) == ()


@pytest.mark.parametrize(
    "text",
    ["keep 3-3-5", "keep none", "keep 1-2-3-4", "score full-house", "score three-of-a-kind", "score yacht",
     "roll 1-3-3-5-6", "roll 4"],
)
def test_move_texts_round_trip(text):
    move = parse_move(text)
    assert GAME.move_text(move) == text and parse_move(GAME.move_text(move)) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keep 1-2-3-4-5", "keep at most 4 dice: keeping all 5 throws nothing"),
        ("keep 7", "a move is written like"),
        ("score", "a move is written like"),
        ("score house", "no box 'house': the boxes are ones, twos"),
        ("yacht", "a move is written like"),
    ],
)
def test_bad_move_texts_are_refused(text, message):
    with pytest.raises(StateFormatError, match=message):
        parse_move(text)


def test_texts_are_read_forgivingly_but_written_one_way():
    assert parse_move("  KEEP 5-3-3 ") == Keep((3, 3, 5))
    assert parse_move("Score  Full-House") == Score(Box.FULL_HOUSE)


def valid_dict() -> dict:
    return json.loads(to_json(choosing((1, 2, 2, 5, 6), rolls=2, yacht=50, extra=1, chance=22)))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "counters"}, "not a Yacht state"),
        ({"version": 2}, "state format version 2 is not supported"),
        ({"colour": "red"}, "unknown state field 'colour'"),
        ({"cards": []}, "Yacht is for 1 or more players"),
        ({"cards": [{"chance": 22, "yacht": 50, "house": 25}]}, "has a box 'house', which does not exist"),
        ({"cards": [{"chance": 4, "yacht": 50}]}, "chance holds 4, which no roll scores there"),
        ({"cards": [{"chance": 22, "yacht": 45}]}, "yacht holds 45"),
        ({"cards": [{"chance": 22, "yacht": 50, "threes": 4}]}, "threes holds 4"),
        ({"cards": [{"chance": 22, "yacht": 0}]}, "extra Yacht"),
        ({"extra_yachts": [2]}, "extra Yacht"),
        ({"extra_yachts": [1, 0]}, "1 cards but 2 extra-Yacht counts"),
        ({"phase": "thinking"}, "invalid state"),
        ({"dice": [1, 2, 2, 5]}, "4 dice on the table cannot be in the choose phase"),
        ({"dice": [2, 1, 2, 5, 6]}, "must be listed in order"),
        ({"dice": [1, 2, 2, 5, 7]}, "values from 1 to 6"),
        ({"rolls": 4}, "4 rolls cannot be in the choose phase"),
        ({"rolls": True}, "rolls must be a whole number"),
        ({"current": 1}, "current player 1 does not exist"),
        ({"winner": 0}, "a game still being played has no winner"),
        ({"phase": "over", "dice": [], "rolls": 0}, "the cards hold"),
    ],
)
def test_invalid_json_is_refused(change, message):
    data = valid_dict()
    data.update(change)
    with pytest.raises(StateFormatError, match=message):
        from_json(json.dumps(data))


def test_turn_order_is_checked_in_json():
    data = json.loads(to_json(apply(apply(new_game(2), Roll((1, 2, 3, 4, 6))), Score(Box.CHANCE))))
    assert from_json(json.dumps(data)).current == 1
    data["current"] = 0
    with pytest.raises(StateFormatError, match="the cards hold"):
        from_json(json.dumps(data))


def test_json_round_trips_an_empty_and_a_finished_game():
    for state in (new_game(3), finished(FULL, FULL[:-1] + (5,), extra=(1, 0))):
        assert from_json(to_json(state)) == state
    assert EMPTY_CARD == (None,) * 13


@settings(max_examples=GAMES, derandomize=True, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_agree_with_an_independent_reading_of_the_rules(seed):
    """Every step of a random 1..3-player game: legal moves, scores, bonuses, dice due, the text and
    JSON forms, the end (13 boxes each, the upper bonus exactly at 63, the winners) as the oracle reads them."""
    yacht_oracle.check_game(seed)
