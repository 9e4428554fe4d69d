"""The 3x4 grid seen from above, row A (nearest player 1) at the bottom as player 1 sees it.

Each pin shows the piece on top of its column (a disc for a roundel, a square for a blocker;
player A's solid, player B's hollow, a bar joining the two ends of a double or an L that is on
top of both) and how many levels are filled; an empty pin is a dot. The placement offered is a
dotted frame round its pins; the piece placed last underlines its pins.
"""

from __future__ import annotations

from engine.columns import Kind, Placement, State
from firmware.drawing.screens import BODY_TOP_PX, Canvas
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width
from firmware.games.columns.side_view import Box

PIN_W_PX, PIN_H_PX = 15, 10
LETTERS_W_PX = 5  # the rows' letters, left of the grid
SYMBOL_PX = 6  # a disc's or a square's side


def grid_size(state: State) -> tuple[int, int]:
    """The pixels the view takes, names included: (width, height)."""
    board = state.board
    return LETTERS_W_PX + board.across * PIN_W_PX, board.rows * PIN_H_PX + GLYPH_HEIGHT + 2


def pin_box(state: State, pin: int) -> Box:
    row, place = state.board.where(pin)
    left = LETTERS_W_PX + place * PIN_W_PX
    top = BODY_TOP_PX + (state.board.rows - 1 - row) * PIN_H_PX
    return left, top, left + PIN_W_PX - 1, top + PIN_H_PX - 1


def _symbol_box(state: State, pin: int) -> Box:
    left, top, _, _ = pin_box(state, pin)
    return left + 2, top + 2, left + 2 + SYMBOL_PX - 1, top + 2 + SYMBOL_PX - 1


def _names(canvas: Canvas, state: State) -> None:
    board = state.board
    for row in range(board.rows):
        _, top, _, _ = pin_box(state, row * board.across)
        tiny_text(canvas, (0, top + (PIN_H_PX - GLYPH_HEIGHT) // 2), board.pin_name(row * board.across)[0])
    bottom = BODY_TOP_PX + board.rows * PIN_H_PX + 1
    for place in range(board.across):
        left, _, right, _ = pin_box(state, place)
        number = str(place + 1)
        tiny_text(canvas, ((left + right + 1 - tiny_width(number)) // 2, bottom), number)


def _bridge(canvas: Canvas, state: State, first: int, second: int) -> None:
    """The bar between the two ends of one piece on top of two neighbouring pins: along the foot of
    the squares in a row (under the heights), along their left side across the rows."""
    a, b = sorted((_symbol_box(state, first), _symbol_box(state, second)))
    if a[1] == b[1]:
        canvas.rectangle((a[2], a[3] - 1, b[0], a[3]), fill=1)
    else:
        upper, lower = sorted((a, b), key=lambda box: box[1])
        canvas.rectangle((upper[0], upper[3], upper[0] + 1, lower[1]), fill=1)


def _pin(canvas: Canvas, state: State, pin: int) -> None:
    left, top, right, bottom = pin_box(state, pin)
    height = state.height(pin)
    if not height:
        canvas.point(((left + right) // 2, (top + bottom) // 2), fill=1)
        return
    piece = state.top(pin)
    assert piece is not None
    solid = piece.player == 0
    symbol = _symbol_box(state, pin)
    if piece.kind is Kind.ROUNDEL:
        canvas.ellipse(symbol, fill=1 if solid else 0, outline=1)
    else:
        canvas.rectangle(symbol, fill=1 if solid else 0, outline=1)
    tiny_text(canvas, (symbol[2] + 3, top + 1), str(height))


def _frame(canvas: Canvas, box: Box) -> None:
    """A dotted frame: every other pixel of the box's edge."""
    left, top, right, bottom = box
    edge = [(x, y) for x in range(left, right + 1) for y in (top, bottom)]
    edge += [(x, y) for y in range(top, bottom + 1) for x in (left, right)]
    canvas.point([(x, y) for x, y in edge if (x + y) % 2 == 0], fill=1)


def _union(state: State, pins: tuple[int, ...]) -> Box:
    boxes = [pin_box(state, pin) for pin in pins]
    return min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)


def paint_top(canvas: Canvas, state: State, candidate: Placement | None = None) -> None:
    """The grid from above with the rows' letters and the pins' numbers; ``candidate`` framed."""
    _names(canvas, state)
    for pin in range(state.board.pins):
        _pin(canvas, state, pin)
    stacks = state.stacks
    for first, second in state.board.pairs:
        if stacks[first] and stacks[second] and stacks[first][-1] == stacks[second][-1]:
            _bridge(canvas, state, first, second)
    if state.pieces:
        for pin in state.pieces[-1].placement.columns:
            left, _, right, bottom = pin_box(state, pin)
            canvas.line((left + 1, bottom, right - 1, bottom), fill=1)
    if candidate is not None:
        _frame(canvas, _union(state, candidate.columns))
