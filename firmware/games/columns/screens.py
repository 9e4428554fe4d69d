"""Columns on the OLED: the board with the placement being chosen shown on it, each player's
pieces left and score, and the result with its tie-break.

On the real 3x4 grid the board is drawn from above (:mod:`top_view`) with, beside it, the stacks
under the placement offered (or the piece placed last) from the side (:mod:`side_view`): 128x64
pixels cannot show twelve stacks of five from the side and keep them apart. Games played on the
row of 12 show the whole row from the side, as they always did.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.columns import COLUMNS, KINDS, TOP, Kind, Placement, State, pieces_left, score
from firmware.drawing.screens import (
    BODY_TOP_PX,
    HEIGHT,
    ROW_PX,
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
from firmware.games.columns.side_view import CELL_W_PX, SideView, paint_side
from firmware.games.columns.top_view import paint_top

PANEL_LEFT_PX = COLUMNS * CELL_W_PX + 2
PANEL_ROW_PX = GLYPH_HEIGHT + 1
CAP, CAP_GAP_PX = "CAP", 2  # the capped columns' label, and the room between it and their count
SIDE_CELL_W_PX = 11  # room for a pin's name under its stack
SIDE_LEFT_PX = PANEL_LEFT_PX - 2 * SIDE_CELL_W_PX - 8  # the stacks under a placement, right of the grid
SHORT_KIND = {Kind.ROUNDEL: "R", Kind.SINGLE: "S", Kind.DOUBLE: "D", Kind.TRIPLE: "L"}
# What the buttons do while choosing on the grid, in two tiny rows beside the placement's text:
# ROLL's jump to the next kind is nowhere else to be guessed (NEXT and STOP step through the list,
# as on every list)
PLACE_KEYS = ("ROLL:kind", "SELECT:ok")
LAST_MOVE_TOP_PX = BODY_TOP_PX + 3 * ROW_PX  # the result's tiny row between its lines and the footer


def paint_board(canvas: Canvas, state: State, candidate: Placement | None = None) -> None:
    """The board with ``candidate`` shown where it would go (see the module docstring)."""
    if state.board.rows == 1:
        paint_side(canvas, state, SideView(tuple(range(state.board.pins))), candidate)
        return
    paint_top(canvas, state, candidate)
    shown = candidate or (state.pieces[-1].placement if state.pieces else None)
    if shown is not None:
        paint_side(canvas, state, SideView(shown.columns, SIDE_LEFT_PX, SIDE_CELL_W_PX), candidate)


def paint_panel(canvas: Canvas, state: State) -> None:
    """Per player: a sample of their pieces' look, their mark, the columns they cap (roundels on
    level 5: the score as it stands) and the pieces they have left."""
    scores = score(state)
    for player in range(2):
        top = BODY_TOP_PX + player * (3 * PANEL_ROW_PX + 1)
        swatch = (PANEL_LEFT_PX, top, PANEL_LEFT_PX + GLYPH_HEIGHT - 1, top + GLYPH_HEIGHT - 1)
        canvas.rectangle(swatch, fill=1 if player == 0 else 0, outline=1)
        tiny_text(canvas, (PANEL_LEFT_PX + GLYPH_HEIGHT + 2, top), player_mark(player))
        points = str(scores[player][TOP])  # a pixel apart from its label: "CAP0" read as CAPO
        tiny_text(canvas, (WIDTH - tiny_width(points) - 1 - CAP_GAP_PX - tiny_width(CAP), top), CAP)
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
        text = self.status or move.text() + (" *" if self.advised else "")
        if self.status or state.board.rows == 1:  # the row's pin numbers leave no room for two rows
            footer(canvas, text, "" if self.status else "SELECT", rule=False)
            return
        footer(canvas, text, rule=False)
        paint_keys(canvas, PLACE_KEYS)


def paint_keys(canvas: Canvas, keys: tuple[str, ...]) -> None:
    """Button hints in tiny rows at the footer's right end, the last on the bottom row."""
    for row, hint in enumerate(reversed(keys)):
        tiny_text(canvas, (WIDTH - tiny_width(hint), HEIGHT - GLYPH_HEIGHT - row * (GLYPH_HEIGHT + 1)), hint)


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
    """Who won and on which level's roundels (level 5, or the level a tie on level 5 went down
    to), or a draw; and who could not place (which ended play)."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        if state.winner is None:
            big(canvas, (0, 0), "A draw!")
        else:
            winner_title(canvas, self.names[state.winner])
        level = deciding_level(state)
        if level is None:
            line(canvas, 1, "equal on every level")
        elif level == TOP:
            line(canvas, 1, _level_line(state, TOP))
        else:  # a tie on level 5, broken lower down
            first, second = score(state)
            line(canvas, 1, f"5 tied; {level + 1}: {player_mark(0)} {first[level]} v {player_mark(1)} {second[level]}")
        line(canvas, 2, f"{self.names[state.current]} cannot place")  # what ended play, pieces in hand or not
        if state.pieces:  # the placement that ended the game, in words: a bot's is seen nowhere else
            last = state.pieces[-1]
            tiny_text(canvas, (0, LAST_MOVE_TOP_PX), f"last: {self.names[last.player]} {last.placement.text()}")
        footer(canvas, "NEXT:board", "SELECT:new", rule=not state.pieces)  # the tiny row takes the rule's place
