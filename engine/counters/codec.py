"""States to and from JSON, so the device can log, show and replay them; input is checked fully."""

from __future__ import annotations

from typing import Any

from engine.counters.board import COLUMN_NAMES, board_from_dict, board_to_dict
from engine.counters.moves import DICE
from engine.counters.rules import COLUMNS, MAX_THROWS
from engine.counters.state import Phase, State, has_reached_goal
from engine.counters.variant import HANDICAPS, check_players
from engine.dice import FACES
from engine.errors import StateFormatError
from engine.state_json import build_state, check_header, dump_state, load_object, refuse_unknown_fields, whole_number

GAME_NAME = "counters"
FORMAT_VERSION = 1
FIELDS = ("game", "version", "board", "positions", "current", "phase", "dice", "kept", "throws",
          "rockets", "turn", "winner", "handicap")


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict; counters are keyed by column name (bottom-row counters left out)."""
    return {
        "game": GAME_NAME,
        "version": FORMAT_VERSION,
        "board": board_to_dict(state.board),
        "positions": [
            {name: square for name, square in zip(COLUMN_NAMES, row) if square} for row in state.positions
        ],
        "current": state.current,
        "phase": state.phase.value,
        "dice": list(state.dice),
        "kept": list(state.kept),
        "throws": state.throws,
        "rockets": state.rockets,
        "turn": state.turn,
        "winner": state.winner,
        "handicap": state.handicap,
    }


def to_json(state: State) -> str:
    """The state as compact JSON text, its board included: a saved game keeps the board it began on."""
    return dump_state(state_to_dict(state))


def from_json(text: str) -> State:
    """A state from JSON text; anything malformed, or that the rules could never reach, is refused."""
    return build_state(load_object(text), _build, _check_consistent)


def _build(data: dict[str, Any]) -> State:
    check_header(data, GAME_NAME, "Get Your Counters to the Top", FORMAT_VERSION)
    refuse_unknown_fields(data, FIELDS)
    board = board_from_dict(data["board"])
    rows = data["positions"]
    if not isinstance(rows, list):
        raise StateFormatError(f"positions must be a list, one entry per player, got {rows!r}")
    check_players(len(rows))
    winner = data["winner"]
    return State(
        board=board,
        positions=tuple(_row(player, row) for player, row in enumerate(rows)),
        current=whole_number(data["current"], "current player"),
        phase=Phase(data["phase"]),
        dice=_dice(data["dice"], "dice"),
        kept=_dice(data["kept"], "kept dice"),
        throws=whole_number(data["throws"], "throws"),
        rockets=whole_number(data["rockets"], "rockets"),
        turn=whole_number(data["turn"], "turn"),
        winner=None if winner is None else whole_number(winner, "winner"),
        handicap=_handicap(data.get("handicap", "own")),  # states written before it was kept: the reading then
    )


def _handicap(value: object) -> str:
    if value not in HANDICAPS:
        raise StateFormatError(f"handicap must be one of {', '.join(HANDICAPS)}, got {value!r}")
    return str(value)


def _dice(values: object, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(whole_number(v, what) in FACES for v in values):
        raise StateFormatError(f"{what} must be a list of values from 1 to 6, got {values!r}")
    if values != sorted(values):
        raise StateFormatError(f"{what} must be listed in order, got {values!r}")
    return tuple(values)


def _row(player: int, row: object) -> tuple[int, ...]:
    who = f"player {player + 1}"
    if not isinstance(row, dict):
        raise StateFormatError(f"{who}'s counters must be an object keyed by column, got {row!r}")
    unknown = sorted(set(row) - set(COLUMN_NAMES))
    if unknown:
        raise StateFormatError(f"{who} has a counter in column {unknown[0]!r}, which does not exist")
    squares = tuple(whole_number(row.get(n, 0), f"{who}'s square in column {n}") for n in COLUMN_NAMES)
    if any(name in row and not row[name] for name in COLUMN_NAMES):
        raise StateFormatError(f"{who}'s counters on the bottom row are left out, not written as 0")
    return squares


def _check_consistent(state: State) -> None:
    """Refuse states the rules could never reach."""
    if state.current not in range(state.players):
        raise StateFormatError(f"current player {state.current} does not exist")
    for player, row in enumerate(state.positions):
        for column, square in zip(COLUMNS, row):
            top = state.board[column].top
            if not 0 <= square <= top:
                raise StateFormatError(
                    f"player {player + 1}'s counter in column {COLUMN_NAMES[column]} is on square {square}, "
                    f"but the column runs from 0 to {top}"
                )
    if state.phase is Phase.HANDICAP:
        _check_handicap(state)
    elif state.turn < 1 or (state.turn - 1) % state.players != state.current:
        raise StateFormatError(
            f"turn {state.turn} cannot be player {state.current + 1}'s: "
            "turns pass in seat order from player 1"
        )
    _check_phase(state)
    reached = [p for p in range(state.players) if has_reached_goal(state, p)]
    if state.phase is Phase.OVER:
        if reached != [state.winner] or state.winner != state.current:
            raise StateFormatError(
                "a finished game needs exactly one winner, the player who moved last, with the goal reached"
            )
    elif state.winner is not None or reached:
        raise StateFormatError("a game with a player at the goal must be over, and only then has a winner")


def _check_handicap(state: State) -> None:
    if state.turn != 0 or not 1 <= state.current < state.players:
        raise StateFormatError(
            f"the handicap is moved by players 2 to {state.players} before turn 1, "
            f"not by player {state.current + 1} in turn {state.turn}"
        )
    for player, row in enumerate(state.positions):
        moved = player if player < state.current else 0
        if sorted(row) != [0] * (len(row) - moved) + [1] * moved:
            raise StateFormatError(
                f"during the handicap player {player + 1} has {moved} counter(s) one square up, "
                f"the others on the bottom row"
            )


def _check_phase(state: State) -> None:
    phase, throws = state.phase, state.throws
    expect = {  # (dice on the table, how many kept, throws made, rockets due) each phase allows
        Phase.HANDICAP: ({0}, {0}, {0}, {0}),
        Phase.THROW: ({0}, set(range(DICE)) if throws else {0}, set(range(MAX_THROWS)), {0}),
        Phase.CHOOSE: ({DICE}, {0}, set(range(1, MAX_THROWS + 1)), {0}),
        Phase.ROCKET: ({0}, {0}, set(range(1, MAX_THROWS + 1)), {1, 2}),  # two groups at most
        Phase.OVER: ({0}, {0}, set(range(1, MAX_THROWS + 1)), {0}),
    }[phase]
    found = (len(state.dice), len(state.kept), throws, state.rockets)
    names = ("dice on the table", "kept dice", "throws", "rocket squares due")
    for what, value, allowed in zip(names, found, expect):
        if value not in allowed:
            raise StateFormatError(
                f"{value} {what} cannot be in the {phase.value} phase (allowed: {sorted(allowed)})"
            )
