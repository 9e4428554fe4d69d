"""Columns on the web page: the 12x5 board seen from the players' side as SVG, as the OLED draws it
(roundels as low pills, blockers as one shape across their cells, player A's pieces solid and B's
hollow, the piece placed last outlined and its columns' numbers ringed) with each player's pieces
left and roundels on level 5; and the lines the OLED shows beside it."""

from __future__ import annotations

from collections.abc import Sequence

from engine.columns import COLUMNS, KINDS, LEVELS, TOP, Kind, State, pieces_left, score
from engine.columns.state import Piece
from firmware.drawing.screens import player_mark, whose
from firmware.drawing.svg import SEAT_COLOURS, element, group, pointer_meaning, short_name, svg, text, title, turn_pointer
from firmware.games.columns.screens import SHORT_KIND, deciding_level

MARGIN = 8
GUTTER = 22  # the level numbers left of the board
CELL_W, CELL_H = 36, 30
PANEL_ROW = 26  # a player's row above the board
NUMBERS_H = 28
WIDTH = MARGIN + GUTTER + COLUMNS * CELL_W + MARGIN
Point = tuple[float, float]


def _cell_corner(top: float, column: int, level: int) -> Point:
    """The top left corner of a cell (level 0 is level 1, at the bottom)."""
    return MARGIN + GUTTER + column * CELL_W, top + (TOP - level) * CELL_H


def _outline(top: float, cells: Sequence[tuple[int, int]], inset: float) -> str:
    """The path around ``cells`` (column, level) as one shape, ``inset`` inside its edges
    (outside when negative): the cells' edges not shared by two of them, walked clockwise."""
    sides: set[tuple[Point, Point]] = set()
    for column, level in cells:
        x0, y0 = _cell_corner(top, column, level)
        x1, y1 = x0 + CELL_W, y0 + CELL_H
        corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        sides.update(zip(corners, corners[1:] + corners[:1]))
    edges = {start: end for start, end in sides if (end, start) not in sides}  # a shared edge is inside
    ring = [next(iter(edges))]
    while edges[ring[-1]] != ring[0]:
        ring.append(edges[ring[-1]])
    turns = [(i, p) for i, p in enumerate(ring) if not _straight(ring[i - 1], p, ring[(i + 1) % len(ring)])]
    points = [_inset(ring[i - 1], p, ring[(i + 1) % len(ring)], inset) for i, p in turns]
    return "M" + " L".join(f"{x:g},{y:g}" for x, y in points) + " Z"


def _direction(start: Point, end: Point) -> Point:
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = abs(dx) + abs(dy)  # edges are horizontal or vertical
    return dx / length, dy / length


def _straight(before: Point, here: Point, after: Point) -> bool:
    return _direction(before, here) == _direction(here, after)


def _inset(before: Point, here: Point, after: Point, inset: float) -> Point:
    """A corner moved ``inset`` along the inward normals of its two edges (clockwise: right of them)."""
    (ax, ay), (bx, by) = _direction(before, here), _direction(here, after)
    return here[0] + inset * (-ay - by), here[1] + inset * (ax + bx)


def _style(player: int) -> dict[str, str | float]:
    """Player A's pieces solid, B's hollow (a thick outline, faintly filled), each in its colour."""
    colour = SEAT_COLOURS[player]
    if player == 0:
        return {"fill": colour, "stroke": "currentColor", "stroke_width": 1.5}
    return {"fill": colour, "fill_opacity": 0.15, "stroke": colour, "stroke_width": 4}


def _roundel(x: float, y: float, player: int) -> str:
    """A roundel seen from the side in a cell whose top left corner is (x, y): a low pill."""
    return element("rect", x=x + 4, y=y + CELL_H * 0.3, width=CELL_W - 8, height=CELL_H * 0.4,
                   rx=CELL_H * 0.2, **_style(player))


def _piece(top: float, index: int, piece: Piece, last: bool) -> str:
    cells = [(column, level) for column, level, _ in piece.cells()]
    if piece.kind is Kind.ROUNDEL:
        shape = _roundel(*_cell_corner(top, *cells[0]), piece.player)
    else:
        shape = element("path", d=_outline(top, cells, 3), **_style(piece.player))
    marks = [element("path", d=_outline(top, cells, -1.5), fill="none", stroke="currentColor",
                     stroke_width=2.5, stroke_dasharray="4 3")] if last else []
    return group(title(f"{piece.placement.text()} by {player_mark(piece.player)}" + (", placed last" if last else "")),
                 shape, *marks, data_piece=index, data_player=piece.player, data_kind=piece.kind.value,
                 data_columns=" ".join(str(c + 1) for c in piece.placement.columns),
                 data_last="true" if last else None)


def _grid(state: State, top: float) -> str:
    """A faint dot on every free cell, the level numbers (5 in bold: it scores), the ground, and
    the column numbers, ringed under the piece placed last."""
    last = state.pieces[-1].placement.columns if state.pieces else ()
    ground = top + LEVELS * CELL_H
    parts = []
    for column in range(COLUMNS):
        for level in range(state.height(column), LEVELS):
            x, y = _cell_corner(top, column, level)
            parts.append(element("circle", cx=x + CELL_W / 2, cy=y + CELL_H / 2, r=2, fill_opacity=0.4))
        middle = _cell_corner(top, column, 0)[0] + CELL_W / 2
        if column in last:
            parts.append(element("circle", cx=middle, cy=ground + NUMBERS_H / 2, r=12, fill="none",
                                 stroke="currentColor", stroke_width=2.5))
        parts.append(text(middle, ground + NUMBERS_H / 2 + 5, str(column + 1), 14, text_anchor="middle",
                          font_weight="bold" if column in last else None))
    for level in range(LEVELS):
        y = _cell_corner(top, 0, level)[1] + CELL_H / 2 + 5
        parts.append(text(MARGIN + GUTTER / 2, y, str(level + 1), 13, text_anchor="middle",
                          font_weight="bold" if level == TOP else None, fill_opacity=1 if level == TOP else 0.6))
    left = MARGIN + GUTTER
    parts.append(element("line", x1=left, x2=left + COLUMNS * CELL_W, y1=ground, y2=ground,
                         stroke="currentColor", stroke_width=3))
    return group(*parts)


def _left_text(state: State, player: int) -> str:
    """"R12 S3 D3 L3": the pieces a player has left, by kind."""
    left = pieces_left(state, player)
    return " ".join(f"{SHORT_KIND[kind]}{left[kind]}" for kind in KINDS)


def _panel(state: State, names: Sequence[str]) -> str:
    """A row per player: a roundel in their look, their letter and name (with a pointer when they
    are to place, or at the end when they won), their roundels on level 5 and their pieces left."""
    rows = []
    scores = score(state)
    pointed = state.winner if state.over else state.current
    for player in range(2):
        middle = MARGIN + player * PANEL_ROW + PANEL_ROW / 2
        mine = player == pointed
        rows.append(group(
            turn_pointer(MARGIN + 10, middle, 9) if mine else "",
            _roundel(MARGIN + 14, middle - CELL_H / 2, player),
            text(MARGIN + 14 + CELL_W + 4, middle + 5, f"{player_mark(player)} {short_name(names[player])}", 14,
                 font_weight="bold" if mine else None),
            text(WIDTH - MARGIN, middle + 5, f"level 5: {scores[player][TOP]} · left {_left_text(state, player)}", 13,
                 text_anchor="end"),
            data_seat=player, data_pointer=pointer_meaning(state.over) if mine else None,
        ))
    return group(*rows, class_="legend")


def _label(state: State, names: Sequence[str]) -> str:
    if state.over:
        result = "a draw" if state.winner is None else f"{names[state.winner]} won"
        return f"Columns board: {result}"
    return f"Columns board, {len(state.pieces)} pieces placed: {names[state.current]} to place"


def board_svg(state: State, names: Sequence[str]) -> str:
    """The players' rows, then the 12 columns of 5 levels with every piece placed."""
    top = MARGIN + 2 * PANEL_ROW + 10
    height = top + LEVELS * CELL_H + NUMBERS_H + MARGIN
    pieces = [_piece(top, index, piece, index == len(state.pieces) - 1) for index, piece in enumerate(state.pieces)]
    return svg(WIDTH, height, _label(state, names), _panel(state, names), _grid(state, top), *pieces)


def _level_text(state: State, level: int) -> str:
    """"A 3 v B 2": the roundels each player has on ``level``."""
    first, second = score(state)
    return f"{player_mark(0)} {first[level]} v {player_mark(1)} {second[level]}"


def facts(state: State, names: Sequence[str]) -> list[tuple[str, str]]:
    """The lines beside the board: whose turn, the piece placed last, the roundels on level 5 (the
    score as it stands) and each player's pieces left; the result and the level that decided it."""
    left = ("Pieces left", "; ".join(f"{whose(names, p)} {_left_text(state, p)}" for p in range(2)))
    last = state.pieces[-1] if state.pieces else None
    placed = [("Last placed", f"{last.placement.text()} by {whose(names, last.player)}")] if last else []
    if not state.over:
        return [("Turn", whose(names, state.current)), ("Doing", "to place"), *placed,
                ("Level 5", _level_text(state, TOP)), left]
    level = deciding_level(state)
    result = ("Result", "a draw: equal on every level") if state.winner is None else ("Winner", whose(names, state.winner))
    decided = [("Decided on", f"level {level + 1}: {_level_text(state, level)}")] if level not in (None, TOP) else []
    return [result, ("Level 5", _level_text(state, TOP)), *decided, *placed,
            ("Ended", f"{names[state.current]} cannot place"), left]
