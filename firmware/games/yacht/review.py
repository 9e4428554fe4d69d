"""Yacht's decisions reviewed: every keep and every box against the optimal advisor, in expected
final points. Exact: the advisor's table gives each choice's expected final score under the best
play after it, so its own games give away 0.0 points."""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import Roll
from engine.keeps import keeps_read
from engine.yacht import GAME, Phase, Score, State
from engine.yacht.advisor import Advisor, best
from engine.yacht.moves import Move
from firmware.core.reviewing import EveryVariantModelled, Judge, Judged, Thresholds
from firmware.games.five_dice import dice_text
from firmware.games.yacht.advisor_table import advisor_table
from firmware.games.yacht.web import box_words, move_words


class YachtReview(EveryVariantModelled):
    """Every keep and box against the optimal advisor's, in expected final points."""

    unit = "points"
    worth = "expected final score (points)"
    # A game played at best scores 254.6 on average, give or take about 60: a point is 0.4 % of it.
    # A keep that aims a little off (a pair kept with a die of the straight) costs about a point; a
    # box spent early, or a chance scratched in the wrong place, costs 3 to 8; scoring a roll in a
    # box worth far more later (a Yacht's 50 thrown away, the upper bonus given up) costs 8 or more.
    thresholds = Thresholds(inaccuracy=1.0, mistake=3.0, blunder=8.0)

    def judge(self) -> Judge:
        advisor = Advisor(advisor_table())  # keeps a turn's plan for its later decisions

        def judged(before: State, move: Move | Roll, left_lying: bool, then: Roll | None) -> Judged | None:
            if isinstance(move, Roll) or before.phase is not Phase.CHOOSE:
                return None
            found = advisor.choices(before)
            if len(found) < 2:  # the one box left: no decision
                return None
            chosen = best(found)
            read_as = keeps_read(before.dice, move, then) if left_lying else (move,)
            played = max((choice for choice in found if choice.move in read_as), key=lambda choice: choice.expected)
            return Judged(chosen.move, played.expected, chosen.expected, played.move)

        return judged

    def words(self, before: State, move: Move, names: Sequence[str], advised: bool) -> str:
        if not advised:
            return move_words(before, move, GAME.apply(before, move), names)
        if isinstance(move, Score):
            return f"scores {box_words(before, move)}"
        return f"keeps {dice_text(move.dice) or 'none'}"


REVIEW = YachtReview()
