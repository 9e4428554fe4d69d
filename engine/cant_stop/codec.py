"""States to and from JSON, so the device can log, show and replay them; input is checked fully."""

from __future__ import annotations

from typing import Any

from engine.cant_stop.board import COLUMNS, DICE, HEIGHTS, MAX_RUNNERS, column_index
from engine.cant_stop.rules import choices, opponent_on
from engine.cant_stop.state import Phase, State
from engine.cant_stop.variant import make_variant
from engine.dice import check_roll, parse_roll
from engine.errors import StateFormatError
from engine.state_json import build_state, check_header, dump_state, load_object, whole_number

GAME_NAME = "cant-stop"
FORMAT_VERSION = 1


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict; columns are keyed by their number so the text reads like the board."""
    return {
        "game": GAME_NAME,
        "version": FORMAT_VERSION,
        "players": state.players,
        "variant": {
            "columns_to_win": state.variant.columns_to_win,
            "jumping": state.variant.jumping,
            "forced_move": state.variant.forced_move,
        },
        "saved": [
            {str(c): row[column_index(c)] for c in COLUMNS if row[column_index(c)]}
            for row in state.saved
        ],
        "claimed": {str(c): state.owner(c) for c in COLUMNS if state.owner(c) is not None},
        "current": state.current,
        "runners": {str(c): space for c, space in state.runners},
        "phase": state.phase.value,
        "dice": None if state.dice is None else state.dice.text(),
        "turn": state.turn,
        "winner": state.winner,
    }


def to_json(state: State) -> str:
    """The state as compact JSON text."""
    return dump_state(state_to_dict(state))


def from_json(text: str) -> State:
    """A state from JSON text; anything malformed or impossible raises StateFormatError."""
    return state_from_dict(load_object(text))


def state_from_dict(data: object) -> State:
    """A state from a decoded JSON dict, checked against the rules' invariants."""
    return build_state(data, _build, _check_consistent)


def _build(data: dict[str, Any]) -> State:
    check_header(data, GAME_NAME, "Can't Stop", FORMAT_VERSION)
    players = data["players"]
    variant = make_variant(**data["variant"])
    variant.check(players)
    saved_rows = data["saved"]
    if len(saved_rows) != players:
        raise StateFormatError(f"saved pieces are listed for {len(saved_rows)} players, not {players}")
    saved = tuple(_column_row(row, "saved piece") for row in saved_rows)
    claimed_map = {_column(k): whole_number(v, "claiming player") for k, v in data["claimed"].items()}
    runners = tuple(sorted((_column(k), whole_number(v, "runner space")) for k, v in data["runners"].items()))
    dice = None if data["dice"] is None else parse_roll(data["dice"])
    if dice is not None:
        check_roll(dice, DICE)
    winner = data["winner"]
    return State(
        players=players,
        variant=variant,
        saved=saved,
        claimed=tuple(claimed_map.get(c) for c in COLUMNS),
        current=whole_number(data["current"], "current player"),
        runners=runners,
        phase=Phase(data["phase"]),
        dice=dice,
        turn=whole_number(data["turn"], "turn"),
        winner=None if winner is None else whole_number(winner, "winner"),
    )


def _column(key: str) -> int:
    if not (key.isascii() and key.isdigit() and str(int(key)) == key):
        raise StateFormatError(f"column {key!r} must be written as a plain number from 2 to 12")
    column = int(key)
    if column not in HEIGHTS:
        raise StateFormatError(f"column {key!r} does not exist (columns are 2 to 12)")
    return column


def _column_row(row: dict[str, Any], what: str) -> tuple[int, ...]:
    spaces = {_column(k): whole_number(v, what) for k, v in row.items()}
    return tuple(spaces.get(c, 0) for c in COLUMNS)


def _check_consistent(state: State) -> None:
    """Refuse states the rules could never reach."""
    players = range(state.players)
    if state.current not in players:
        raise StateFormatError(f"current player {state.current} does not exist")
    if state.turn < 1 or (state.turn - 1) % state.players != state.current:
        raise StateFormatError(
            f"turn {state.turn} cannot be player {state.current + 1}'s: turns pass in seat order from player 1"
        )
    for player, row in enumerate(state.saved):
        for column, space in zip(COLUMNS, row):
            if not 0 <= space <= HEIGHTS[column]:
                raise StateFormatError(
                    f"player {player + 1}'s piece in column {column} is on space {space}, "
                    f"but the column has {HEIGHTS[column]} spaces"
                )
            owner = state.owner(column)
            if owner is not None and space and owner != player:
                raise StateFormatError(
                    f"column {column} is claimed by player {owner + 1} but holds player {player + 1}'s piece"
                )
            if owner is None and space == HEIGHTS[column]:
                raise StateFormatError(
                    f"player {player + 1} is at the top of column {column}, which is not claimed"
                )
    for column in COLUMNS:
        owner = state.owner(column)
        if owner is not None and owner not in players:
            raise StateFormatError(f"column {column} is claimed by player {owner + 1}, who does not exist")
        if owner is not None and state.saved_space(owner, column) != HEIGHTS[column]:
            raise StateFormatError(
                f"column {column} is claimed by player {owner + 1}, whose piece is not on its top"
            )
    if len(state.runners) > MAX_RUNNERS:
        raise StateFormatError(f"{len(state.runners)} runners are out; at most {MAX_RUNNERS} are allowed")
    for column, space in state.runners:
        if state.owner(column) is not None:
            raise StateFormatError(f"a runner stands in column {column}, which is claimed")
        if not state.saved_space(state.current, column) < space <= HEIGHTS[column]:
            raise StateFormatError(
                f"the runner in column {column} is on space {space}, which is not above the saved piece "
                f"and within the column's {HEIGHTS[column]} spaces"
            )
        if state.variant.jumping and opponent_on(state, column, space) is not None:
            raise StateFormatError(
                f"with Jumping no runner can stand on another player's piece (column {column})"
            )
    _check_phase(state)


def _check_phase(state: State) -> None:
    if (state.phase is Phase.CHOOSE) != (state.dice is not None):
        raise StateFormatError("dice must be given exactly when a choice is pending")
    if state.dice is not None and not choices(state, state.dice):
        raise StateFormatError(f"{state.dice} allows no choice here: it would have busted")
    winners = [p for p in range(state.players) if len(state.claimed_by(p)) >= state.variant.columns_to_win]
    if state.phase is Phase.OVER:
        if winners != [state.winner] or state.winner != state.current or state.runners:
            raise StateFormatError(
                "a finished game needs exactly one winner, the player who moved last, "
                "holding the target number of columns"
            )
    elif state.winner is not None or winners:
        raise StateFormatError("a game with a winner must be over")
