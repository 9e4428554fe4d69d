"""Get Your Counters to the Top on the web page: the board as SVG (the seven columns of the board
the game was started with, their stars, rockets and the line where space begins, every player's
counter) and the lines the OLED shows beside it (whose turn, the throw, the dice, the options)."""

from __future__ import annotations

from collections.abc import Sequence
from math import cos, pi, sin

from engine.counters import (
    COLUMN_NAMES,
    Handicap,
    Keep,
    Phase,
    Rocket,
    State,
    Take,
    counters_in_space,
    has_wild_card,
    legal_moves,
)
from engine.counters.board import ColumnSpec
from engine.counters.rules import MAX_THROWS
from engine.counters.state import IN_SPACE_TO_WIN
from engine.dice import Roll
from firmware.drawing.facts import Fact, and_list, pieces
from firmware.drawing.screens import possessive, whose
from firmware.drawing.svg import element, group, legend, legend_height, seat_marker, seat_slots, svg, text, title
from firmware.games.counters.labels import dice_text, option_label
from firmware.games.counters.screens import round_of

MARGIN = 8
CELL_W, CELL_H = 56, 30
LABEL_H = 30  # the column names under the board
WIDTH = 2 * MARGIN + len(COLUMN_NAMES) * CELL_W
PINK, BLUE = "#FF8FCF", "#3DA5FF"  # the board's stars
OPTIONS_SHOWN = 8  # options listed beside the board; the rest counted


def _star(cx: float, cy: float, r: float, fill: str) -> str:
    """A five-pointed star outlined in ``currentColor``."""
    points = []
    for corner in range(10):
        reach = r if corner % 2 == 0 else r * 0.45
        angle = -pi / 2 + corner * pi / 5
        points.append(f"{cx + reach * cos(angle):.1f},{cy + reach * sin(angle):.1f}")
    return element("polygon", points=" ".join(points), fill=fill, stroke="currentColor", stroke_width=1)


def _rocket(cx: float, cy: float, r: float) -> str:
    """An arrow pointing up: one more square."""
    return element("path", d=f"M{cx:.1f},{cy - r:.1f} l{r:.1f},{r:.1f} h{-r / 2:.1f} v{r:.1f} h{-r:.1f} v{-r:.1f} h{-r / 2:.1f} z",
                   fill="currentColor", fill_opacity=0.75)


def _square(spec: ColumnSpec, square: int, x: float, y: float) -> str:
    """One square: its outline (the bottom row drawn heavier), its star or rocket at its centre."""
    parts = [element("rect", x=x + 2, y=y + 2, width=CELL_W - 4, height=CELL_H - 4, rx=4, fill="none",
                     stroke="currentColor", stroke_opacity=0.7 if square == 0 else 0.35, stroke_width=2 if square == 0 else 1)]
    cx, cy = x + CELL_W / 2, y + CELL_H / 2
    if square in spec.pink_stars:
        parts.append(group(title(f"column {spec.name}, square {square}: pink star"), _star(cx, cy, 7.5, PINK)))
    elif square in spec.blue_stars:
        parts.append(group(title(f"column {spec.name}, square {square}: blue star (wild dice)"),
                           element("circle", cx=cx, cy=cy, r=9.5, fill="none", stroke=BLUE, stroke_width=2),
                           _star(cx, cy, 7.5, BLUE)))
    elif square in spec.rockets:
        parts.append(group(title(f"column {spec.name}, square {square}: rocket"), _rocket(cx, cy, 7)))
    return group(*parts)


def _column(state: State, column: int, bottom: float) -> str:
    """A column's squares from the bottom row up, a dashed line where space begins, every player's
    counter in its own place of its square, the column's name underneath."""
    spec = state.board[column]
    x = MARGIN + column * CELL_W
    parts = [_square(spec, square, x, bottom - (square + 1) * CELL_H) for square in range(spec.top + 1)]
    line_y = bottom - spec.space_from * CELL_H
    parts.append(element("line", x1=x + 1, x2=x + CELL_W - 1, y1=line_y, y2=line_y, stroke="currentColor",
                         stroke_width=2.5, stroke_dasharray="5 4"))
    for player in range(state.players):
        square = state.square(player, column)
        y = bottom - (square + 1) * CELL_H
        cx, cy, r = seat_slots(state.players, x + 2, y + 2, CELL_W - 4, CELL_H - 4)[player]
        parts.append(seat_marker(player, cx, cy, r, data_column=spec.name, data_player=player, data_square=square))
    parts.append(text(x + CELL_W / 2, bottom + LABEL_H / 2 + 6, spec.name, 16, text_anchor="middle", font_weight="bold"))
    return group(title(f"column {spec.name}: squares 0 to {spec.top}, space from {spec.space_from}"), *parts,
                 data_column=spec.name)


def _label(state: State, names: Sequence[str]) -> str:
    if state.winner is not None:
        return f"Get Your Counters to the Top board: {names[state.winner]} won"
    return f"Get Your Counters to the Top board, round {round_of(state)}: {names[state.current]} {doing(state)}"


def board_svg(state: State, names: Sequence[str]) -> str:
    """The board: the legend (whose turn, each seat's marker, counters in space), then the columns
    1 to 6 and S, every counter on its square."""
    rows = max(spec.top for spec in state.board.columns) + 1
    top = MARGIN + legend_height(state.players) + 8
    bottom = top + rows * CELL_H
    needed = IN_SPACE_TO_WIN[state.players]
    notes = [f"{counters_in_space(state, p)}/{needed} in space" for p in range(state.players)]
    over = state.phase is Phase.OVER
    return svg(
        WIDTH, bottom + LABEL_H + MARGIN, _label(state, names),
        legend(names[: state.players], state.winner if over else state.current, MARGIN, MARGIN, notes, over),
        *(_column(state, column, bottom) for column in range(len(COLUMN_NAMES))),
    )


def doing(state: State) -> str:
    """What the player whose turn it is does now, in a few words."""
    if state.phase is Phase.HANDICAP:
        return f"moves the handicap: {state.current} counter{'s' * (state.current != 1)} up one square"
    if state.phase is Phase.THROW:
        return f"to throw ({state.throws + 1} of {MAX_THROWS})"
    if state.phase is Phase.ROCKET:
        return f"moves a rocket's square ({state.rockets} due)"
    return f"choosing after throw {state.throws} of {MAX_THROWS}"


def _options(state: State) -> list[str]:
    """The options the dice on the table give, most squares first (as the OLED lists them)."""
    takes = [move for move in legal_moves(state) if isinstance(move, Take)]
    takes.sort(key=lambda move: sum(group.squares for group in move.option.groups), reverse=True)
    labels = [option_label(move.option) for move in takes]
    more = len(labels) - OPTIONS_SHOWN
    return labels[:OPTIONS_SHOWN] + ([f"{more} more"] if more > 0 else [])


def facts(state: State, names: Sequence[str]) -> list[Fact]:
    """The lines beside the board: whose turn and what they do, the throw, the dice on the table and
    the options they give (or none), the dice kept; counters in space; the winner."""
    needed = IN_SPACE_TO_WIN[state.players]
    in_space: Fact = ("In space", pieces(f"{names[p]} {counters_in_space(state, p)}/{needed}" for p in range(state.players)))
    if state.winner is not None:
        return [("Winner", whose(names, state.winner)), in_space, ("Round", str(round_of(state)))]
    lines: list[Fact] = [("Turn", whose(names, state.current)), ("Round", str(round_of(state))), ("Doing", doing(state))]
    if state.kept:
        lines.append(("Kept", dice_text(state.kept)))
    if state.phase is Phase.CHOOSE:
        lines += [("Throw", f"{state.throws} of {MAX_THROWS}"), ("Dice", dice_text(state.dice)),
                  ("Options", pieces(_options(state)) or "none: the dice form no option")]
        if has_wild_card(state, state.current):
            lines.append(("Wild", "a counter on a blue star: the dice may move any column"))
    return [*lines, in_space]


def climbs(move: Take) -> str:
    """What an option taken climbs: "3 up 2, 2 up 1" (the page's and the review's words)."""
    return ", ".join(f"{COLUMN_NAMES[g.column]} up {g.squares}" for g in move.option.groups)


def move_words(before: State, move: object, after: State, names: Sequence[str]) -> str:
    """"Ann threw 2 2 4 4 6", "Ann kept 3 and 4", "Ann moved 3 up 2, 2 up 1" (an option taken: each
    column its dice moved), "Ann used a rocket on S", "Bob's handicap: 2", "Ann passed"."""
    name = names[before.current]
    if isinstance(move, Roll):
        said = f"{name} threw {dice_text(move.dice)}"
    elif isinstance(move, Keep):
        said = f"{name} kept {and_list([str(die) for die in move.dice]) or 'none'}"
    elif isinstance(move, Take):
        said = f"{name} moved {climbs(move)}"
    elif isinstance(move, Rocket):
        said = f"{name} used a rocket on {COLUMN_NAMES[move.column]}"
    elif isinstance(move, Handicap):
        said = f"{possessive(name)} handicap: {and_list([COLUMN_NAMES[c] for c in move.columns])}"
    else:  # a pass: of a rocket's square, or of a third throw that forms no option
        said = f"{name} left a rocket unused" if before.phase is Phase.ROCKET else f"{name} passed"
    return said + (" and won" if after.winner is not None else "")
