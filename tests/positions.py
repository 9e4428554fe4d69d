"""Build Can't Stop positions for tests by naming runners, saved pieces and claims."""

from __future__ import annotations

from dataclasses import replace

from engine.cant_stop import COLUMNS, State, Variant, new_game
from engine.cant_stop.board import column_index


def position(
    players: int = 2,
    runners: dict[int, int] | None = None,
    saved: dict[int, dict[int, int]] | None = None,
    claimed: dict[int, int] | None = None,
    current: int = 0,
    variant: Variant | None = None,
) -> State:
    """A state at the roll phase. ``saved`` maps player -> {column: space}; ``claimed`` column -> player."""
    state = new_game(players, variant)
    rows = [[0] * len(COLUMNS) for _ in range(players)]
    for player, spaces in (saved or {}).items():
        for column, space in spaces.items():
            rows[player][column_index(column)] = space
    owners: list[int | None] = [None] * len(COLUMNS)
    for column, owner in (claimed or {}).items():
        owners[column_index(column)] = owner
    return replace(
        state,
        saved=tuple(tuple(r) for r in rows),
        claimed=tuple(owners),
        runners=tuple(sorted((runners or {}).items())),
        current=current,
    )
