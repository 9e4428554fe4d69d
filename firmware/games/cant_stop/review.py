"""Can't Stop's decisions reviewed: every split and every roll-or-stop against the advisor's, in
the chance of winning against the others as they stand (the advisor's own race model: the turns
each still needs, fitted on its solitaire play, and who moves next). Can't Stop is played by two
to four, so there is always a race; the advisor's lookahead models the standard rules only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cant_stop import STOP, Advance, Phase, State, apply, legal_moves
from engine.cant_stop.advisor import Advisor
from engine.cant_stop.moves import Move
from engine.dice import Roll
from firmware.core.reviewing import Judge, Judged, Thresholds
from firmware.games.cant_stop.web import advance_words, move_words

PERCENT = 100.0
ROLL_ON = "roll on"  # the decision a roll told after runners moved was: no move of the engine's


class CantStopReview:
    """Every split and every roll-or-stop against the advisor's, in percentage points of the chance to win."""

    unit = "% chance to win"
    worth = "chance of winning (%)"
    # A game is some 30 turns of a few decisions each, and most are close: a split that gives up
    # 2 points of the chance to win is a slip, 5 a mistake (a column's progress risked for little),
    # 10 a blunder (stopping short of a claim that was likely, rolling on with a game's lead out).
    thresholds = Thresholds(inaccuracy=2.0, mistake=5.0, blunder=10.0)

    def not_modelled(self, first: State) -> str:
        variant = first.variant
        played = "Jumping" if variant.jumping else "Forced Move" if variant.forced_move else ""
        return (f"the advisor looks ahead by the standard rules, not {played}'s, so its values do not fit "
                "this game's decisions: none is graded") if played else ""

    def judge(self) -> Judge:
        advisor = Advisor()

        def judged(before: State, move: Move | Roll, left_lying: bool, then: object) -> Judged | None:
            if before.phase is Phase.CHOOSE and isinstance(move, Advance):
                options = legal_moves(before)
                if len(options) < 2:
                    return None
                worths = advisor.split_worths(before, options)  # type: ignore[arg-type]
                advised = max(options, key=lambda o: (worths[o], o))
                return Judged(advised, PERCENT * worths[move], PERCENT * worths[advised])
            if before.phase is Phase.ROLL and STOP in legal_moves(before):
                stop, roll = advisor.stop_or_roll_worths(before)
                worth = {STOP: stop, ROLL_ON: roll}
                advised = STOP if stop >= roll else ROLL_ON
                made = STOP if move == STOP else ROLL_ON
                return Judged(advised, PERCENT * worth[made], PERCENT * worth[advised])
            return None

        return judged

    def words(self, before: State, move: Any, names: Sequence[str], advised: bool) -> str:
        if advised:
            if move == STOP:
                return "stops"
            if move == ROLL_ON:
                return "rolls on"
            return f"advances {advance_words(move)}"
        if isinstance(move, Roll):
            return f"{names[before.current]} rolled on"
        return move_words(before, move, apply(before, move), names)


REVIEW = CantStopReview()
