"""Get Your Counters to the Top reviewed: every handicap, keep, option taken, pass and rocket's
square against the advisor's, in the chance of winning its race model gives (the squares each
player still needs and the next cool-down's harm, the opponent moving next). The advisor plays
any board and either reading of the handicap, so every game is reviewed whole."""

from __future__ import annotations

from collections.abc import Sequence

from engine.counters import COLUMN_NAMES, Handicap, Keep, Phase, Rocket, State, Take, apply, legal_moves
from engine.counters.advisor import WIN, Advisor
from engine.counters.moves import Move
from engine.dice import Roll
from engine.keeps import keeps_read
from firmware.core.reviewing import EveryVariantModelled, Judge, Judged, Thresholds
from firmware.drawing.facts import and_list
from firmware.games.counters.web import climbs, move_words

PERCENT_OF_WIN = 100.0 / WIN  # the advisor's worths are WIN times a chance of winning


class CountersReview(EveryVariantModelled):
    """Every decision against the advisor's, in percentage points of the chance to win."""

    unit = "% chance to win"
    worth = "chance of winning (%)"
    # As Can't Stop's: a race of many small decisions, most close (see the README).
    thresholds = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0)

    def judge(self) -> Judge:
        advisor = Advisor()  # keeps a turn's tables for its later throws

        def judged(before: State, move: Move | Roll, left_lying: bool, then: Roll | None) -> Judged | None:
            if isinstance(move, Roll) or len(legal_moves(before)) < 2:
                return None
            worths = advisor.worths(before)
            advised, most = max(worths, key=lambda found: found[1])  # the first of equals, as it plays
            read_as = keeps_read(before.dice, move, then) if left_lying else (move,)
            played, worth = max(((option, worth) for option, worth in worths if option in read_as), key=lambda found: found[1])
            return Judged(advised, PERCENT_OF_WIN * worth, PERCENT_OF_WIN * most, played)

        return judged

    def words(self, before: State, move: Move, names: Sequence[str], advised: bool) -> str:
        if not advised:
            return move_words(before, move, apply(before, move), names)
        if isinstance(move, Keep):
            return f"keeps {and_list([str(die) for die in move.dice]) or 'none'}"
        if isinstance(move, Take):
            return f"moves {climbs(move)}"
        if isinstance(move, Rocket):
            return f"uses the rocket on {COLUMN_NAMES[move.column]}"
        if isinstance(move, Handicap):
            return f"puts the handicap on {and_list([COLUMN_NAMES[c] for c in move.columns])}"
        return "leaves the rocket unused" if before.phase is Phase.ROCKET else "passes"


REVIEW = CountersReview()
