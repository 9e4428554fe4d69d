"""Build Columns positions for tests: pieces placed one by one, by any player, each checked by the rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.columns import State, apply, legal_moves, make_variant, new_game, parse_move, why_not
from engine.errors import IllegalMoveError


def row_game() -> State:
    """A new game on the row of 12 (pins named 1..12), the layout older journals were played on."""
    return new_game(2, make_variant(board="row"))


def position(*pieces: str, to_move: int = 1, board: str = "") -> State:
    """A board built from ``"player: move"`` texts (players 1 and 2, in any order, each placement
    legal when made), then player ``to_move`` (1 or 2) to place. The texts name the board (pins
    like "B2" are on the grid, numbers on the row); an empty one is on ``board`` (the grid by default)."""
    if pieces:
        board = parse_move(pieces[0].split(":")[1]).board.name
    state = new_game(2, make_variant(board=board or "grid"))
    for entry in pieces:
        who, text = entry.split(":")
        state = apply(replace(state, current=int(who) - 1, over=False, winner=None), parse_move(text))
    return replace(state, current=to_move - 1, over=False, winner=None)


def play(state: State, *texts: str) -> State:
    """Apply moves given by their text forms, in order."""
    for text in texts:
        state = apply(state, parse_move(text))
    return state


def texts(moves) -> list[str]:
    return [move.text() for move in moves]


def stack(column: int, *players: int, kind: str = "R") -> list[str]:
    """Pieces of one kind filling column ``column`` (named "B2" on the grid, 1..12 on the row) from
    its current top, one per player given."""
    return [f"{player}: {kind} {column}" for player in players]


def playout(pick, state: State | None = None) -> State:
    """A whole game from ``state`` (a new one by default), ``pick(legal_moves)`` choosing each placement."""
    state = state or new_game(2)
    while not state.over:
        state = apply(state, pick(legal_moves(state)))
    return state


def legal(state: State, text: str) -> bool:
    """Whether ``text`` is listed and applies; checks the two agree."""
    listed = parse_move(text) in legal_moves(state)
    assert listed == (why_not(state, parse_move(text)) is None)
    return listed


def refused(state: State, text: str, message: str) -> None:
    """``text`` is not listed, and applying it raises the message (a regular expression)."""
    assert parse_move(text) not in legal_moves(state)
    with pytest.raises(IllegalMoveError, match=message):
        play(state, text)
