"""Thousands of random games through the public API, checking the rules' invariants at every step."""

from __future__ import annotations

import itertools
import random
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cant_stop import (
    COLUMNS,
    HEIGHTS,
    MAX_RUNNERS,
    STOP,
    Advance,
    Phase,
    State,
    Variant,
    apply,
    bust_probability,
    choices,
    from_json,
    legal_moves,
    new_game,
    parse_move,
    to_json,
)
from engine.cant_stop.variant import MAX_COLUMNS_TO_WIN
from engine.dice import Roll
from engine.errors import IllegalMoveError
from property_runs import runs
from rules_oracle import oracle_choices

ORDERED_THROWS = [Roll(t) for t in itertools.product(range(1, 7), repeat=4)]


@st.composite
def set_ups(draw):
    players = draw(st.integers(2, 4))
    columns = draw(st.integers(3, MAX_COLUMNS_TO_WIN[players]))
    rule = draw(st.sampled_from(["plain", "jumping", "forced"]))
    variant = Variant(columns, jumping=rule == "jumping", forced_move=rule == "forced")
    return players, variant


def random_game(players: int, variant: Variant, rng: random.Random):
    """Yield (before, event, after) for a whole game of random but legal play.

    Hypothesis draws the seed of ``rng`` (a whole game draws too much data to shrink usefully);
    a failure names the seed, which replays the same game.
    """
    stop_chance = rng.uniform(0.1, 0.6)
    state = new_game(players, variant)
    while state.phase is not Phase.OVER:
        options = legal_moves(state)
        if state.phase is Phase.CHOOSE:
            event = rng.choice(options)
        elif options and rng.random() < stop_chance:
            event = STOP
        else:
            event = Roll(tuple(rng.randint(1, 6) for _ in range(4)))
        after = apply(state, event)
        yield state, event, after
        state = after


def check_invariants(before: State, event, after: State) -> None:
    target = after.variant.columns_to_win
    assert len(after.runners) <= MAX_RUNNERS
    for player in range(after.players):
        for column in COLUMNS:
            assert 0 <= after.saved_space(player, column) <= HEIGHTS[column]
    for column, space in after.runners:
        assert after.saved_space(after.current, column) < space <= HEIGHTS[column]
        assert after.owner(column) is None
    for column in COLUMNS:
        owner = before.owner(column)
        if owner is not None:
            assert after.owner(column) == owner, "a claimed column stays claimed"
        owner = after.owner(column)
        if owner is not None:
            assert after.saved_space(owner, column) == HEIGHTS[column]
            for player in range(after.players):
                if player != owner:
                    assert after.saved_space(player, column) == 0
    if isinstance(event, Roll) and after.phase is Phase.ROLL:  # a bust
        assert after.saved == before.saved and after.runners == ()
        assert after.current == (before.current + 1) % before.players
        assert not choices(before, event)
    reached = [p for p in range(after.players) if len(after.claimed_by(p)) >= target]
    assert (after.phase is Phase.OVER) == bool(reached)
    if reached:
        assert reached == [after.winner] and event == STOP and after.winner == before.current


@settings(max_examples=runs(400), deadline=None, derandomize=True)
@given(set_up=set_ups(), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(set_up, seed):
    players, variant = set_up
    steps = 0
    for before, event, after in random_game(players, variant, random.Random(seed)):
        frozen = to_json(before)
        check_invariants(before, event, after)
        assert to_json(before) == frozen, "apply never mutates its input"
        steps += 1
    assert after.phase is Phase.OVER and steps > 0


@settings(max_examples=runs(150), deadline=None, derandomize=True)
@given(set_up=set_ups(), seed=st.integers(0, 2**32 - 1))
def test_text_and_json_forms_round_trip(set_up, seed):
    for before, event, after in random_game(*set_up, random.Random(seed)):
        assert parse_move(event.text()) == event
        assert from_json(to_json(after)) == after


@settings(max_examples=runs(15), deadline=None, derandomize=True)
@given(set_up=set_ups(), seed=st.integers(0, 2**32 - 1))
def test_bust_odds_are_the_fraction_of_throws_with_no_choice(set_up, seed):
    rng = random.Random(seed)
    for before, _, _ in random_game(*set_up, rng):
        if before.phase is Phase.ROLL and rng.random() < 0.2:
            busting = sum(not choices(before, roll) for roll in ORDERED_THROWS)
            assert bust_probability(before) == Fraction(busting, len(ORDERED_THROWS))


@settings(max_examples=runs(150), deadline=None, derandomize=True)
@given(set_up=set_ups(), seed=st.integers(0, 2**32 - 1))
def test_choices_and_their_effects_match_a_naive_reading_of_the_rules(set_up, seed):
    candidates = [Advance((a,)) for a in COLUMNS] + [
        Advance((a, b)) for a, b in itertools.combinations_with_replacement(COLUMNS, 2)
    ]
    rng = random.Random(seed)
    for before, _, _ in random_game(*set_up, rng):
        if before.phase is not Phase.CHOOSE:
            continue
        expected = oracle_choices(before, before.dice.dice)
        assert {m.text() for m in legal_moves(before)} == set(expected)
        for text, runners in expected.items():
            assert dict(apply(before, parse_move(text)).runners) == runners
        move = rng.choice(candidates)
        if move.text() not in expected:
            with pytest.raises(IllegalMoveError, match=f"{re.escape(move.text())} is not a choice"):
                apply(before, move)
