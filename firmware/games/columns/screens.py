"""Columns on the OLED: the 12x5 board as seen from the players' side, with the placement being
chosen shown on it, each player's pieces left and score, and the result with its tie-break.

Seen from the side, a roundel is a flat disc on its column and a blocker a block: roundels are
drawn as low pills, blockers as full cells joined into one shape across their cells (a bar for a
double, an L for a triple). Player A's pieces are solid, player B's hollow. The placement the
cursor is on is drawn checkered where it would go; the piece placed last has a dot at its centre
and its columns' numbers in inverse video (a bot's placement must be found on the board at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.columns import COLUMNS, KINDS, LEVELS, TOP, Kind, Placement, State, pieces_left, place, score
from engine.columns.state import Piece
from firmware.drawing.screens import (
    BODY_TOP_PX,
    WIDTH,
    Canvas,
    big,
    footer,
    line,
    player_mark,
    title,
    whose,
    winner_title,
)
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width

CELL_W_PX, CELL_H_PX = 8, 7
BOARD_TOP_PX = BODY_TOP_PX  # the top of level 5
GROUND_PX = BOARD_TOP_PX + LEVELS * CELL_H_PX  # the board's surface, under level 1
NUMBERS_TOP_PX = GROUND_PX + 2
PANEL_LEFT_PX = COLUMNS * CELL_W_PX + 2
PANEL_ROW_PX = GLYPH_HEIGHT + 1
SHORT_KIND = {Kind.ROUNDEL: "R", Kind.SINGLE: "S", Kind.DOUBLE: "D", Kind.TRIPLE: "L"}
Box = tuple[int, int, int, int]


def _cell_box(column: int, level: int) -> Box:
    """The pixels of a cell (level 0 is level 1, at the bottom)."""
    left = column * CELL_W_PX
    top = BOARD_TOP_PX + (TOP - level) * CELL_H_PX
    return left, top, left + CELL_W_PX - 1, top + CELL_H_PX - 1


def _shape_boxes(cells: Sequence[tuple[int, int]], inset: int) -> Iterable[Box]:
    """Rectangles that cover ``cells`` (column, level) inset by ``inset`` pixels, joined across
    neighbouring cells of the same piece so that the piece reads as one shape."""
    for column, level in cells:
        left, top, right, bottom = _cell_box(column, level)
        yield left + inset, top + inset, right - inset, bottom - inset
        if (column + 1, level) in cells:
            yield right - inset, top + inset, right + 1 + inset, bottom - inset
        if (column, level + 1) in cells:
            yield left + inset, top - inset - 1, right - inset, top + inset


def _blocker(canvas: Canvas, cells: Sequence[tuple[int, int]], solid: bool) -> None:
    for box in _shape_boxes(cells, 1):
        canvas.rectangle(box, fill=1)
    if not solid:
        for box in _shape_boxes(cells, 2):
            canvas.rectangle(box, fill=0)


def _roundel_box(column: int, level: int) -> Box:
    left, top, right, bottom = _cell_box(column, level)
    return left + 1, top + 2, right - 1, bottom - 2


def _piece(canvas: Canvas, piece: Piece, last: bool) -> None:
    cells = [(column, level) for column, level, _ in piece.cells()]
    solid = piece.player == 0
    if piece.kind is Kind.ROUNDEL:
        canvas.rounded_rectangle(_roundel_box(*cells[0]), radius=1, fill=1 if solid else 0, outline=1)
    else:
        _blocker(canvas, cells, solid)
    if last:  # a dot at the centre of its first cell
        left, top, right, bottom = _cell_box(*cells[0])
        canvas.point(((left + right) // 2, (top + bottom) // 2), fill=0 if solid else 1)


def _checkered(canvas: Canvas, boxes: Iterable[Box]) -> None:
    for left, top, right, bottom in boxes:
        canvas.point([(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1) if (x + y) % 2 == 0], fill=1)


def _candidate(canvas: Canvas, state: State, move: Placement) -> None:
    """Where ``move`` would put its piece, checkered (the engine places it: the stacks decide its level)."""
    cells = [(column, level) for column, level, _ in place(state, move).pieces[-1].cells()]
    if move.kind is Kind.ROUNDEL:
        _checkered(canvas, [_roundel_box(*cells[0])])
    else:
        _checkered(canvas, _shape_boxes(cells, 1))


def _column_number(canvas: Canvas, column: int, marked: bool) -> None:
    """The column's number under it, in inverse video under the piece placed last (so the players
    see at a glance where it went); in 10 to 12 the 1 is a single stroke, so the numbers keep apart."""
    left = column * CELL_W_PX
    ink = 0 if marked else 1
    if marked:
        canvas.rectangle((left, NUMBERS_TOP_PX - 1, left + CELL_W_PX - 1, NUMBERS_TOP_PX + GLYPH_HEIGHT), fill=1)
    number = column + 1
    if number < 10:
        tiny_text(canvas, (left + (CELL_W_PX - tiny_width(str(number))) // 2, NUMBERS_TOP_PX), str(number), fill=ink)
        return
    canvas.line((left + 1, NUMBERS_TOP_PX, left + 1, NUMBERS_TOP_PX + GLYPH_HEIGHT - 1), fill=ink)
    tiny_text(canvas, (left + 3, NUMBERS_TOP_PX), str(number % 10), fill=ink)


def paint_board(canvas: Canvas, state: State, candidate: Placement | None = None) -> None:
    """The 12 columns: a dot where a level is free, the pieces, the ground and the column numbers."""
    last = state.pieces[-1].placement.columns if state.pieces else ()
    for column in range(COLUMNS):
        for level in range(state.height(column), LEVELS):
            left, top, right, bottom = _cell_box(column, level)
            canvas.point(((left + right) // 2, (top + bottom) // 2), fill=1)
        _column_number(canvas, column, column in last)
    for index, piece in enumerate(state.pieces):
        _piece(canvas, piece, last=index == len(state.pieces) - 1)
    canvas.line((0, GROUND_PX, COLUMNS * CELL_W_PX - 1, GROUND_PX), fill=1)
    if candidate is not None:
        _candidate(canvas, state, candidate)


def paint_panel(canvas: Canvas, state: State) -> None:
    """Per player: a sample of their pieces' look, their mark, the columns they cap (roundels on
    level 5: the score as it stands) and the pieces they have left."""
    scores = score(state)
    for player in range(2):
        top = BOARD_TOP_PX + player * (3 * PANEL_ROW_PX + 1)
        swatch = (PANEL_LEFT_PX, top, PANEL_LEFT_PX + GLYPH_HEIGHT - 1, top + GLYPH_HEIGHT - 1)
        canvas.rectangle(swatch, fill=1 if player == 0 else 0, outline=1)
        tiny_text(canvas, (PANEL_LEFT_PX + GLYPH_HEIGHT + 2, top), player_mark(player))
        points = f"CAP{scores[player][TOP]}"
        tiny_text(canvas, (WIDTH - tiny_width(points), top), points)
        left = pieces_left(state, player)
        kinds = [f"{SHORT_KIND[kind]}{left[kind]}" for kind in KINDS]
        tiny_text(canvas, (PANEL_LEFT_PX, top + PANEL_ROW_PX), " ".join(kinds[:2]))
        tiny_text(canvas, (PANEL_LEFT_PX, top + 2 * PANEL_ROW_PX), " ".join(kinds[2:]))


@dataclass(frozen=True)
class PlaceScreen:
    """The player to move chooses the placement they made: NEXT the next one, ROLL the next kind
    of piece, SELECT confirms. ``moves`` are the legal placements in the list's order."""

    state: State
    names: tuple[str, ...]
    moves: tuple[Placement, ...]
    cursor: int
    advised: bool = False  # the highlighted placement is the advisor's pick
    status: str = ""
    proxy: bool = False  # a bot's seat after an UNDO: the people place for it

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        move = self.moves[self.cursor]
        title(canvas, whose(self.names, state.current, self.proxy), f"{self.cursor + 1}/{len(self.moves)}")
        paint_board(canvas, state, move)
        paint_panel(canvas, state)
        footer(canvas, self.status or move.text() + (" *" if self.advised else ""), "" if self.status else "SELECT", rule=False)


@dataclass(frozen=True)
class BoardScreen:
    """The finished game's board, with nothing offered."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        title(canvas, "Board", f"{len(self.state.pieces)} pieces")
        paint_board(canvas, self.state)
        paint_panel(canvas, self.state)
        footer(canvas, "NEXT:back", rule=False)


def deciding_level(state: State) -> int | None:
    """The highest level (index) where the players' roundels differ: the one that decides; None: a draw."""
    first, second = score(state)
    return next((level for level in range(TOP, -1, -1) if first[level] != second[level]), None)


def _level_line(state: State, level: int) -> str:
    """"level 5: A 3 v B 2", the roundels each player has on ``level``."""
    first, second = score(state)
    return f"level {level + 1}: {player_mark(0)} {first[level]} v {player_mark(1)} {second[level]}"


@dataclass(frozen=True)
class ResultScreen:
    """Who won and on which level's roundels (level 5, or the level a tie went down to), or a draw;
    with a win on level 5, who could not place (which ended play)."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        if state.winner is None:
            big(canvas, (0, 0), "A draw!")
        else:
            winner_title(canvas, self.names[state.winner])
        level = deciding_level(state)
        line(canvas, 1, _level_line(state, TOP))
        if level is None:
            line(canvas, 2, "equal on every level")
        elif level != TOP:
            line(canvas, 2, _level_line(state, level))
        else:  # room to say why play ended: it may end with pieces still in hand
            line(canvas, 2, f"{self.names[state.current]} cannot place")
        footer(canvas, "NEXT:board", "SELECT:new")
