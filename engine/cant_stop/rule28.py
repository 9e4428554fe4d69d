"""Michael Keller's Rule of 28, as the issue states it: the published benchmark strategy.

Progress: a runner that has moved k spaces this turn scores its column's weight x (k + 1),
weights 6,5,4,3,2,1,2,3,4,5,6 for columns 2..12; with three runners add 2 if all their columns
are odd, subtract 2 if all are even, add 4 if all are 7 or higher, add 4 if all are 7 or lower.
Stop at 28 or more, but never while fewer than three runners are out and a column is still
open for one, and always when stopping wins. A split scores 1,2,3,4,5,6,5,4,3,2,1 per space
advanced (columns 2..12), minus 6 for each new runner; the best score is taken (between equal
scores, the split that sorts last, i.e. the higher columns: the published rule says nothing).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cant_stop.board import COLUMNS, MAX_RUNNERS
from engine.cant_stop.bots import stopping_wins
from engine.cant_stop.moves import Advance
from engine.cant_stop.rules import is_usable
from engine.cant_stop.state import State

PROGRESS_WEIGHTS = dict(zip(COLUMNS, (6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6)))
SPLIT_WEIGHTS = dict(zip(COLUMNS, (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)))
NEW_RUNNER_COST = 6
STOP_AT = 28


def progress_score(state: State) -> int:
    """The Rule of 28 count of the current player's runners."""
    score = sum(
        PROGRESS_WEIGHTS[column] * (space - state.saved_space(state.current, column) + 1)
        for column, space in state.runners
    )
    if len(state.runners) == MAX_RUNNERS:
        columns = [column for column, _ in state.runners]
        score += 2 if all(c % 2 for c in columns) else -2 if all(c % 2 == 0 for c in columns) else 0
        score += 4 if all(c >= 7 for c in columns) else 0
        score += 4 if all(c <= 7 for c in columns) else 0
    return score


def split_score(state: State, option: Advance) -> int:
    """The Rule of 28 worth of a split."""
    new_runners = {c for c in option.columns if state.runner_space(c) is None}
    return sum(SPLIT_WEIGHTS[c] for c in option.columns) - NEW_RUNNER_COST * len(new_runners)


def runner_slot_open(state: State) -> bool:
    """Whether a runner is still to place and some column could take it."""
    return len(state.runners) < MAX_RUNNERS and any(
        state.runner_space(c) is None and is_usable(state, c) for c in COLUMNS
    )


@dataclass(frozen=True)
class Rule28:
    name: str = "rule28"

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        return max(options, key=lambda option: (split_score(state, option), option))

    def should_stop(self, state: State) -> bool:
        if stopping_wins(state):
            return True
        if runner_slot_open(state):
            return False
        return progress_score(state) >= STOP_AT
