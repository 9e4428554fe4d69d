"""A review drawn: each player's worth after each of their decisions, over the game's steps, as
SVG the page shows without a script. Graded decisions carry chess's marks (?! an inaccuracy, ? a
mistake, ?? a blunder) and link to their step; every point names its decision when hovered."""

from __future__ import annotations

import math
from collections.abc import Callable

from firmware.core.reviewing import Grade
from firmware.drawing.svg import SEAT_COLOURS, element, group, legend, legend_height, seat_marker, svg, text, title
from firmware.review.game_review import Decision, GameReview
from firmware.review.text import amount, sentence

WIDTH, PLOT_HEIGHT = 540.0, 260.0  # narrow enough that a phone held upright reads its words
LEFT, RIGHT, TOP, BOTTOM = 52.0, 14.0, 26.0, 44.0  # margins round the plot, for the axes' words
MARKS = {Grade.INACCURACY: "?!", Grade.MISTAKE: "?", Grade.BLUNDER: "??"}
TICKS = 5
PERCENT_UNITS = ("%",)  # a unit of chances: the axis runs 0 to 100


def chart_svg(review: GameReview, game_link: str) -> str:
    """The chart of ``review``; its marks link to ``game_link`` + ``?step=K``. Empty without decisions."""
    if not review.decisions:
        return ""
    low, high = _span(review)
    right, bottom = WIDTH - RIGHT, TOP + PLOT_HEIGHT

    def x(step: int) -> float:
        return LEFT + (right - LEFT) * step / max(review.steps, 1)

    def y(worth: float) -> float:
        return bottom - (bottom - TOP) * (worth - low) / (high - low)

    parts = [_axes(review, low, high, y)]
    for seat in range(len(review.names)):
        mine = [d for d in review.decisions if d.player == seat]
        if not mine:
            continue
        points = " ".join(f"{x(d.step):.1f},{y(d.worth):.1f}" for d in mine)
        parts.append(element("polyline", points=points, fill="none", stroke=SEAT_COLOURS[seat], stroke_width=2.5))
        parts.extend(_point(review, d, x(d.step), y(d.worth), game_link) for d in mine)
    key_top = bottom + BOTTOM
    parts.append(legend(review.names, None, LEFT - 10, key_top))
    height = key_top + legend_height(len(review.names)) + 8
    label = f"{review.title} #{review.game}: each player's {review.worth} after each decision"
    return svg(WIDTH, height, label, *parts)


def _span(review: GameReview) -> tuple[float, float]:
    """The worth axis: 0 to 100 for chances, else the worths met with a little room, on round ticks."""
    if review.unit.startswith(PERCENT_UNITS):
        return 0.0, 100.0
    worths = [d.worth for d in review.decisions] + [d.best for d in review.decisions]
    low, high = min(worths), max(worths)
    step = _tick_step((high - low) or 1.0)
    return math.floor(low / step) * step, math.ceil(high / step) * step + (step if high == low else 0)


def _tick_step(span: float) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about TICKS ticks over ``span``."""
    raw = span / TICKS
    power = 10 ** math.floor(math.log10(raw))
    return next(power * m for m in (1, 2, 5, 10) if power * m >= raw)


def _axes(review: GameReview, low: float, high: float, y: Callable[[float], float]) -> str:
    step = _tick_step(high - low)
    lines, ticks = [], []
    value = low
    while value <= high + step / 1000:
        lines.append(element("line", x1=LEFT, y1=y(value), x2=WIDTH - RIGHT, y2=y(value), stroke="currentColor",
                             stroke_opacity=0.18))
        ticks.append(text(LEFT - 7, y(value) + 5, f"{value:g}", 15, text_anchor="end"))
        value += step
    bottom = TOP + PLOT_HEIGHT
    words = [
        text(LEFT, TOP - 9, review.worth, 16, font_weight="bold"),
        text(WIDTH - RIGHT, bottom + 22, f"step of the game (of {review.steps})", 15, text_anchor="end"),
        text(LEFT, bottom + 22, "0", 15, text_anchor="middle"),
        element("line", x1=LEFT, y1=bottom, x2=WIDTH - RIGHT, y2=bottom, stroke="currentColor"),
    ]
    return group(*lines, *ticks, *words, class_="axes")


def _point(review: GameReview, decision: Decision, cx: float, cy: float, game_link: str) -> str:
    """A decision's point: the seat's marker, its grade's mark above it when it gave something away
    that counts, a link to its step and its sentence as tooltip."""
    said = (sentence(review, decision) if decision.given_away > 0 else f"Round {decision.round}, {decision.played}")
    said += f" ({decision.grade.value}; worth {amount(decision.worth, review.unit)})"
    mark = MARKS.get(decision.grade)
    if mark is None:
        return group(title(said), seat_marker(decision.player, cx, cy, 4), class_="decision")
    return element(
        "a",
        title(said),
        seat_marker(decision.player, cx, cy, 6.5),
        text(cx, cy - 11, mark, 17, text_anchor="middle", font_weight="bold"),
        href=f"{game_link}?step={decision.step}",
        class_=f"decision {decision.grade.value}",
    )
