"""What a game answers for the review of a game after it is played (the core knows no game).

A game whose advisor values choices reviews each decision a player made: the advisor's own
choice in the same position and what both are worth, in the game's own terms (Yacht: expected
final points; Can't Stop and Counters: the chance of winning; Columns: the search's roundels).
The review (:mod:`firmware.review`) grades each decision by what it gave away, as chess engines
grade moves, with the thresholds the game states here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol


class Grade(Enum):
    """A decision's grade, by what it gave away against the advisor's choice (best first)."""

    BEST = "best"  # the advisor's choice, or one worth as much
    GOOD = "good"  # gave away less than an inaccuracy's threshold
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


NOTHING_GIVEN = 1e-9
"""A loss this small is the advisor's choice by another name (equal worths, float rounding)."""


@dataclass(frozen=True)
class Thresholds:
    """Give away at least ``inaccuracy`` (``mistake``, ``blunder``) of the game's unit and the
    decision is an inaccuracy (mistake, blunder); less, but something, is good; nothing is best."""

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy < self.mistake < self.blunder:
            raise ValueError(f"thresholds must rise above 0: got {self}")

    def grade(self, given_away: float) -> Grade:
        if given_away <= NOTHING_GIVEN:
            return Grade.BEST
        for grade, least in ((Grade.BLUNDER, self.blunder), (Grade.MISTAKE, self.mistake),
                             (Grade.INACCURACY, self.inaccuracy)):
            if given_away >= least:
                return grade
        return Grade.GOOD


@dataclass(frozen=True)
class Judged:
    """One decision valued: the advisor's move in the same position, and the worth of the move
    played and of the advisor's (never less), in the reviewer's unit. ``played``: the move valued
    as the one made, where the journal's could have been another (None: the journal's)."""

    advised: Any
    played_worth: float
    advised_worth: float
    played: Any = None


Judge = Callable[[Any, Any, bool, Any], "Judged | None"]
"""``judge(before, move, left_lying, then)``: a move valued against the advisor's, or None where
the move was no decision (a roll told by the dice, the only legal move). ``left_lying``: the move
was worked out from the dice left lying in the tray rather than chosen from the list, and
``then`` the throw told with it (None: taken back). A keep read so counts every face still
showing as kept, but the player may have thrown some of them again and met the same faces: the
benefit of the doubt goes to the best keep the dice allow."""


class Reviewer(Protocol):
    """A game's review of its players' decisions (each game's ``review`` module)."""

    unit: str  # what a worth counts, after a number: "points", "% chance to win", "roundels"
    worth: str  # what the chart draws, each player's, with its unit: "expected final score (points)"
    thresholds: Thresholds

    def not_modelled(self, first: Any) -> str:
        """Why the advisor cannot value the decisions of a game that starts at ``first`` (its
        variant: "" where it can)."""
        ...

    def judge(self) -> Judge:
        """A judge for one game's decisions, in order (it may keep what a turn's later decisions reuse)."""
        ...

    def words(self, before: Any, move: Any, names: Sequence[str], advised: bool) -> str:
        """A decision in words: the one made, "Ann kept 5 5" (``advised`` False), or the advisor's
        in the same position, "keeps 5 5 6" (True)."""
        ...


class EveryVariantModelled:
    """A reviewer whose advisor plays every variant of its game (mixed in): nothing goes ungraded."""

    def not_modelled(self, first: Any) -> str:
        return ""
