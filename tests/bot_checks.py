"""A bot wrapped so that every decision it makes is checked against the rules (for the games whose
bots answer ``choose(state)``: Counters, Columns)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Checked:
    """Wraps ``bot``: every decision must be one of ``legal_moves(state)``; counts them."""

    bot: Any
    legal_moves: Callable[[Any], tuple[Any, ...]]
    decisions: int = 0

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, state: Any) -> Any:
        move = self.bot.choose(state)
        assert move in self.legal_moves(state), f"{self.name}: {move} is not legal in {state}"
        self.decisions += 1
        return move
