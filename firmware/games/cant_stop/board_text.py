"""The Can't Stop board as plain text, for the terminal demo and logs."""

from __future__ import annotations

from engine.cant_stop import COLUMNS, HEIGHTS, State
from firmware.drawing.screens import player_mark

RUNNER_MARK = "^"
EMPTY_MARK = "."
SHARED_MARK = "*"


def board_text(state: State) -> str:
    """One line per column, bottom space on the left: saved pieces as letters, runners as ^."""
    lines = []
    for column in COLUMNS:
        cells = []
        for space in range(1, HEIGHTS[column] + 1):
            here = [player_mark(p) for p in range(state.players) if state.saved_space(p, column) == space]
            if state.runner_space(column) == space:
                here.append(RUNNER_MARK)
            cells.append(here[0] if len(here) == 1 else SHARED_MARK if here else EMPTY_MARK)
        owner = state.owner(column)
        note = f"  won by {player_mark(owner)}" if owner is not None else ""
        lines.append(f"{column:>3} |{''.join(cells):<13}|{note}")
    return "\n".join(lines)
