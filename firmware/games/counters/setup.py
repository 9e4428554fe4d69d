"""The game's set-up: its board. The printed board's layout is not published, so the companion
ships a plausible one (``engine/counters/default_board.toml``, marked as an assumption); a player
whose board differs copies that file, edits it, and names it in the configuration:

    [game]
    kind = "counters"
    board = "my-board.toml"   # relative to the configuration file

The file is checked whole when the configuration is read; the board travels with every game in
the journal, so editing the file later never changes a saved game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.counters import board_from_dict, board_from_toml, board_to_dict, default_board
from engine.counters.board import BoardError
from engine.counters.variant import HANDICAPS
from engine.errors import VariantError
from firmware.core.table_game import Options, SetupOption

BOARD_ALLOWED = "a board file (TOML) like engine/counters/default_board.toml"


def _board_file(value: Any, base: Path) -> dict[str, Any]:
    """The board in the file ``value`` names (relative to ``base``), checked (BoardError says why)."""
    if not isinstance(value, str) or not value or "\0" in value:
        raise BoardError(f"allowed is {BOARD_ALLOWED}")
    path = base / value
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise BoardError(f"cannot read the board file {path}: {_unreadable(error)}") from None
    try:
        return board_to_dict(board_from_toml(text))
    except BoardError as error:
        raise BoardError(f"the board file {path}: {error}") from None


def _unreadable(error: OSError | UnicodeDecodeError) -> str:
    """Why a file cannot be read, in plain words ("no such file or directory"): Python's own message
    says the errno and the path again ("[Errno 2] No such file or directory: '...'")."""
    if isinstance(error, UnicodeDecodeError):
        return "it is not UTF-8 text"
    if isinstance(error, IsADirectoryError):
        return "it is a folder"
    return (error.strerror or type(error).__name__).lower()


HANDICAP_ALLOWED = " or ".join(f'"{reading}"' for reading in HANDICAPS)


def _handicap(value: Any, base: Path) -> str:
    """How the handicap rule is read (engine.counters.variant.HANDICAPS)."""
    if value not in HANDICAPS:
        raise VariantError(f"allowed is {HANDICAP_ALLOWED}")
    return str(value)


OPTIONS = (
    SetupOption("board", "Board", board_to_dict(default_board()), None, _board_file, BOARD_ALLOWED),
    # "You should all select counters in different columns for this": every player's handicap
    # counters apart from all others'; games journaled before the reading were played "own".
    SetupOption("handicap", "Handicap", "apart", None, _handicap, HANDICAP_ALLOWED, legacy="own"),
)


def variant_of(options: Options) -> dict[str, Any]:
    """The engine's ``new_game`` keywords: the board, checked again (a journal row may be damaged),
    and the handicap's reading."""
    return {"board": board_from_dict(options.get("board", OPTIONS[0].default)),
            "handicap": options.get("handicap", OPTIONS[1].default)}


def summary(options: Options) -> str:
    """The options in a player's words: "assumed board layout" (the shipped one) or "own board layout"."""
    return "assumed board layout" if options.get("board", OPTIONS[0].default) == OPTIONS[0].default else "own board layout"
