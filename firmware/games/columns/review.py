"""Columns reviewed: every placement against the search bot's, in roundels on level 5 as its
search values them (the same node budget and depth it plays with; each placement then searched
that deep with the whole window, so the two worths compared are exact at that depth)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.columns import Placement, State
from engine.columns.rules import legal_moves, place
from engine.columns.search import WIN, Search, ordered
from firmware.core.reviewing import EveryVariantModelled, Judge, Judged, Thresholds
from firmware.games.columns.web import move_words, placement_words

HUNDREDTHS = 100  # the search counts hundredths of a roundel on level 5
DECIDED = 20.0
"""Roundels a won (lost) game counts: more than any open board is worth (twelve columns to cap),
so throwing a win away is the costliest decision there is, and the totals stay readable."""


def roundels(value: int) -> float:
    """The search's value in roundels; a decided game as DECIDED either way."""
    return math.copysign(DECIDED, value) if abs(value) >= WIN // 2 else value / HUNDREDTHS


class ColumnsReview(EveryVariantModelled):
    """Every placement against the search bot's, in roundels."""

    unit = "roundels"
    worth = "search's worth (roundels)"
    # A roundel capped on level 5 is 1; a column at level 4 left to the opponent 0.9; a blocker
    # spent needlessly 0.06-0.08. A quarter roundel is a slip, half a mistake, a whole one (a column
    # given away) a blunder.
    thresholds = Thresholds(inaccuracy=0.25, mistake=0.5, blunder=1.0)

    def judge(self) -> Judge:
        def judged(before: State, move: Placement, left_lying: bool, then: object) -> Judged | None:
            moves = legal_moves(before)
            if len(moves) < 2:
                return None
            search = Search()
            advised = search.best(before, ordered(before, moves))
            depth, best = search.depth, search.value
            if depth == 0:  # not even one ply within the budget: every placement one ply deep
                depth = 1
                worths = [search.worth(before, m, 1) for m in moves]
                at = max(range(len(moves)), key=worths.__getitem__)  # the first of equals, as the search
                advised, best = moves[at], worths[at]
            played = best if move == advised else search.worth(before, move, depth)
            return Judged(advised, roundels(played), roundels(best))

        return judged

    def words(self, before: State, move: Placement, names: Sequence[str], advised: bool) -> str:
        if not advised:
            return move_words(before, move, place(before, move), names)
        return f"places {placement_words(move)}"


REVIEW = ColumnsReview()
