"""Build Get Your Counters to the Top positions for tests, on a plain board with named specials."""

from __future__ import annotations

from dataclasses import replace

from engine.counters import COLUMN_NAMES, Board, Phase, State, apply, board_from_dict, column_index, new_game, parse_move
from engine.counters.variant import Variant


def plain_board(**specials: dict[str, object]) -> Board:
    """Columns 1..6 with squares 0..10 (space from 8), S with 0..8 (space from 6), no stars or
    rockets but the ones named: ``plain_board(**{"4": {"rockets": [3]}})``."""
    columns = {
        name: {"top": 8, "space_from": 6} if name == "S" else {"top": 10, "space_from": 8}
        for name in COLUMN_NAMES
    }
    for name, changes in specials.items():
        columns[name] = {**columns[name], **changes}
    return board_from_dict({"columns": columns})


def position(
    players: int = 2,
    squares: dict[int, dict[str, int]] | None = None,
    current: int = 0,
    dice: tuple[int, ...] | None = None,
    throws: int = 1,
    board: Board | None = None,
) -> State:
    """A state in player ``current``'s turn. ``squares`` maps player -> {column name: square};
    with ``dice`` that throw (number ``throws``) is on the table, else five dice are due."""
    state = new_game(players, Variant(board or plain_board()))
    rows = [[0] * len(COLUMN_NAMES) for _ in range(players)]
    for player, placed in (squares or {}).items():
        for name, square in placed.items():
            rows[player][column_index(name)] = square
    state = replace(state, positions=tuple(map(tuple, rows)), current=current, turn=current + 1)
    if dice is None:
        return replace(state, phase=Phase.THROW)
    return replace(state, phase=Phase.CHOOSE, dice=tuple(sorted(dice)), throws=throws)


def squares_of(state: State, player: int) -> dict[str, int]:
    """``player``'s counters off the bottom row, by column name."""
    return {name: s for name, s in zip(COLUMN_NAMES, state.positions[player]) if s}


def play(state: State, *texts: str) -> State:
    """Apply moves and rolls given by their text forms, in order."""
    for text in texts:
        state = apply(state, parse_move(text))
    return state
