"""Columns bots: only legal placements, the same game for the same seed, the search's tactics
(a winning cap, exact endgames) and its strength against the simple bots."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import numpy as np
import pytest

from engine.columns import STOCK, State, legal_moves, new_game, parse_move, place
from engine.columns.bots import GreedyBot, RandomBot, SearchBot, play
from bot_checks import Checked
from columns_positions import position, stack


def test_every_bot_only_places_legal_pieces():
    for game in range(6):
        seats = [
            RandomBot(random.Random(game)),
            RandomBot(np.random.default_rng(game)),
            GreedyBot(random.Random(game)),
            SearchBot(random.Random(game), nodes=300),
        ]
        first, second = random.Random(game).sample(seats, 2)
        checked = [Checked(first, legal_moves), Checked(second, legal_moves)]
        final = play(checked)
        assert final.over and all(c.decisions > 0 for c in checked)


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: RandomBot(random.Random(seed)),
        lambda seed: RandomBot(np.random.default_rng(seed)),
        lambda seed: GreedyBot(random.Random(seed)),
        lambda seed: SearchBot(random.Random(seed), nodes=300),
    ],
    ids=["random", "random-numpy", "greedy", "search"],
)
def test_a_seed_decides_the_whole_game(make):
    games = [play([make(seed), RandomBot(random.Random(seed + 100))]) for seed in (1, 1, 2)]
    assert games[0] == games[1]
    assert games[0].pieces != games[2].pieces


def finished_with(state: State) -> State:
    """``state`` with player 2's pieces used up: player 1's move is the last of the game."""
    return replace(state, left=(STOCK, (0, 0, 0, 0)), current=0)


def test_search_and_greedy_cap_the_column_that_wins():
    # Level 5 even; player 2 is ahead on level 4 unless player 1 caps column 7 now.
    state = finished_with(position(*stack(1, 1, 1, 1, 2, 1), *stack(2, 2, 2, 2, 1, 2), *stack(7, 2, 1, 2, 2)))
    assert [place(state, parse_move("R 7")).winner, place(state, parse_move("R 3")).winner] == [0, 1]
    assert SearchBot(nodes=500).choose(state) == parse_move("R 7")
    assert GreedyBot().choose(state) == parse_move("R 7")


def test_search_reserves_a_column_with_a_blocker_rather_than_handing_over_a_cap():
    # Column 7 stands at level 3. A roundel there lets player 2 cap it; player 1's own single on it
    # leaves level 5 to player 1 alone, as player 2 has nothing but roundels left.
    board = position(*stack(7, 2, 1, 2))
    state = replace(board, left=((3, 1, 0, 0), (5, 0, 0, 0)), current=0)
    move = SearchBot(nodes=3000).choose(state)
    assert move == parse_move("S 7")


@cache
def solve(state: State) -> int:
    """The exact result for the player to move with best play by both: 1 win, 0 draw, -1 loss."""
    if state.over:
        return 0 if state.winner is None else (1 if state.winner == state.current else -1)
    return max(-solve(place(state, move)) for move in legal_moves(state))


def endgames(count: int, pieces_left: int) -> list[State]:
    """Positions of random games with at most ``pieces_left`` pieces left in both hands."""
    found = []
    rng = random.Random(7)
    while len(found) < count:
        state = new_game(2)
        while not state.over and sum(map(sum, state.left)) > pieces_left:
            state = place(state, rng.choice(legal_moves(state)))
        if not state.over and len(legal_moves(state)) > 1:
            found.append(state)
    return found


def test_search_plays_small_endgames_exactly():
    for state in endgames(12, 6):
        move = SearchBot(nodes=20_000, max_depth=8).choose(state)
        assert -solve(place(state, move)) == solve(state), [p.placement.text() for p in state.pieces]


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("opponent", [RandomBot, GreedyBot])
def test_search_beats_the_simple_bots(seat, opponent):
    wins = 0
    for game in range(4):
        seats = [opponent(random.Random(game))]
        seats.insert(seat, SearchBot(random.Random(game), nodes=1000))
        wins += play(seats).winner == seat
    assert wins == 4
