"""Can't Stop on the web page: the board as SVG (the eleven columns with each player's saved
markers, the turn's runners and the claimed columns) and the lines the OLED shows beside it
(whose turn, the roll with its pairs and choices, the bust odds before a roll, the winner)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cant_stop import COLUMNS, HEIGHTS, Advance, Phase, State, bust_probability, can_stop, choices
from engine.cant_stop.moves import Move
from engine.cant_stop.rules import pairings
from engine.dice import Roll
from firmware.drawing.facts import Fact, and_list, pieces
from firmware.drawing.screens import percent, player_mark, whose
from firmware.drawing.svg import SEAT_COLOURS, element, group, ink_on, legend, legend_height, seat_marker, seat_slots, svg, text, title
from firmware.games.cant_stop.screens import newly_claimed, round_of

MARGIN = 8
CELL_W, CELL_H = 38, 32
GRID_H = max(HEIGHTS.values()) * CELL_H
LABEL_H = 30  # the column numbers under the grid
WIDTH = 2 * MARGIN + len(COLUMNS) * CELL_W


def doing(state: State) -> str:
    """What the player whose turn it is does now, in a few words."""
    if state.phase is Phase.CHOOSE:
        return "choosing"
    return "to roll or stop" if can_stop(state) else "to roll"


def _label(state: State, names: Sequence[str]) -> str:
    if state.winner is not None:
        return f"Can't Stop board: {names[state.winner]} won"
    return f"Can't Stop board, round {round_of(state)}: {names[state.current]} {doing(state)}"


def _cell(state: State, index: int, column: int, space: int, top: float) -> str:
    """A space of a column: its outline, each player's saved marker standing there, the runner's
    ring (tinted in the colour of the player whose runner it is)."""
    x, y = MARGIN + index * CELL_W, top + GRID_H - space * CELL_H
    parts = [element("rect", x=x + 2, y=y + 2, width=CELL_W - 4, height=CELL_H - 4, rx=5,
                     fill="none", stroke="currentColor", stroke_opacity=0.35)]
    if state.runner_space(column) == space:
        parts.append(element("rect", title(f"runner in column {column}, space {space} of {HEIGHTS[column]}"),
                             x=x + 1, y=y + 1, width=CELL_W - 2, height=CELL_H - 2, rx=6,
                             fill=SEAT_COLOURS[state.current], fill_opacity=0.3,
                             stroke="currentColor", stroke_width=3.5, data_runner=column, data_step=space))
    for player, (cx, cy, r) in enumerate(seat_slots(state.players, x + 2, y + 2, CELL_W - 4, CELL_H - 4)):
        if state.saved_space(player, column) == space:
            parts.append(seat_marker(player, cx, cy, r, data_column=column, data_player=player, data_step=space))
    return group(*parts)


def _column(state: State, index: int, column: int, top: float) -> str:
    """A column's spaces from the bottom, its number under them; a claimed column tinted in its
    owner's colour with the number on a badge of that colour."""
    owner = state.owner(column)
    x = MARGIN + index * CELL_W
    bottom = top + GRID_H
    parts = []
    if owner is not None:
        height = HEIGHTS[column] * CELL_H
        parts.append(element("rect", x=x, y=bottom - height, width=CELL_W, height=height, rx=6,
                             fill=SEAT_COLOURS[owner], fill_opacity=0.35))
    parts += [_cell(state, index, column, space, top) for space in range(1, HEIGHTS[column] + 1)]
    middle, baseline = x + CELL_W / 2, bottom + LABEL_H / 2 + 6
    if owner is not None:
        parts.append(element("rect", x=x + 3, y=bottom + 3, width=CELL_W - 6, height=LABEL_H - 6, rx=6,
                             fill=SEAT_COLOURS[owner], stroke="currentColor"))
    ink = ink_on(SEAT_COLOURS[owner]) if owner is not None else None
    parts.append(text(middle, baseline, str(column), 16, text_anchor="middle", font_weight="bold", fill=ink))
    claim = f", claimed by {player_mark(owner)}" if owner is not None else ""
    return group(title(f"column {column}: {HEIGHTS[column]} spaces{claim}"), *parts,
                 data_column=column, data_claimed_by=owner)


def board_svg(state: State, names: Sequence[str]) -> str:
    """The board: the legend (whose turn, each seat's marker), then columns 2 to 12 bottom-aligned."""
    top = MARGIN + legend_height(state.players) + 8
    height = top + GRID_H + LABEL_H + MARGIN
    over = state.phase is Phase.OVER
    notes = [" ".join(["columns", *map(str, state.claimed_by(p))]) if state.claimed_by(p) else "" for p in range(state.players)]
    return svg(
        WIDTH, height, _label(state, names),
        legend(names[: state.players], state.winner if over else state.current, MARGIN, MARGIN, notes, over),
        *(_column(state, index, column, top) for index, column in enumerate(COLUMNS)),
    )


def facts(state: State, names: Sequence[str]) -> list[Fact]:
    """The lines beside the board: whose turn and what they do, the roll with its pairs and the
    choices it allows, or the bust odds of the next roll; the runners, the claims; the winner."""
    if state.winner is not None:
        return [
            ("Winner", whose(names, state.winner)),
            ("Columns", " ".join(map(str, state.claimed_by(state.winner)))),
            ("Round", str(round_of(state))),
        ]
    lines: list[Fact] = [("Turn", whose(names, state.current)), ("Round", str(round_of(state))), ("Doing", doing(state))]
    if state.phase is Phase.CHOOSE and state.dice is not None:
        lines += [
            ("Roll", " ".join(map(str, state.dice.dice))),
            ("Pairs", pieces(dict.fromkeys(f"{low}+{high}" for low, high in pairings(state.dice.dice)))),  # each once
            ("Choices", pieces(option.text() for option in choices(state, state.dice))),
        ]
    else:
        lines.append(("Bust odds", percent(bust_probability(state))))
    if state.runners:
        lines.append(("Runners", pieces(f"{c}: {s}/{HEIGHTS[c]}" for c, s in state.runners)))
    if any(owner is not None for owner in state.claimed):
        held = [(p, " ".join(map(str, state.claimed_by(p)))) for p in range(state.players)]
        lines.append(("Claimed", pieces((f"{names[p]} {columns}" for p, columns in held if columns), ";")))
    return lines


def move_words(before: State, move: Move | Roll, after: State, names: Sequence[str]) -> str:
    """"Ann rolled 1 4 5 6", "Bob rolled 6 6 6 6: bust" (a roll that ended the turn: the board no
    longer shows it), "Ann advanced 5 and 11", "Ann advanced 7 twice", "Ann stopped, claimed 7"."""
    name = names[before.current]
    if isinstance(move, Roll):
        bust = after.current != before.current and after.winner is None
        return f"{name} rolled {' '.join(map(str, move.dice))}{': bust' if bust else ''}"
    if isinstance(move, Advance):
        return f"{name} advanced {advance_words(move)}"
    if after.winner is not None:
        return f"{name} stopped and won"
    claimed = newly_claimed(before, after)
    return f"{name} stopped" + (f", claimed {_columns(claimed)}" if claimed else "")


def advance_words(move: Advance) -> str:
    """The columns a split advances: "5 and 11", "7 twice" (the page's and the review's words)."""
    first, *second = move.columns
    return f"{first} twice" if second == [first] else _columns(move.columns)


def _columns(columns: Sequence[int]) -> str:
    return and_list([str(column) for column in columns])
