"""The placements as the screen lists them, how NEXT walks them, and the search bot's advice:
what the table's buttons and the bots at the buttons both go by."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from engine.columns import Placement, State, legal_moves
from engine.columns.bots import SearchBot


def listed(state: State, hints: bool) -> tuple[Placement, ...]:
    """The legal placements in the list's order: by kind, then column; with hints, from the
    advisor's pick on (the order wraps round, so NEXT still walks the kinds in turn)."""
    moves = legal_moves(state)
    if not hints:
        return moves
    start = moves.index(advised(state))
    return moves[start:] + moves[:start]


def next_kind(moves: Sequence[Placement], cursor: int) -> int:
    """The index of the first placement after ``cursor`` of another kind of piece (wrapping round)."""
    kind = moves[cursor].kind
    for step in range(1, len(moves)):
        index = (cursor + step) % len(moves)
        if moves[index].kind is not kind:
            return index
    return cursor


@functools.lru_cache(maxsize=64)
def advised(state: State) -> Placement:
    """The search bot's placement, the same for the same position (cached: the screen is redrawn
    for every camera frame, and the hints and the bot seat ask alike)."""
    return SearchBot(random.Random(len(state.pieces))).choose(state)
