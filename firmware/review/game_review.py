"""A game's decisions from its journal, each valued by the game's reviewer and graded.

Only the moves still standing are decisions (an undo takes one back as if never made); a roll
the dice told is none, nor a move that was the only one allowed. Each is placed at its step, the
number of events before it, so ``/games/N?step=K`` shows the position it was made in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dice import Roll
from engine.errors import EngineError
from firmware.core.catalogue import reviewer
from firmware.core.reviewing import Grade, Reviewer, Thresholds
from firmware.journal.journal import PLAYING, Journal, standing_moves
from firmware.journal.rows import GameRecord

COSTLIEST = 10  # decisions the page and the terminal name in words
LEFT_LYING = "worked out from the dice left lying"
SHOWN_LOSS = 0.05  # the least given away that words to one decimal show (0.1)
KEPT_REVIEWS = 256  # ended games' reviews a page keeps (the oldest go first)


class NoReview(ValueError):
    """A game that cannot be reviewed: damaged, or not replaying; the message says which."""


class NoSuchGame(NoReview):
    """No game of that number in the journal."""


@dataclass(frozen=True)
class Decision:
    """One decision: where it was made, by whom, what was made and what the advisor makes there,
    both worths (in the review's unit) and the grade of the difference."""

    step: int  # the events before it: the page's ?step= showing the position it was made in
    player: int
    round: int
    played: str  # "Ann kept 5 5"
    advised: str  # "keeps 5 5 6"
    worth: float
    best: float
    grade: Grade

    @property
    def given_away(self) -> float:
        return max(0.0, self.best - self.worth)


@dataclass(frozen=True)
class PlayerTotals:
    """One player's decisions: how many, what they gave away in all, and how many of each grade."""

    name: str
    decisions: int
    given_away: float
    grades: dict[Grade, int]


@dataclass(frozen=True)
class GameReview:
    """The review of one game. ``note`` says what could not be graded and why ("" when all was)."""

    game: int
    title: str
    names: tuple[str, ...]
    status: str
    steps: int  # the events reviewed
    unit: str
    worth: str
    thresholds: Thresholds | None
    decisions: tuple[Decision, ...]
    note: str = ""

    def totals(self) -> list[PlayerTotals]:
        """Per player, in seat order."""
        found = []
        for seat, name in enumerate(self.names):
            mine = [decision for decision in self.decisions if decision.player == seat]
            grades = Counter(decision.grade for decision in mine)
            found.append(PlayerTotals(name, len(mine), sum(d.given_away for d in mine),
                                      {grade: grades[grade] for grade in Grade}))
        return found

    def costliest(self, count: int = COSTLIEST) -> list[Decision]:
        """The decisions that gave most away, most first (of equals the earlier); none that gave
        away less than the tenth of a unit their words show."""
        costly = [decision for decision in self.decisions if decision.given_away >= SHOWN_LOSS]
        return sorted(costly, key=lambda d: (-d.given_away, d.step))[:count]


def review_game(record: GameRecord, events: Sequence[str], sources: Sequence[str | None] = ()) -> GameReview:
    """The review of ``record``'s game from its ``events`` (finished or in play) and their
    ``sources`` (the journal's: a move with one was worked out from the dice left lying); NoReview
    when an event does not replay."""
    setup = record.setup
    judging = reviewer(setup.kind)
    about = dict(game=record.id, title=setup.game.title, names=tuple(setup.names), status=record.status,
                 steps=len(events))
    if judging is None:
        return GameReview(**about, unit="", worth="", thresholds=None, decisions=(),
                          note=f"{setup.game.title} is a game of skill: there are no choices to review.")
    scale = dict(unit=judging.unit, worth=judging.worth, thresholds=judging.thresholds)
    why = judging.not_modelled(setup.new_state())
    if why:
        return GameReview(**about, **scale, decisions=(), note=f"Not reviewed: {why}.")
    try:
        standing = standing_moves(record, events)
    except EngineError as error:
        raise NoReview(f"game {record.id} holds an event that is no move of {setup.game.title}: {error}") from None
    decisions = tuple(_decisions(record, judging, standing, sources))
    note = "" if record.status != PLAYING else f"The game is being played: reviewed to step {len(events)}."
    return GameReview(**about, **scale, decisions=decisions, note=note)


def _decisions(record: GameRecord, judging: Reviewer, standing: list[tuple[int, Any]],
               sources: Sequence[str | None]) -> Iterator[Decision]:
    """Each standing move that was a decision, valued, worded and graded; NoReview at one that is illegal."""
    setup = record.setup
    engine, judge, state = setup.game.engine, judging.judge(), setup.new_state()
    for index, (at, move) in enumerate(standing):
        try:
            after = engine.apply(state, move)  # an illegal move is named before it is valued
        except EngineError as error:
            raise NoReview(f"game {record.id} does not replay at step {at + 1}: {error}") from None
        left_lying = at < len(sources) and sources[at] is not None and not isinstance(move, Roll)
        then = standing[index + 1][1] if left_lying and index + 1 < len(standing) else None
        judged = judge(state, move, left_lying, then if isinstance(then, Roll) else None)
        if judged is not None:
            played = move if judged.played is None else judged.played
            yield Decision(
                at, engine.current_player(state), setup.game.round(state),
                judging.words(state, played, setup.names, advised=False) + (f" ({LEFT_LYING})" if left_lying else ""),
                judging.words(state, judged.advised, setup.names, advised=True),
                judged.played_worth, judged.advised_worth,
                judging.thresholds.grade(judged.advised_worth - judged.played_worth))
        state = after


def journaled_review(journal: Journal, game: int, kept: dict[tuple[int, int, float], GameReview] | None = None) -> GameReview:
    """The review of game ``game`` in ``journal``; NoReview names a game that is not there or is
    damaged. ``kept``: reviews of ended games (finished games never change), reused."""
    record = journal.game(game)
    if record is None:
        damaged = next((d for d in journal.damaged() if str(d.id) == str(game)), None)
        if damaged is None:
            raise NoSuchGame(f"no game {game} in the journal")
        raise NoReview(f"game {game} is damaged, so it is not reviewed: {damaged.why}")
    sourced = journal.sourced_events(game)
    key = (game, len(sourced), record.started)
    if kept is not None and key in kept:
        return kept[key]
    review = review_game(record, [event for event, _ in sourced], [source for _, source in sourced])
    if kept is not None and record.status != PLAYING:
        kept[key] = review
        while len(kept) > KEPT_REVIEWS:
            del kept[next(iter(kept))]
    return review

