"""Columns on the web page as SVG, as the OLED draws it, larger: on the 3x4 grid the board from
above (each pin's top piece, its height, the piece placed last outlined) and beside it the stacks
under the piece placed last from the side; on the row of 12, the whole row from the side. From
the side, roundels are low pills, blockers one shape across their cells, player A's pieces solid
and B's hollow, the piece placed last outlined and its pins' names ringed. Above the board each
player's pieces left and roundels on level 5; and the lines the OLED shows beside it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.columns import COLUMNS, KINDS, LEVELS, TOP, Kind, Placement, State, pieces_left, score
from engine.columns.state import Piece
from firmware.drawing.facts import Fact, pieces
from firmware.drawing.screens import player_mark, whose
from firmware.drawing.svg import SEAT_COLOURS, element, group, pointer_meaning, short_name, svg, text, title, turn_pointer
from firmware.games.columns.screens import SHORT_KIND, deciding_level

MARGIN = 8
GUTTER = 22  # the level numbers left of the board
CELL_W, CELL_H = 36, 30
PANEL_ROW = 48  # a player's two lines above the board: legible on a phone, where the picture shrinks to 0.7
LEGEND_PX = 19
NUMBERS_H = 28
WIDTH = MARGIN + GUTTER + COLUMNS * CELL_W + MARGIN
PIN = 80  # a pin's square in the view from above
LETTERS_W = 20  # the rows' letters, left of the grid
Point = tuple[float, float]
PIECE_WORDS = {Kind.ROUNDEL: "roundel", Kind.SINGLE: "single", Kind.DOUBLE: "double", Kind.TRIPLE: "triple"}  # the rules' words


@dataclass(frozen=True)
class Side:
    """Pins seen from the side, left to right, the gutter of level numbers at ``left``."""

    pins: tuple[int, ...]
    left: float
    top: float

    def corner(self, slot: int, level: int) -> Point:
        """The top left corner of a cell (level 0 is level 1, at the bottom)."""
        return self.left + GUTTER + slot * CELL_W, self.top + (TOP - level) * CELL_H

    def cells(self, piece: Piece) -> list[tuple[int, int]]:
        """The cells of ``piece`` on the pins shown, as (slot, level)."""
        return [(self.pins.index(pin), level) for pin, level, _ in piece.cells() if pin in self.pins]


def _outline(side: Side, cells: Sequence[tuple[int, int]], inset: float) -> str:
    """The path around ``cells`` (slot, level) as one shape, ``inset`` inside its edges
    (outside when negative): the cells' edges not shared by two of them, walked clockwise."""
    sides: set[tuple[Point, Point]] = set()
    for slot, level in cells:
        x0, y0 = side.corner(slot, level)
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


def _piece(side: Side, index: int, piece: Piece, last: bool) -> str:
    cells = side.cells(piece)
    if not cells:
        return ""
    if piece.kind is Kind.ROUNDEL:
        shape = _roundel(*side.corner(*cells[0]), piece.player)
    else:
        shape = element("path", d=_outline(side, cells, 3), **_style(piece.player))
    marks = [element("path", d=_outline(side, cells, -1.5), fill="none", stroke="currentColor",
                     stroke_width=2.5, stroke_dasharray="4 3")] if last else []
    return group(title(f"{piece.placement.text()} by {player_mark(piece.player)}" + (", placed last" if last else "")),
                 shape, *marks, data_piece=index, data_player=piece.player, data_kind=piece.kind.value,
                 data_columns=piece.placement.names().replace("-", " "),
                 data_last="true" if last else None)


def _side_grid(state: State, side: Side) -> str:
    """A faint dot on every free cell, the level numbers (5 in bold: it scores), the ground, and
    the pins' names, ringed under the piece placed last."""
    last = state.pieces[-1].placement.columns if state.pieces else ()
    ground = side.top + LEVELS * CELL_H
    parts = []
    for slot, pin in enumerate(side.pins):
        for level in range(state.height(pin), LEVELS):
            x, y = side.corner(slot, level)
            parts.append(element("circle", cx=x + CELL_W / 2, cy=y + CELL_H / 2, r=2, fill_opacity=0.4))
        middle = side.corner(slot, 0)[0] + CELL_W / 2
        if pin in last:
            parts.append(element("circle", cx=middle, cy=ground + NUMBERS_H / 2, r=12, fill="none",
                                 stroke="currentColor", stroke_width=2.5))
        parts.append(text(middle, ground + NUMBERS_H / 2 + 5, state.board.pin_name(pin), 14, text_anchor="middle",
                          font_weight="bold" if pin in last else None))
    for level in range(LEVELS):
        y = side.corner(0, level)[1] + CELL_H / 2 + 5
        parts.append(text(side.left + GUTTER / 2, y, str(level + 1), 13, text_anchor="middle",
                          font_weight="bold" if level == TOP else None, fill_opacity=1 if level == TOP else 0.6))
    left = side.left + GUTTER
    parts.append(element("line", x1=left, x2=left + len(side.pins) * CELL_W, y1=ground, y2=ground,
                         stroke="currentColor", stroke_width=3))
    return group(*parts)


def _side_view(state: State, side: Side) -> list[str]:
    last = len(state.pieces) - 1
    return [_side_grid(state, side), *(_piece(side, i, piece, i == last) for i, piece in enumerate(state.pieces))]


def _pin_corner(state: State, pin: int, top: float) -> Point:
    row, place = state.board.where(pin)
    return MARGIN + LETTERS_W + place * PIN, top + (state.board.rows - 1 - row) * PIN


def _top_pin(state: State, pin: int, top: float) -> str:
    """One pin from above: its top piece (a disc for a roundel, a square for a blocker) and height."""
    x, y = _pin_corner(state, pin, top)
    middle = (x + PIN / 2, y + PIN / 2)
    parts = [element("rect", x=x + 2, y=y + 2, width=PIN - 4, height=PIN - 4, rx=6, fill="none",
                     stroke="currentColor", stroke_opacity=0.25)]
    piece = state.top(pin)
    name = state.board.pin_name(pin)
    if piece is None:
        parts.append(element("circle", cx=middle[0], cy=middle[1], r=3, fill_opacity=0.4))
        return group(title(f"{name}: empty"), *parts, data_pin=name, data_height=0)
    side = PIN * 0.42
    if piece.kind is Kind.ROUNDEL:
        parts.append(element("circle", cx=middle[0], cy=middle[1], r=side / 2, **_style(piece.player)))
    else:
        parts.append(element("rect", x=middle[0] - side / 2, y=middle[1] - side / 2, width=side, height=side,
                             rx=3, **_style(piece.player)))
    height = state.height(pin)
    parts.append(text(x + PIN - 8, y + 22, str(height), LEGEND_PX, text_anchor="end",
                      font_weight="bold" if height == LEVELS else None))
    words = f"{name}: {height} level{'s' if height > 1 else ''}, {piece.placement.text()} by {player_mark(piece.player)} on top"
    return group(title(words), *parts, data_pin=name, data_height=height, data_top_player=piece.player)


def _top_view(state: State, top: float) -> str:
    """The grid from above: the rows' letters, the pins' numbers, each pin, a bar joining the ends
    of a piece on top of two pins, and the piece placed last outlined."""
    board = state.board
    parts = []
    for first, second in board.pairs:
        stacks = state.stacks
        if stacks[first] and stacks[second] and stacks[first][-1] == stacks[second][-1]:
            (x0, y0), (x1, y1) = (_pin_corner(state, pin, top) for pin in (first, second))
            parts.append(element("line", x1=x0 + PIN / 2, y1=y0 + PIN / 2, x2=x1 + PIN / 2, y2=y1 + PIN / 2,
                                 stroke=SEAT_COLOURS[state.top(first).player], stroke_width=10))  # type: ignore[union-attr]
    parts += [_top_pin(state, pin, top) for pin in range(board.pins)]
    for row in range(board.rows):
        y = _pin_corner(state, row * board.across, top)[1] + PIN / 2 + 5
        parts.append(text(MARGIN + LETTERS_W / 2, y, board.pin_name(row * board.across)[0], LEGEND_PX, text_anchor="middle"))
    for place in range(board.across):
        x = _pin_corner(state, place, top)[0] + PIN / 2
        parts.append(text(x, top + board.rows * PIN + NUMBERS_H / 2 + 5, str(place + 1), LEGEND_PX, text_anchor="middle"))
    if state.pieces:
        corners = [_pin_corner(state, pin, top) for pin in state.pieces[-1].placement.columns]
        x0, y0 = min(x for x, _ in corners), min(y for _, y in corners)
        x1, y1 = max(x for x, _ in corners) + PIN, max(y for _, y in corners) + PIN
        parts.append(element("rect", x=x0, y=y0, width=x1 - x0, height=y1 - y0, rx=8, fill="none",
                             stroke="currentColor", stroke_width=2.5, stroke_dasharray="4 3", data_last="true"))
    return group(*parts, class_="from-above")


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
        first, second = middle - 4, middle + LEGEND_PX - 2  # the two lines' baselines
        rows.append(group(
            turn_pointer(MARGIN + 10, first - LEGEND_PX / 3, 9) if mine else "",
            _roundel(MARGIN + 14, first - LEGEND_PX / 3 - CELL_H / 2, player),
            text(MARGIN + 14 + CELL_W + 4, first, f"{player_mark(player)} {short_name(names[player])}", LEGEND_PX,
                 font_weight="bold" if mine else None),
            text(WIDTH - MARGIN, first, f"level 5: {scores[player][TOP]}", LEGEND_PX, text_anchor="end"),
            text(WIDTH - MARGIN, second, f"left {_left_text(state, player)}", LEGEND_PX, text_anchor="end"),
            data_seat=player, data_pointer=pointer_meaning(state.over) if mine else None,
        ))
    return group(*rows, class_="legend")


def _label(state: State, names: Sequence[str]) -> str:
    if state.over:
        result = "a draw" if state.winner is None else f"{names[state.winner]} won"
        return f"Columns board: {result}"
    return f"Columns board, {len(state.pieces)} pieces placed: {names[state.current]} to place"


def board_svg(state: State, names: Sequence[str]) -> str:
    """The players' rows, then the board (see the module docstring)."""
    top = MARGIN + 2 * PANEL_ROW + 10
    board = state.board
    if board.rows == 1:
        height = top + LEVELS * CELL_H + NUMBERS_H + MARGIN
        side = _side_view(state, Side(tuple(range(board.pins)), MARGIN, top))
        return svg(WIDTH, height, _label(state, names), _panel(state, names), *side)
    height = top + max(board.rows * PIN, LEVELS * CELL_H) + NUMBERS_H + MARGIN
    pins = state.pieces[-1].placement.columns if state.pieces else ()
    side = _side_view(state, Side(pins, WIDTH - MARGIN - GUTTER - 2 * CELL_W, top)) if pins else []
    return svg(WIDTH, height, _label(state, names), _panel(state, names), _top_view(state, top), *side)


def _level_text(state: State, level: int) -> str:
    """"A 3 v B 2": the roundels each player has on ``level``."""
    first, second = score(state)
    return f"{player_mark(0)} {first[level]} v {player_mark(1)} {second[level]}"


def facts(state: State, names: Sequence[str]) -> list[Fact]:
    """The lines beside the board: whose turn, the piece placed last, the roundels on level 5 (the
    score as it stands) and each player's pieces left; the result and the level that decided it."""
    left: Fact = ("Pieces left", pieces((f"{names[p]} {_left_text(state, p)}" for p in range(2)), ";"))
    last = state.pieces[-1] if state.pieces else None
    placed: list[Fact] = []
    if last:
        placed.append(("Last placed", pieces([last.placement.text(), f"by {whose(names, last.player)}"], "")))
    if not state.over:
        return [("Turn", whose(names, state.current)), ("Doing", "to place"), *placed,
                ("Level 5", _level_text(state, TOP)), left]
    level = deciding_level(state)
    result = ("Result", "a draw: equal on every level") if state.winner is None else ("Winner", whose(names, state.winner))
    decided = [("Decided on", f"level {level + 1}: {_level_text(state, level)}")] if level not in (None, TOP) else []
    return [result, ("Level 5", _level_text(state, TOP)), *decided, *placed,
            ("Ended", f"{names[state.current]} cannot place"), left]


def move_words(before: State, move: Placement, after: State, names: Sequence[str]) -> str:
    """"Ann placed a roundel on B3", "Bob placed a double on A2-A3", "Ann placed a triple on B3-C3,
    up" (its thick end); how the game ended is the facts' to say."""
    return f"{names[before.current]} placed {placement_words(move)}"


def placement_words(move: Placement) -> str:
    """A placement: "a triple on B3-C3, up" (its thick end; the page's and the review's words)."""
    turned = f", {move.orientation.value}" if move.orientation else ""
    return f"a {PIECE_WORDS[move.kind]} on {move.names()}{turned}"
