"""A review in words: each costly decision in a sentence, the grades' thresholds, and the lines
``dice-companion history --review N`` prints (the page shows the same)."""

from __future__ import annotations

from collections.abc import Iterator

from firmware.core.reviewing import Grade
from firmware.journal.history import printable
from firmware.review.game_review import Decision, GameReview


def amount(value: float, unit: str) -> str:
    """A worth with its unit: "4.2 points", "6.0 % chance to win"."""
    return f"{value:.1f} {unit}"


def sentence(review: GameReview, decision: Decision) -> str:
    """"Round 7, Ann kept 5 5; the advisor keeps 5 5 6: 4.2 points given away"."""
    return (f"Round {decision.round}, {decision.played}; the advisor {decision.advised}: "
            f"{amount(decision.given_away, review.unit)} given away")


def thresholds_words(review: GameReview) -> str:
    """How decisions are graded: "best: the advisor's choice or one worth as much; inaccuracy: 1.0
    points given away or more; mistake: 3.0 ...; blunder: 8.0 ..."."""
    if review.thresholds is None:
        return ""
    limits = review.thresholds
    return (f"best: the advisor's choice or one worth as much; good: less than {amount(limits.inaccuracy, review.unit)} "
            f"given away; inaccuracy: {amount(limits.inaccuracy, review.unit)} or more; mistake: "
            f"{amount(limits.mistake, review.unit)} or more; blunder: {amount(limits.blunder, review.unit)} or more")


def review_lines(review: GameReview) -> Iterator[str]:
    """The review for a terminal: what was reviewed, each player's totals and grades, the costliest
    decisions with their steps. Control characters in names escaped."""
    return (printable(line) for line in _lines(review))


def _lines(review: GameReview) -> Iterator[str]:
    yield f"review of game {review.game}: {review.title}, {', '.join(review.names)}, {review.status}"
    if review.note:
        yield review.note
    if review.thresholds is None or not review.decisions and review.note:
        return
    yield f"worth: {review.worth}; {thresholds_words(review)}"
    totals = review.totals()
    width = max(len("player"), *(len(player.name) for player in totals))
    grades = [grade.value for grade in Grade]
    yield f"{'player':<{width}}  decisions  given-away  " + "  ".join(grades)
    for player in totals:
        counts = "  ".join(f"{player.grades[grade]:>{len(grade.value)}}" for grade in Grade)
        yield f"{player.name:<{width}}  {player.decisions:>9}  {player.given_away:>10.1f}  {counts}"
    costliest = review.costliest()
    if not costliest:
        yield "costliest decisions: none; every decision was the advisor's or worth as much"
        return
    yield "costliest decisions:"
    for decision in costliest:
        yield f"step {decision.step:>4}  {sentence(review, decision)} ({decision.grade.value})"
