"""Stacks of pins seen from the side, level 1 at the bottom: the whole row of 12 for games played
on the row, or the one or two pins under a placement on the grid (the top view cannot show what
lies below the top piece).

Each pin is a rod up to level 5 with a tick across it at each free level, so that the one or two
beside the grid read as pins seen from the side (as dots they looked like a fifth column of the
grid). A roundel is a flat disc on its column and a blocker a block: roundels are drawn as low
pills, blockers as full cells joined into one shape across their cells (a bar for a double, an L
for a triple). Player A's pieces are solid, player B's hollow. The placement offered is drawn
checkered where it would go, hiding the rod; the piece placed last has a dot at its centre and its
pins' names in inverse video (a bot's placement must be found on the board at once).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.columns import LEVELS, TOP, Kind, Placement, State, place
from engine.columns.state import Piece
from firmware.drawing.screens import BODY_TOP_PX, Canvas
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width

CELL_W_PX, CELL_H_PX = 8, 7
BOARD_TOP_PX = BODY_TOP_PX  # the top of level 5
GROUND_PX = BOARD_TOP_PX + LEVELS * CELL_H_PX  # the board's surface, under level 1
NAMES_TOP_PX = GROUND_PX + 2
Box = tuple[int, int, int, int]
Cells = Sequence[tuple[int, int]]  # (slot, level): a slot is a pin's place in the view, left to right


@dataclass(frozen=True)
class SideView:
    """Which pins are shown, left to right, from pixel ``left_px``, each ``cell_w_px`` wide (the
    grid's two-letter names need more than the row's numbers)."""

    pins: tuple[int, ...]
    left_px: int = 0
    cell_w_px: int = CELL_W_PX

    @property
    def right_px(self) -> int:
        return self.left_px + len(self.pins) * self.cell_w_px - 1

    def cell_box(self, slot: int, level: int) -> Box:
        """The pixels of a cell (level 0 is level 1, at the bottom)."""
        left = self.left_px + slot * self.cell_w_px
        top = BOARD_TOP_PX + (TOP - level) * CELL_H_PX
        return left, top, left + self.cell_w_px - 1, top + CELL_H_PX - 1

    def cells(self, piece: Piece) -> list[tuple[int, int]]:
        """The cells of ``piece`` on the pins shown, as (slot, level)."""
        return [(self.pins.index(pin), level) for pin, level, _ in piece.cells() if pin in self.pins]

    def shape_boxes(self, cells: Cells, inset: int) -> Iterable[Box]:
        """Rectangles that cover ``cells`` inset by ``inset`` pixels, joined across neighbouring
        cells of the same piece so that the piece reads as one shape."""
        for slot, level in cells:
            left, top, right, bottom = self.cell_box(slot, level)
            yield left + inset, top + inset, right - inset, bottom - inset
            if (slot + 1, level) in cells:
                yield right - inset, top + inset, right + 1 + inset, bottom - inset
            if (slot, level + 1) in cells:
                yield left + inset, top - inset - 1, right - inset, top + inset

    def roundel_box(self, slot: int, level: int) -> Box:
        left, top, right, bottom = self.cell_box(slot, level)
        return left + 1, top + 2, right - 1, bottom - 2


def _blocker(canvas: Canvas, view: SideView, cells: Cells, solid: bool) -> None:
    for box in view.shape_boxes(cells, 1):
        canvas.rectangle(box, fill=1)
    if not solid:
        for box in view.shape_boxes(cells, 2):
            canvas.rectangle(box, fill=0)


def _piece(canvas: Canvas, view: SideView, piece: Piece, last: bool) -> None:
    cells = view.cells(piece)
    if not cells:
        return
    solid = piece.player == 0
    if piece.kind is Kind.ROUNDEL:
        canvas.rounded_rectangle(view.roundel_box(*cells[0]), radius=1, fill=1 if solid else 0, outline=1)
    else:
        _blocker(canvas, view, cells, solid)
    if last:  # a dot at the centre of its first cell shown
        left, top, right, bottom = view.cell_box(*cells[0])
        canvas.point(((left + right) // 2, (top + bottom) // 2), fill=0 if solid else 1)


def checkered(canvas: Canvas, boxes: Iterable[Box]) -> None:
    """Every other pixel of each box lit: where a piece would go."""
    for left, top, right, bottom in boxes:
        canvas.point([(x, y) for x in range(left, right + 1) for y in range(top, bottom + 1) if (x + y) % 2 == 0], fill=1)


def _candidate(canvas: Canvas, view: SideView, state: State, move: Placement) -> None:
    """Where ``move`` would put its piece, checkered over the pin it would hide (the engine places
    it: the stacks decide its level)."""
    cells = view.cells(place(state, move).pieces[-1])
    boxes = [view.roundel_box(*cells[0])] if move.kind is Kind.ROUNDEL else list(view.shape_boxes(cells, 1))
    for box in boxes:
        canvas.rectangle(box, fill=0)
    checkered(canvas, boxes)


def _pin_name(canvas: Canvas, view: SideView, slot: int, name: str, marked: bool) -> None:
    """The pin's name under it, in inverse video under the piece placed last; in 10 to 12 the 1 is
    a single stroke, so the numbers of the row keep apart."""
    left, width = view.left_px + slot * view.cell_w_px, view.cell_w_px
    ink = 0 if marked else 1
    if marked:
        canvas.rectangle((left, NAMES_TOP_PX - 1, left + width - 1, NAMES_TOP_PX + GLYPH_HEIGHT), fill=1)
    if not name.startswith("1") or len(name) == 1:
        tiny_text(canvas, (left + (width - tiny_width(name)) // 2, NAMES_TOP_PX), name, fill=ink)
        return
    canvas.line((left + 1, NAMES_TOP_PX, left + 1, NAMES_TOP_PX + GLYPH_HEIGHT - 1), fill=ink)
    tiny_text(canvas, (left + 3, NAMES_TOP_PX), name[1:], fill=ink)


def _rod(canvas: Canvas, view: SideView, slot: int, height: int) -> None:
    """The pin above its stack of ``height`` pieces, up to level 5, a tick across it at each free level."""
    for level in range(height, LEVELS):
        left, top, right, bottom = view.cell_box(slot, level)
        middle_x, middle_y = (left + right) // 2, (top + bottom) // 2
        canvas.line((middle_x, top, middle_x, bottom), fill=1)
        canvas.line((middle_x - 1, middle_y, middle_x + 1, middle_y), fill=1)


def paint_side(canvas: Canvas, state: State, view: SideView, candidate: Placement | None = None) -> None:
    """The pins of ``view``: each pin's rod with a tick at each free level, the pieces, the ground
    and the pins' names."""
    last = state.pieces[-1].placement.columns if state.pieces else ()
    for slot, pin in enumerate(view.pins):
        _rod(canvas, view, slot, state.height(pin))
        _pin_name(canvas, view, slot, state.board.pin_name(pin), pin in last)
    for index, piece in enumerate(state.pieces):
        _piece(canvas, view, piece, last=index == len(state.pieces) - 1)
    canvas.line((view.left_px, GROUND_PX, view.right_px, GROUND_PX), fill=1)
    if candidate is not None:
        _candidate(canvas, view, state, candidate)
