"""The decisions as the screen lists them (options best first, then keeps, then pass) and the
best option now: what the table's buttons and the bots at the buttons both go by."""

from __future__ import annotations

from typing import Any

from engine.counters import GAME, PASS, Keep, State, Take


def listed(state: State) -> tuple[Any, ...]:
    """The decisions in the order the list shows them: options (best first), then keeps, the
    handicaps or rocket squares, and pass (or no rocket) last (with hints the list opens on the
    advisor's pick: :func:`firmware.core.table_game.opened_on`)."""
    moves = GAME.legal_moves(state)
    takes = sorted((m for m in moves if isinstance(m, Take)), key=_take_score, reverse=True)
    return (*takes, *(m for m in moves if isinstance(m, Keep)),
            *(m for m in moves if not isinstance(m, (Take, Keep)) and m is not PASS), *(m for m in moves if m is PASS))


def _take_score(move: Take) -> int:
    """Squares the option would move (the list's order and "best now")."""
    return sum(group.squares for group in move.option.groups)


def best_now(state: State) -> Take | None:
    """The option that moves the most squares now (the list's first), or None without one."""
    takes = [m for m in GAME.legal_moves(state) if isinstance(m, Take)]
    return max(takes, key=_take_score) if takes else None
