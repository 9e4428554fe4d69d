"""Tumblin' Dice on the web page: the stepped board as SVG (the launch pad and the 0x to 4x levels
as bands, with the dice of the last count between rounds and none while a round is flicked, since
the board is read only after its last flick) and under it a table of every player's dice left,
rounds and total; and the lines the OLED shows beside it (the round, whose flick, the totals)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.tumblin import (
    DICE,
    ROUNDS,
    Die,
    State,
    Tally,
    colour,
    dice_left,
    die_scores,
    round_number,
    seat_of,
    side_scores,
    tally_due,
    team_totals,
    totals,
    winners,
)
from engine.tumblin.moves import LEVELS, Breed, Flick, Mine, Move
from firmware.drawing.facts import Fact, pieces
from firmware.drawing.screens import player_mark
from firmware.drawing.svg import SEAT_COLOURS, element, group, ink_on, pointer_meaning, short_name, svg, text, title, turn_pointer
from firmware.games.tumblin.setup import DEFAULT_PALETTE_HEX

MARGIN = 8
LABEL_W = 46  # a level's name left of its band
DIE, DIE_PITCH = 30, 35
LAUNCH_H = 26
CAPTION_H = 26
BAND_PAD = 7
ROW_H = 28  # a row of the table
NAME_W = 166  # pointer, swatch and name
LEFT_W = 60  # the dice left to flick
ROUND_W, TOTAL_W = 42, 56
BOX = 10  # a die left to flick, in the table


def die_colour(state: State, seat: int) -> str:
    """The colour a seat's dice are drawn in: the box's colour of that name, else the seat's."""
    return DEFAULT_PALETTE_HEX.get(colour(state, seat), SEAT_COLOURS[seat])


def counted(state: State) -> tuple[Die, ...] | None:
    """The dice of the last count while the board still holds them (between two rounds, or at the
    end); None once the next round's first die is flicked (the board is read only after the last)."""
    last = state.log[-1] if state.log else None
    return last.dice if isinstance(last, Tally) else None


def _rounds_shown(state: State) -> int:
    """Columns for rounds: every round played and the one under way, all four from the start."""
    played = len(state.history) + (0 if state.over else 1)
    return max(played, ROUNDS if state.variant.target is None else 1)


def _width(state: State) -> float:
    return 2 * MARGIN + NAME_W + LEFT_W + _rounds_shown(state) * ROUND_W + TOTAL_W


def _die(state: State, die: Die, points: int, x: float, y: float) -> str:
    """A die from above in its colour, its face in the middle and its seat's letter in a corner (so
    it is not told by colour alone); a die on a multiplier card has a dashed second outline."""
    seat = seat_of(state, die.colour)
    fill = SEAT_COLOURS[0] if seat is None else die_colour(state, seat)
    ink = ink_on(fill)
    card = f", multiplier card {die.card}" if die.card else ""
    parts = [
        title(f"{die.colour} {die.face} on {die.level}x{card}: {points} points"),
        element("rect", x=x, y=y, width=DIE, height=DIE, rx=5, fill=fill, stroke="currentColor", stroke_width=1.5),
        text(x + DIE / 2, y + DIE / 2 + 7, str(die.face), 19, text_anchor="middle", font_weight="bold", fill=ink),
    ]
    if seat is not None:
        parts.append(text(x + 3, y + 10, player_mark(seat), 9, fill=ink))
    if die.card:
        parts.append(element("rect", x=x - 3, y=y - 3, width=DIE + 6, height=DIE + 6, rx=7, fill="none",
                             stroke="currentColor", stroke_width=1.5, stroke_dasharray="3 2"))
    return group(*parts, data_colour=die.colour, data_face=die.face, data_level=die.level,
                 data_card=die.card or None, data_seat=seat)


def _bands(state: State, width: float, top: float) -> tuple[str, float]:
    """The launch pad, then a band per level from 0x down to 4x, each with the counted dice lying
    on it; returns them and where they end."""
    dice = counted(state) or ()
    points = dict(zip(dice, die_scores(state.variant, dice)))
    per_row = max(1, int((width - 2 * MARGIN - LABEL_W - BAND_PAD) // DIE_PITCH))
    left, right = MARGIN, width - MARGIN
    parts = [element("rect", x=left + LABEL_W + 40, y=top, width=right - left - LABEL_W - 80, height=LAUNCH_H - 4,
                     rx=4, fill="currentColor", fill_opacity=0.12, stroke="currentColor", stroke_opacity=0.6),
             text((left + right + LABEL_W) / 2, top + LAUNCH_H - 10, "launch pad", 12, text_anchor="middle")]
    y = top + LAUNCH_H
    for level in LEVELS:
        here = [die for die in dice if die.level == level]
        rows = max(1, -(-len(here) // per_row))
        height = rows * DIE_PITCH + 2 * BAND_PAD - (DIE_PITCH - DIE)
        band = [element("rect", x=left, y=y, width=right - left, height=height, rx=4, fill="currentColor",
                        fill_opacity=0.05 + 0.04 * level, stroke="currentColor", stroke_opacity=0.6),
                text(left + LABEL_W / 2, y + height / 2 + 7, f"{level}x", 20, text_anchor="middle", font_weight="bold")]
        for index, die in enumerate(here):
            x = left + LABEL_W + (index % per_row) * DIE_PITCH
            band.append(_die(state, die, points[die], x, y + BAND_PAD + (index // per_row) * DIE_PITCH))
        parts.append(group(title(f"the {level}x level"), *band, data_level=level))
        y += height + 3
    return group(*parts), y


def _caption(state: State, y: float) -> str:
    """What the bands show: the board as counted after a round, or the round under way."""
    if counted(state) is not None:
        words = f"The board as counted after round {len(state.history)}"
    elif tally_due(state):
        words = f"Round {round_number(state)}: every die flicked, the board is to be read"
    else:
        words = f"Round {round_number(state)} in play: the dice are counted after the last flick"
    return text(MARGIN, y, words, 14)


def _dice_left(state: State, seat: int, x: float, middle: float) -> str:
    """Four boxes, filled for each die still to flick (those flicked only dotted outlines); "sits
    out" for a seat out of an overtime round."""
    if seat not in state.order:
        return text(x, middle + 5, "sits out", 12, font_style="italic")
    left = dice_left(state)[seat]
    boxes = []
    for die in range(DICE):
        box = {"x": x + die * (BOX + 4), "y": middle - BOX / 2, "width": BOX, "height": BOX, "rx": 2}
        if die < left:
            boxes.append(element("rect", **box, fill=die_colour(state, seat), stroke="currentColor"))
        else:
            boxes.append(element("rect", **box, fill="none", stroke="currentColor", stroke_opacity=0.45,
                                 stroke_dasharray="2 2"))
    return group(*boxes, data_left=left)


def _row(cells: Sequence[str], middle: float, rounds: int, bold: bool = False) -> list[str]:
    """The round and total cells of a row, right-aligned in their columns."""
    x = MARGIN + NAME_W + LEFT_W
    weight = "bold" if bold else None
    out = [text(x + (i + 1) * ROUND_W - 6, middle + 5, words, 14, text_anchor="end", font_weight=weight)
           for i, words in enumerate(cells[:rounds])]
    out.append(text(x + rounds * ROUND_W + TOTAL_W - 6, middle + 5, cells[rounds], 16, text_anchor="end",
                    font_weight="bold"))
    return out


def _scores(state: State, seats: Sequence[int], rounds: int) -> list[str]:
    """Per round, the points of ``seats`` together ("-" where none of them flicked), then the total."""
    cells = []
    for played in state.history:
        flicked = [seat for seat in seats if seat in played.order]
        cells.append(str(sum(played.scores[seat] for seat in flicked)) if flicked else "-")
    cells += [""] * (rounds - len(cells))
    return [*cells, str(sum(totals(state)[seat] for seat in seats))]


def _table(state: State, names: Sequence[str], top: float) -> tuple[str, float]:
    """The players' table: a header, a row per seat (with teams, then a row per team); a pointer
    marks whose flick it is, or at the end who won."""
    rounds = _rounds_shown(state)
    marked = winners(state) if state.over else () if tally_due(state) else (state.current,)  # the pointers
    header = [*(f"R{n}" for n in range(1, rounds + 1)), "total"]
    parts = [text(MARGIN + NAME_W, top + 18, "to flick", 12, fill_opacity=0.8),
             *_row(header, top + 14, rounds)]
    y = top + ROW_H
    for seat in range(state.players):
        middle = y + ROW_H / 2
        mine = seat in marked
        parts.append(group(
            turn_pointer(MARGIN + 10, middle, 9) if mine else "",
            element("rect", x=MARGIN + 16, y=middle - 9, width=18, height=18, rx=3, fill=die_colour(state, seat),
                    stroke="currentColor"),
            text(MARGIN + 25, middle + 4, player_mark(seat), 11, text_anchor="middle", font_weight="bold",
                 fill=ink_on(die_colour(state, seat))),
            text(MARGIN + 40, middle + 5, short_name(names[seat], 12), 15, font_weight="bold" if mine else None),
            _dice_left(state, seat, MARGIN + NAME_W, middle),
            *_row(_scores(state, (seat,), rounds), middle, rounds),
            data_seat=seat, data_pointer=pointer_meaning(state.over) if mine else None,
        ))
        y += ROW_H
    for team in state.variant.teams or ():
        middle = y + ROW_H / 2
        label = "team " + "+".join(player_mark(seat) for seat in team)
        parts.append(group(text(MARGIN + 40, middle + 5, label, 15, font_style="italic"),
                           *_row(_scores(state, team, rounds), middle, rounds, bold=True),
                           data_team=" ".join(map(str, team))))
        y += ROW_H
    return group(*parts, class_="scores"), y


def _label(state: State, names: Sequence[str]) -> str:
    if state.over:
        return f"Tumblin' Dice board: {' and '.join(names[seat] for seat in winners(state))} won"
    if tally_due(state):
        return f"Tumblin' Dice board, round {round_number(state)}: the board is to be read"
    return f"Tumblin' Dice board, round {round_number(state)}: {names[state.current]} flicks"


def board_svg(state: State, names: Sequence[str]) -> str:
    """The caption, the board's bands with the counted dice, then the players' table."""
    width = _width(state)
    bands, y = _bands(state, width, MARGIN + CAPTION_H)
    table, bottom = _table(state, names, y + 10)
    return svg(width, bottom + MARGIN, _label(state, names), _caption(state, MARGIN + 16), bands, table)


def _seat(state: State, names: Sequence[str], seat: int) -> str:
    return f"{names[seat]} ({colour(state, seat)})"


def _round(state: State) -> str:
    number = round_number(state)
    if state.overtime or (state.variant.target is None and number > ROUNDS):
        return f"{number} (overtime)"
    return f"{number} of {ROUNDS}" if state.variant.target is None else f"{number}, playing to {state.variant.target}"


def _points(state: State, names: Sequence[str], points: Sequence[int]) -> list[str]:
    """Each side's points, as pieces of a fact: "Ann 14,", "Bob 24" (with teams, "Ann & Cy 17")."""
    sides = [" & ".join(names[seat] for seat in side) for side in state.variant.sides()]
    return pieces(f"{side} {value}" for side, value in zip(sides, points))


def facts(state: State, names: Sequence[str]) -> list[Fact]:
    """The lines beside the board: the round, whose flick (which of their dice) or the board to
    read, the dice left, the last round's scores and the totals (with teams, the teams'); the winner."""
    lines: list[Fact] = [("Round", _round(state))]
    if state.over:
        lines.insert(0, ("Winner", " and ".join(_seat(state, names, seat) for seat in winners(state))))
    elif tally_due(state):
        lines.append(("Doing", "every die is flicked: the board is to be read"))
    else:
        me = state.current
        lines += [("Turn", _seat(state, names, me)), ("Doing", f"flicks die {state.flicked[me] + 1} of {DICE}")]
        lines.append(("Dice left", pieces(f"{names[s]} {dice_left(state)[s]}" for s in state.order)))
    if state.history:
        lines.append(("Last round", _points(state, names, side_scores(state.variant, state.history[-1].scores))))
    lines.append(("Totals", _points(state, names, team_totals(state))))
    return lines


def move_words(before: State, move: Move, after: State, names: Sequence[str]) -> str:
    """A flick with its player and colour ("Ann (red) flicked", "Bob (green): did not pass 0x"), a
    breed, a mine, or the round counted (its points are the facts' last round)."""
    if isinstance(move, Flick):
        who = _seat(before, names, before.current)
        if not move.stayed:
            return f"{who} flicked"
        return f"{who}: {'did not pass 0x' if before.variant.zero == 'removed' else 'stayed on the pad'}"
    if isinstance(move, Breed):
        seat = seat_of(before, move.colour)
        assert seat is not None  # the engine takes a breed only of a colour played
        return f"{_seat(before, names, seat)} bred a die"
    if isinstance(move, Mine):
        return "A land mine went off"
    return f"Round {round_number(before)} counted"
