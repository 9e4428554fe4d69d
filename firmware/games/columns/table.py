"""Columns at the table: no dice, the players tell the companion what they placed.

The screen is the board. NEXT steps through the legal placements (grouped by kind of piece:
roundels, single, double and triple blockers, each by column), STOP steps back, ROLL jumps to
the next kind of piece, SELECT confirms the placement shown (checkered on the board). With hints
the list starts at the advisor's pick, starred. The game ends when the player to move cannot
place anything; then NEXT shows the final board and SELECT starts a new game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engine.columns import GAME, Placement, State
from engine.columns.board import BOARDS, GRID, ROW, board_named
from engine.errors import VariantError
from firmware.core.table_game import (
    Action,
    AutoSeats,
    CameraUse,
    Cursor,
    NewGame,
    Options,
    Play,
    Progress,
    Say,
    SetupOption,
    ShowBoard,
    View,
)
from firmware.drawing.screens import Screen
from firmware.games.columns.choices import advised, listed, next_kind
from firmware.games.columns.screens import BoardScreen, PlaceScreen, ResultScreen
from hardware.buttons import Press
from hardware.camera import Toss


BOARD_ALLOWED = " or ".join(f'"{name}"' for name in BOARDS)


def _board(value: Any, base: Path) -> str:
    """The board's layout by name (engine.columns.board.BOARDS)."""
    try:
        return board_named(value).name
    except VariantError:
        raise VariantError(f"allowed is {BOARD_ALLOWED}") from None


# The real board is the 3x4 grid; games journaled before the companion knew it were played on the row.
# The key is "layout": "board" is Counters' board file, and one [game] section holds every game's options.
OPTIONS = (SetupOption("layout", "Board", GRID.name, None, _board, BOARD_ALLOWED, legacy=ROW.name),)


class ColumnsTable:
    """Columns (Pin International) for two players: 12 pins of 5 levels (a 3x4 grid), no dice."""

    kind = GAME.name
    camera: CameraUse = ""
    draws = True
    advised = True
    title = "Columns"
    engine = GAME
    players = range(2, 3)
    options = OPTIONS

    def variant(self, options: Options) -> dict[str, Any]:
        return {"board": options.get("layout", GRID.name)}

    def summary(self, options: Options) -> str:
        return board_named(options.get("layout", GRID.name)).title

    def progress(self, state: State) -> Progress:
        placed = len(state.pieces)
        return Progress(state.winner, placed if state.over else placed + 1, True, drawn=state.over and state.winner is None)

    def round(self, state: State) -> int:
        return (len(state.pieces) - state.over) // 2 + 1  # over: the round of the last placement

    def doing(self, state: State, names: Sequence[str]) -> str:
        return "over" if state.over else f"{names[state.current]}: to place"

    def undone_words(self, before: State, move: Placement) -> str:
        return GAME.move_text(move)  # "S B3", "L 10-11 down": the words the place screen uses

    def tray_dice(self, state: State) -> int:
        return 0

    def throw_due(self, state: State) -> bool:
        return False

    def lying(self, state: State) -> tuple[Toss, ...]:
        return ()  # the next throw says every die it leaves in the tray

    def throw(self, state: State, view: View) -> Toss:
        return Toss()

    def told(self, state: State, dice: tuple[int, ...]) -> tuple[Any, ...]:
        return ()  # never asked: no dice are due (tray_dice is 0)

    def screen(self, state: State, view: View) -> Screen:
        if state.over:
            return ResultScreen(state, view.names)
        moves = listed(state, view.hints)
        cursor = view.cursor % len(moves)
        advised = view.hints and cursor == 0
        return PlaceScreen(state, view.names, moves, cursor, advised, view.status, view.proxy)

    def press(self, state: State, press: Press, view: View) -> Action:
        if state.over:
            return ShowBoard() if press is Press.NEXT else NewGame() if press is Press.SELECT else None
        moves = listed(state, view.hints)
        cursor = view.cursor % len(moves)
        if press is Press.NEXT:
            return Cursor((cursor + 1) % len(moves))
        if press is Press.STOP:
            return Cursor((cursor - 1) % len(moves))
        if press is Press.ROLL:
            return Cursor(next_kind(moves, cursor))
        if press is Press.SELECT and view.bot_to_decide:
            return Say(f"{view.names[state.current]} decides")
        if press is Press.SELECT:
            return Play(moves[cursor])
        return None

    def after_move(self, before: State, move: Any, after: State, names: Sequence[str]) -> Screen | None:
        return None  # the board shows the piece placed last (a dot in it)

    def board(self, state: State, names: Sequence[str]) -> Screen:
        return BoardScreen(state, tuple(names))

    def bot_move(self, state: State) -> Any | None:
        return None if state.over else advised(state)

    def bot_screen(self, shown: Screen | None, before: State, move: Any, after: State, names: Sequence[str]) -> Screen | None:
        return None  # the next player's board shows the bot's piece, marked as placed last

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        from firmware.games.columns.bench_advisor import bench_lines

        return bench_lines(games, seed)

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> AutoSeats:
        from firmware.games.columns.autoplay import ColumnsSeats

        return ColumnsSeats.demo(seed)


TABLE = ColumnsTable()
