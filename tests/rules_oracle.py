"""A second, deliberately naive reading of the rulebook, to check the engine's choices against.

It places the two sums of each split one at a time, in both orders, on a copy of the runners,
exactly as a player would move the markers, and keeps what could be placed.
"""

from __future__ import annotations

from engine.cant_stop import HEIGHTS, State

PAIRINGS = (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))


def _climb(state: State, column: int, space: int) -> int:
    space += 1
    if state.variant.jumping:
        taken = {state.saved_space(p, column) for p in range(state.players) if p != state.current}
        while space in taken and space < HEIGHTS[column]:
            space += 1
    return space


def _place(state: State, runners: dict[int, int] | None, column: int) -> dict[int, int] | None:
    if runners is None or state.owner(column) is not None:
        return None
    if column in runners:
        if runners[column] == HEIGHTS[column]:
            return None
        start = runners[column]
    elif len(runners) == 3:
        return None
    else:
        start = state.saved_space(state.current, column)
    return {**runners, column: _climb(state, column, start)}


def oracle_choices(state: State, dice: tuple[int, ...]) -> dict[str, dict[int, int]]:
    """Each legal choice's text and the runners it leaves."""
    start = dict(state.runners)
    found: dict[str, dict[int, int]] = {}
    for first, second in PAIRINGS:
        sums = (dice[first[0]] + dice[first[1]], dice[second[0]] + dice[second[1]])
        both = [
            _place(state, _place(state, start, a), b) for a, b in (sums, sums[::-1])
        ]
        placed = [r for r in both if r is not None]
        if placed:
            found["+".join(map(str, sorted(sums)))] = placed[0]
            continue
        for column in sums:
            runners = _place(state, start, column)
            if runners is not None:
                found[str(column)] = runners
    return found
