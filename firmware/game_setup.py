"""Who plays and by which rules: the configuration's game section and the set-up screen's start."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cant_stop import Variant
from engine.cant_stop.board import MAX_PLAYERS, MIN_PLAYERS
from engine.cant_stop.variant import COLUMNS_TO_WIN_CHOICES, MAX_COLUMNS_TO_WIN

RULES = ("standard", "jumping", "forced-move")


@dataclass(frozen=True)
class GameSetup:
    """Player names (2 to 4), the rule variant, the columns needed to win, which seats the
    advisor plays, and whether it gives the humans hints."""

    names: tuple[str, ...] = ("Ann", "Bob")
    rule: str = "standard"
    columns_to_win: int = 3
    bots: tuple[str, ...] = ()  # names of the seats the advisor plays
    hints: bool = False

    def name(self, player: int) -> str:
        """The name of a seat; seats beyond the named ones are P3 and P4."""
        return self.names[player] if player < len(self.names) else f"P{player + 1}"

    def variant(self) -> Variant:
        return variant_for(self.rule, self.columns_to_win)


def variant_for(rule: str, columns_to_win: int) -> Variant:
    """The engine's Variant for a rule name from :data:`RULES`."""
    return Variant(columns_to_win, rule == "jumping", rule == "forced-move")


def player_counts() -> range:
    return range(MIN_PLAYERS, MAX_PLAYERS + 1)


def columns_to_win_choices(players: int) -> tuple[int, ...]:
    """The columns-to-win settings the rules allow for ``players``."""
    return tuple(c for c in COLUMNS_TO_WIN_CHOICES if c <= MAX_COLUMNS_TO_WIN[players])
