"""States to and from JSON, so the device can log, show and replay them.

A state is written as its variant and the moves from the start (the journal's own texts), with
what they lead to (round, whose flick, totals, the result) for a reader's eye. Reading replays
the moves through the rules, so any move the rules refuse, or a written result that the moves do
not give, is refused.
"""

from __future__ import annotations

import json
from typing import Any

from engine.errors import EngineError, StateFormatError
from engine.state_json import build_state, check_header, dump_state, load_object, refuse_unknown_fields
from engine.tumblin.moves import parse_move
from engine.tumblin.rules import apply, new_game
from engine.tumblin.state import State, round_number, totals
from engine.tumblin.variant import SETTINGS, make_variant

GAME_NAME = "tumblin"
FORMAT_VERSION = 1
FIELDS = ("game", "version", "variant", "moves", "round", "current", "totals", "over", "winner")
_DERIVED = FIELDS[4:]


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict (seats are indices from 0, rounds numbered from 1)."""
    return {
        "game": GAME_NAME,
        "version": FORMAT_VERSION,
        "variant": state.variant.settings(),
        "moves": [move.text() for move in state.log],
        "round": round_number(state),
        "current": state.current,
        "totals": list(totals(state)),
        "over": state.over,
        "winner": state.winner,
    }


def to_json(state: State) -> str:
    """The state as compact JSON text."""
    return dump_state(state_to_dict(state))


def from_json(text: str) -> State:
    """A state from JSON text; anything malformed, or that the rules could never reach, is refused."""
    return build_state(load_object(text), _build, lambda state: None)


def _build(data: dict[str, Any]) -> State:
    check_header(data, GAME_NAME, "Tumblin' Dice", FORMAT_VERSION)
    refuse_unknown_fields(data, FIELDS)
    missing = [name for name in FIELDS if name not in data]
    if missing:
        raise StateFormatError(f"missing state field {missing[0]!r}")
    settings = data["variant"]
    if isinstance(settings, dict):  # written before these readings were kept: the readings then
        settings = {"order": "round", "ties": "round", "zero": "stays", **settings}
    if not isinstance(settings, dict) or sorted(settings) != sorted(SETTINGS):
        raise StateFormatError(f"variant must be an object keyed {', '.join(SETTINGS)}, got {settings!r}")
    variant = make_variant(**settings)
    if variant.colours is None:
        raise StateFormatError("variant must name the players' colours, one per seat")
    if not isinstance(data["moves"], list) or not all(isinstance(t, str) for t in data["moves"]):
        raise StateFormatError(f"moves must be a list of move texts, got {data['moves']!r}")
    state = new_game(len(variant.colours), variant)
    for number, text in enumerate(data["moves"], 1):
        try:
            state = apply(state, parse_move(text))
        except EngineError as error:
            raise StateFormatError(f"move {number} ({text!r}) could not have been made: {error}") from None
    _check_derived(data, state)
    return state


def _check_derived(data: dict[str, Any], state: State) -> None:
    """The written round, turn, totals and result must be what the moves give."""
    replayed = state_to_dict(state)
    for name in _DERIVED:
        if json.dumps(data[name]) != json.dumps(replayed[name]):  # so true is not 1
            raise StateFormatError(f"{name} is {data[name]!r}, but the moves give {replayed[name]!r}")
