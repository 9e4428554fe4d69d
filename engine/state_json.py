"""A game's state as JSON text, written compactly and read back strictly.

Each game builds and checks its own fields; this is what every game's codec shares.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Callable, TypeVar

from engine.errors import EngineError, StateFormatError

StateT = TypeVar("StateT")


def dump_state(data: dict[str, Any]) -> str:
    """Compact JSON text of a state's dict form."""
    return json.dumps(data, separators=(",", ":"))


def load_object(text: str) -> object:
    """Decoded JSON; invalid text and repeated keys are refused (a repeated key hides a value)."""
    try:
        return json.loads(text, object_pairs_hook=_no_repeated_keys)
    except (json.JSONDecodeError, RecursionError) as error:
        raise StateFormatError(f"state is not valid JSON: {error}") from None


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        raise StateFormatError("state JSON names the same key twice")
    return data


def build_state(
    data: object, build: Callable[[dict[str, Any]], StateT], check: Callable[[StateT], None]
) -> StateT:
    """``build(data)`` for a JSON object, then ``check`` it: any refusal is a StateFormatError."""
    if not isinstance(data, dict):
        raise StateFormatError("a state must be a JSON object")
    try:
        state = build(data)
    except EngineError as error:
        raise StateFormatError(f"invalid state: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise StateFormatError(f"invalid state: missing or malformed field ({error!r})") from None
    check(state)
    return state


def check_header(data: dict[str, Any], game: str, title: str, version: int) -> None:
    """Refuse another game's state, or a format version this code does not read."""
    if data.get("game") != game:
        raise StateFormatError(f"not a {title} state: game is {data.get('game')!r}")
    if data.get("version") != version:
        raise StateFormatError(
            f"state format version {data.get('version')!r} is not supported (expected {version})"
        )


def whole_number(value: object, what: str) -> int:
    """``value`` if it is a JSON integer (true and false are not), else a StateFormatError naming ``what``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise StateFormatError(f"{what} must be a whole number, got {value!r}")
    return value


def refuse_unknown_fields(data: dict[str, Any], fields: Iterable[str]) -> None:
    """Refuse a field this format does not have (a typo would otherwise be silently ignored)."""
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise StateFormatError(f"unknown state field {unknown[0]!r}")
