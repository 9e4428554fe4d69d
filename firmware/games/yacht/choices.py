"""The decisions as the list shows them (boxes best first, then keeps) and the advisor's view of
them: what the table's buttons, its screens and the bots at the buttons all go by."""

from __future__ import annotations

import functools

from engine.yacht import Keep, Score, State, legal_moves, points_for
from engine.yacht.advisor import Advisor, Choice, best
from engine.yacht.moves import Move
from firmware.games.yacht.advisor_table import advisor_table


def points_now(state: State, move: Score) -> int:
    """What the dice on the table write in the move's box."""
    return points_for(state.card, move.box, state.dice)


def listed(state: State) -> tuple[Move, ...]:
    """The decisions in the list's order: the boxes the dice may go in, most points first (ties in
    card order), then the keeps (with hints the list opens on the advisor's pick: :func:`opened_on`)."""
    moves = legal_moves(state)
    scores = sorted((m for m in moves if isinstance(m, Score)), key=lambda m: -points_now(state, m))
    return (*scores, *(m for m in moves if isinstance(m, Keep)))


@functools.cache
def advisor() -> Advisor:
    """The optimal advisor, on the shipped table (checked; see :mod:`advisor_table`)."""
    return Advisor(advisor_table())


@functools.lru_cache(maxsize=64)
def advice(state: State) -> tuple[Choice, ...]:
    """Every decision with its expected final score (cached: the screen is redrawn for every camera frame)."""
    return advisor().choices(state)


def advised(state: State) -> Move:
    """The advisor's pick: the decision with the highest expected final score."""
    return best(advice(state)).move


def expected(state: State, move: Move) -> float:
    """The expected final score of ``move`` and the rest played at best."""
    return next(choice.expected for choice in advice(state) if choice.move == move)
