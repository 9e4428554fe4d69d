"""Over a thousand random games through the public contract, checking the rules' invariants at every step.

The examples are derandomized: every run plays the same games, so a failure always comes back.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.counters import GAME, Handicap, Keep, Phase, Rocket, State, Take
from engine.counters.board import default_board
from engine.dice import Roll
from counters_positions import plain_board
from property_runs import runs

BOARDS = (
    default_board(),
    plain_board(**{"1": {"rockets": [2, 5], "blue_stars": [3]}, "4": {"pink_stars": [1, 4], "rockets": [2]}}),
)


def random_game(players: int, board, rng: random.Random):
    """Yield (before, event, after) for a whole game of random but legal play.

    Hypothesis draws the seed of ``rng``; a failure names the seed, which replays the same game.
    """
    take_chance = rng.uniform(0.3, 0.9)
    state = GAME.new_game(players, board=board)
    while GAME.winner(state) is None:
        due = GAME.dice_due(state)
        if due:
            event = Roll(tuple(rng.randint(1, 6) for _ in range(due)))
        else:
            moves = GAME.legal_moves(state)
            takes = [m for m in moves if not isinstance(m, Keep)]
            event = rng.choice(takes if takes and rng.random() < take_chance else moves)
        after = GAME.apply(state, event)
        yield state, event, after
        state = after


def reached_goal(state: State, player: int) -> bool:
    """The end condition read straight from the rules text."""
    row = state.positions[player]
    in_space = sum(square >= spec.space_from for spec, square in zip(state.board.columns, row))
    return in_space >= (5 if state.players == 2 else 4) and 0 not in row


def expected_positions(before: State, event) -> list[list[int]]:
    """Where every counter should stand after ``event``, by a plain reading of the rules."""
    rows = [list(row) for row in before.positions]
    me, board = before.current, before.board
    if isinstance(event, Handicap):
        for column in event.columns:
            rows[me][column] += 1
    elif isinstance(event, Rocket):
        rows[me][event.column] += 1
    elif isinstance(event, Take):
        for group in event.option.groups:
            column, spec = group.column, board[group.column]
            start = rows[me][column]
            rows[me][column] = min(spec.top, start + group.squares)
            if rows[me][column] - start >= 2:
                for other, row in enumerate(rows):
                    if other != me and row[column] > 0 and not spec.is_star(row[column]):
                        row[column] -= 1
    return rows


def check_step(before: State, event, after: State) -> None:
    for row in after.positions:
        assert all(0 <= square <= spec.top for spec, square in zip(after.board.columns, row))
    assert [list(row) for row in after.positions] == expected_positions(before, event)
    assert after.board is before.board
    won = [p for p in range(after.players) if reached_goal(after, p)]
    assert (after.phase is Phase.OVER) == bool(won)
    if won:
        assert won == [before.current] == [after.winner] and isinstance(event, (Take, Rocket))
        return
    if isinstance(event, (Take, Rocket)) and after.phase is Phase.ROCKET:
        assert after.current == before.current and after.rockets >= 1
    elif before.phase is Phase.ROCKET and event == GAME.parse_move("pass"):  # a rocket's square left unused
        assert after.positions == before.positions
        assert (after.rockets, after.current) == (before.rockets - 1, before.current) if before.rockets > 1 else (
            after.current == (before.current + 1) % before.players and after.phase is Phase.THROW)
    elif isinstance(event, Take) or event == GAME.parse_move("pass"):
        assert after.current == (before.current + 1) % before.players and after.throws == 0
        assert after.phase is Phase.THROW and GAME.dice_due(after) == 5
    if isinstance(event, Roll):
        assert after.throws == before.throws + 1 <= 3 and after.dice == tuple(sorted(before.kept + event.dice))
    if after.phase is Phase.CHOOSE:
        assert any(isinstance(m, Keep) for m in GAME.legal_moves(after)) == (after.throws < 3)


@settings(max_examples=runs(700), deadline=None, derandomize=True)
@given(players=st.integers(2, 4), board=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_rules(players, board, seed):
    steps = 0
    for before, event, after in random_game(players, board, random.Random(seed)):
        check_step(before, event, after)
        steps += 1
    assert after.phase is Phase.OVER and steps > players


@settings(max_examples=60, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), board=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1))
def test_text_and_json_forms_round_trip(players, board, seed):
    for before, event, after in random_game(players, board, random.Random(seed)):
        assert GAME.parse_move(GAME.move_text(event)) == event
        assert GAME.from_json(GAME.to_json(after)) == after


@settings(max_examples=60, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), board=st.sampled_from(BOARDS), seed=st.integers(0, 2**32 - 1))
def test_every_legal_move_applies(players, board, seed):
    rng = random.Random(seed)
    for before, _, _ in random_game(players, board, rng):
        if rng.random() < 0.1:
            for move in GAME.legal_moves(before):
                GAME.apply(before, move)
