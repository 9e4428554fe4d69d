"""Build Columns positions for tests: pieces placed one by one, by any player, each checked by the rules."""

from __future__ import annotations

from dataclasses import replace

from engine.columns import State, apply, legal_moves, new_game, parse_move


def position(*pieces: str, to_move: int = 1) -> State:
    """A board built from ``"player: move"`` texts (players 1 and 2, in any order, each placement
    legal when made), then player ``to_move`` (1 or 2) to place."""
    state = new_game(2)
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
    """Pieces of one kind filling column ``column`` (named 1..12) from its current top, one per player given."""
    return [f"{player}: {kind} {column}" for player in players]


def playout(pick, state: State | None = None) -> State:
    """A whole game from ``state`` (a new one by default), ``pick(legal_moves)`` choosing each placement."""
    state = state or new_game(2)
    while not state.over:
        state = apply(state, pick(legal_moves(state)))
    return state
