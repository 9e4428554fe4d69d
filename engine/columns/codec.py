"""States to and from JSON, so the device can log, show and replay them; input is checked fully.

The board's layout is named ("grid" or "row"; states written before the grid was known have no
name and were played on the row). The pieces are listed in the order they were placed, each with
its player (0 or 1), its move text and the level (1..5) its own column starts at; the pieces left, whose turn it is and the
result are written out too. Reading refuses cells above level 5, overlapping pieces, gaps,
counts that do not add up to the 21 pieces, and any order of placing the rules do not allow.
"""

from __future__ import annotations

from typing import Any

from engine.columns.board import ROW, Board, board_named
from engine.columns.moves import KINDS, LEVELS, parse_move
from engine.columns.rules import new_game, place, why_not
from engine.columns.state import PLAYERS, STOCK, Piece, Stacks, State
from engine.columns.variant import Variant
from engine.errors import StateFormatError
from engine.state_json import build_state, check_header, dump_state, load_object, refuse_unknown_fields, whole_number

GAME_NAME = "columns"
FORMAT_VERSION = 1
FIELDS = ("game", "version", "board", "pieces", "left", "current", "over", "winner")
PIECE_FIELDS = ("player", "piece", "level")


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict (players are indices from 0, levels and columns named from 1)."""
    return {
        "game": GAME_NAME,
        "version": FORMAT_VERSION,
        "board": state.board.name,
        "pieces": [
            {"player": p.player, "piece": p.placement.text(), "level": p.base + 1} for p in state.pieces
        ],
        "left": [{kind.value: n for kind, n in zip(KINDS, row)} for row in state.left],
        "current": state.current,
        "over": state.over,
        "winner": state.winner,
    }


def to_json(state: State) -> str:
    """The state as compact JSON text."""
    return dump_state(state_to_dict(state))


def from_json(text: str) -> State:
    """A state from JSON text; anything malformed, or that the rules could never reach, is refused."""
    return build_state(load_object(text), _build, _check_reachable)


def _build(data: dict[str, Any]) -> State:
    check_header(data, GAME_NAME, "Columns", FORMAT_VERSION)
    refuse_unknown_fields(data, FIELDS)
    if not isinstance(data["pieces"], list):
        raise StateFormatError(f"pieces must be a list, got {data['pieces']!r}")
    board = board_named(data.get("board", ROW.name))  # states written before the grid: the row
    pieces = tuple(_piece(n, entry, board) for n, entry in enumerate(data["pieces"]))
    left = data["left"]
    if not isinstance(left, list) or len(left) != PLAYERS:
        raise StateFormatError(f"left must list the pieces left of each of the {PLAYERS} players, got {left!r}")
    over, winner = data["over"], data["winner"]
    if not isinstance(over, bool):
        raise StateFormatError(f"over must be true or false, got {over!r}")
    return State(
        pieces=pieces,
        stacks=_stacks(pieces, board),
        left=tuple(_left(player, row) for player, row in enumerate(left)),
        current=whole_number(data["current"], "current player"),
        over=over,
        winner=None if winner is None else whole_number(winner, "winner"),
        board=board,
    )


def _piece(number: int, entry: object, board: Board) -> Piece:
    if not isinstance(entry, dict) or sorted(entry) != sorted(PIECE_FIELDS):
        raise StateFormatError(f"piece {number + 1} must be an object with {', '.join(PIECE_FIELDS)}, got {entry!r}")
    player = whole_number(entry["player"], f"piece {number + 1}'s player")
    if player not in range(PLAYERS):
        raise StateFormatError(f"piece {number + 1} belongs to player index {player}, not 0 or 1")
    if not isinstance(entry["piece"], str):
        raise StateFormatError(f"piece {number + 1} must be written like 'R 7', got {entry['piece']!r}")
    level = whole_number(entry["level"], f"piece {number + 1}'s level")
    placement = parse_move(entry["piece"])
    if placement.board != board:
        raise StateFormatError(
            f"piece {number + 1} ({placement}) is not on the {board.title}: its columns are {board.pin_range}"
        )
    return Piece(player, placement, level - 1)


def _stacks(pieces: tuple[Piece, ...], board: Board) -> Stacks:
    """Each column's piece ids from level 1 up; pieces off the board, overlapping or over a gap are refused."""
    filled: dict[tuple[int, int], int] = {}
    for piece_id, piece in enumerate(pieces):
        for column, level, _ in piece.cells():
            where = f"column {board.pin_name(column)} level {level + 1}"
            if not 0 <= level < LEVELS:
                raise StateFormatError(f"piece {piece_id + 1} ({piece.placement}) fills {where}: levels run from 1 to {LEVELS}")
            if (column, level) in filled:
                raise StateFormatError(f"pieces {filled[column, level] + 1} and {piece_id + 1} both fill {where}")
            filled[column, level] = piece_id
    stacks = []
    for column in range(board.pins):
        height = sum(1 for c, _ in filled if c == column)
        gaps = [level for level in range(height) if (column, level) not in filled]
        if gaps:
            raise StateFormatError(f"column {board.pin_name(column)} has a gap at level {gaps[0] + 1}: no gaps are allowed")
        stacks.append(tuple(filled[column, level] for level in range(height)))
    return tuple(stacks)


def _left(player: int, row: object) -> tuple[int, ...]:
    names = [kind.value for kind in KINDS]
    if not isinstance(row, dict) or sorted(row) != sorted(names):
        raise StateFormatError(f"player {player + 1}'s pieces left must be an object keyed {', '.join(names)}, got {row!r}")
    return tuple(whole_number(row[name], f"player {player + 1}'s {name} left") for name in names)


def _check_reachable(state: State) -> None:
    """Refuse states the rules could never reach: counts, then the placing order replayed move by move."""
    for player in range(PLAYERS):
        for kind, stock, left in zip(KINDS, STOCK, state.left[player]):
            placed = sum(1 for p in state.pieces if p.player == player and p.kind is kind)
            if left < 0 or placed + left != stock:
                raise StateFormatError(
                    f"piece counts are not conserved: player {player + 1} has {placed} placed "
                    f"and {left} left of {stock} {kind.title}s"
                )
    replayed = new_game(PLAYERS, Variant(state.board.name))
    for number, piece in enumerate(state.pieces):
        what = f"piece {number + 1} ({piece.placement} by player {piece.player + 1})"
        if piece.player != replayed.current and not replayed.over:
            raise StateFormatError(f"{what} was placed in player {replayed.current + 1}'s turn: turns alternate from player 1")
        problem = why_not(replayed, piece.placement)
        if problem:
            raise StateFormatError(f"{what} could not have been placed: {problem}")
        replayed = place(replayed, piece.placement)
        if replayed.pieces[-1] != piece:
            raise StateFormatError(
                f"{what} would rest at level {replayed.pieces[-1].base + 1}, not {piece.base + 1}: "
                "a piece is listed before one under it"
            )
    if (state.current, state.over, state.winner) != (replayed.current, replayed.over, replayed.winner):
        expected = "over" if replayed.over else f"player {replayed.current + 1} to place"
        raise StateFormatError(
            f"current {state.current}, over {state.over}, winner {state.winner} do not fit the board: "
            f"it is {expected}" + (f", winner {replayed.winner}" if replayed.over else "")
        )
