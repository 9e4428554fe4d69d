"""Yacht on the web page: every player's scorecard as SVG (the thirteen boxes, the upper sum and
its bonus, the extra-Yacht bonuses, the totals; while a player chooses, what the dice would score
in each of their open boxes, in grey), and the lines beside it (whose turn, the roll, the dice, the
points they give, the totals)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import Roll
from engine.keeps import DICE
from engine.yacht import (
    BOXES,
    EXTRA_YACHT_BONUS,
    MAX_ROLLS,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_FROM,
    Box,
    Keep,
    Phase,
    Score,
    State,
    allowed_boxes,
    points_for,
    round_number,
    total,
    upper_total,
    winners,
)
from engine.yacht.boxes import earns_extra_yacht
from firmware.drawing.facts import Fact, and_list, pieces
from firmware.drawing.screens import whose
from firmware.drawing.svg import element, group, legend, legend_height, pointer_meaning, seat_marker, short_name, svg, text, title
from firmware.games.five_dice import dice_text
from firmware.games.yacht.screens import NAMES

MARGIN = 8
LABEL_W = 150
COLUMN_W = 90
ROW_H = 24
SIZE = 14


def _lines(state: State, player: int) -> list[tuple[str, str, str]]:
    """The card's lines for ``player``: (row key, label, value); an open box is "" (or, while the
    player to move chooses, what the dice would score there, marked "?")."""
    card = state.cards[player]
    choosing = state.phase is Phase.CHOOSE and player == state.current
    could = set(allowed_boxes(card, state.dice)) if choosing else set()

    def cell(box: Box) -> str:
        if card[box.index] is not None:
            return str(card[box.index])
        return f"?{points_for(card, box, state.dice)}" if box in could else ""

    upper_full = all(card[box.index] is not None for box in UPPER)
    earned = upper_total(card) >= UPPER_BONUS_FROM
    bonus = str(UPPER_BONUS) if earned else "0" if upper_full else ""
    extra = state.extra_yachts[player]
    return [
        *((box.value, NAMES[box], cell(box)) for box in UPPER),
        ("upper-sum", f"Upper sum (bonus at {UPPER_BONUS_FROM})", str(upper_total(card))),
        ("upper-bonus", "Upper bonus", bonus),
        *((box.value, NAMES[box], cell(box)) for box in BOXES[len(UPPER):]),
        ("yacht-bonus", "Yacht bonuses", str(EXTRA_YACHT_BONUS * extra) if extra else ""),
        ("total", "Total", str(total(state, player))),
    ]


def _label(state: State, names: Sequence[str]) -> str:
    if state.phase is Phase.OVER:
        return f"Yacht scorecard: {and_list([names[p] for p in winners(state)])} won"
    return f"Yacht scorecard, round {round_number(state)}: {names[state.current]} {doing(state)}"


def board_svg(state: State, names: Sequence[str]) -> str:
    """The scorecard: the legend (whose turn, each seat's total), then a row per box and a column per player."""
    players = state.players
    over = state.phase is Phase.OVER
    pointed = winners(state)[0] if over else state.current
    notes = [f"{total(state, p)} points" for p in range(players)]
    top = MARGIN + legend_height(players) + 8
    rows = _lines(state, 0)
    width = 2 * MARGIN + LABEL_W + players * COLUMN_W
    height = top + (len(rows) + 1) * ROW_H + MARGIN
    parts = [legend(names[:players], pointed, MARGIN, MARGIN, notes, over)]
    for player in range(players):
        x = MARGIN + LABEL_W + player * COLUMN_W
        parts.append(group(title(names[player]), seat_marker(player, x + COLUMN_W / 2, top + ROW_H / 2, 9, letter=True),
                           data_seat=player, data_pointer=pointer_meaning(over) if player == pointed else None))
    for row, (key, label, _) in enumerate(rows, start=1):
        y = top + row * ROW_H
        strong = key in ("total", "upper-bonus")
        cells = [element("line", x1=MARGIN, x2=width - MARGIN, y1=y, y2=y, stroke="currentColor", stroke_opacity=0.25),
                 text(MARGIN + 4, y + ROW_H - 7, label, SIZE, font_weight="bold" if key == "total" else None)]
        for player in range(players):
            value = _lines(state, player)[row - 1][2]
            hint = value.startswith("?")
            x = MARGIN + LABEL_W + player * COLUMN_W + COLUMN_W / 2
            cells.append(text(x, y + ROW_H - 7, value.lstrip("?"), SIZE, text_anchor="middle", data_player=player,
                              font_weight="bold" if strong else None, fill_opacity=0.45 if hint else None,
                              font_style="italic" if hint else None))
        parts.append(group(title(f"{label}: what the dice would score is in grey" if key in {b.value for b in BOXES} else label),
                           *cells, data_row=key))
    return svg(width, height, _label(state, names), *parts)


def doing(state: State) -> str:
    """What the player whose turn it is does now, in a few words."""
    if state.phase is Phase.ROLL and state.kept:
        return f"to roll the other {DICE - len(state.kept)} ({state.rolls + 1} of {MAX_ROLLS})"
    if state.phase is Phase.ROLL:
        return f"to roll ({state.rolls + 1} of {MAX_ROLLS})"
    return f"choosing after roll {state.rolls} of {MAX_ROLLS}"


def facts(state: State, names: Sequence[str]) -> list[Fact]:
    """The lines beside the card: whose turn and what they do, the roll, the dice and what they would
    score in each open box, the dice kept; every player's total; the winner (or who share the win)."""
    totals: Fact = ("Totals", pieces(f"{short_name(names[p])} {total(state, p)}" for p in range(state.players)))
    if state.phase is Phase.OVER:
        best = winners(state)
        won: Fact = ("Winner", whose(names, best[0])) if len(best) == 1 else (
            "Shared win", and_list([whose(names, p) for p in best]))
        return [won, totals]
    lines: list[Fact] = [("Turn", whose(names, state.current)), ("Round", f"{round_number(state)} of {len(BOXES)}"),
                         ("Doing", doing(state))]
    if state.kept:
        lines.append(("Kept", dice_text(state.kept)))
    if state.phase is Phase.CHOOSE:
        could = [f"{NAMES[box]} {points_for(state.card, box, state.dice)}" for box in allowed_boxes(state.card, state.dice)]
        lines += [("Roll", f"{state.rolls} of {MAX_ROLLS}"), ("Dice", dice_text(state.dice)), ("Would score", pieces(could))]
        if earns_extra_yacht(state.card, state.dice):  # whichever box it goes in
            lines.append(("Yacht bonus", f"+{EXTRA_YACHT_BONUS} with any box"))
    return [*lines, totals]


def box_words(before: State, move: Score) -> str:
    """A box scored: "25 in Full house" (the page's and the review's words)."""
    return f"{points_for(before.card, move.box, before.dice)} in {NAMES[move.box]}"


def move_words(before: State, move: object, after: State, names: Sequence[str]) -> str:
    """"Ann rolled 1 3 3 5 6", "Ann kept 3 3 5", "Ann scored 25 in Full house" (with an extra-Yacht
    bonus: "and a bonus of 100"); the move that ends the game names who won: "... and won" (the
    mover), "...: Ann won", "...: Ann and Bob share the win"."""
    name = names[before.current]
    if isinstance(move, Roll):
        return f"{name} rolled {dice_text(move.dice)}"
    if isinstance(move, Keep):
        return f"{name} kept {dice_text(move.dice) or 'none'}"
    assert isinstance(move, Score)
    said = f"{name} scored {box_words(before, move)}"
    if earns_extra_yacht(before.card, before.dice):
        said += f" and a bonus of {EXTRA_YACHT_BONUS}"
    if after.phase is Phase.OVER:
        best = winners(after)
        if best == (before.current,):
            said += " and won"
        elif len(best) == 1:
            said += f": {names[best[0]]} won"
        else:
            said += f": {and_list([names[p] for p in best])} share the win"
    return said
