"""The set-up of a game: Columns is for exactly two players and has no options."""

from __future__ import annotations

from dataclasses import dataclass

from engine.columns.state import PLAYERS
from engine.errors import VariantError


@dataclass(frozen=True)
class Variant:
    """No settings: the board, the pieces and the rules are fixed."""

    def check(self, players: object) -> None:
        """Refuse any player count but two."""
        if not isinstance(players, int) or isinstance(players, bool) or players != PLAYERS:
            raise VariantError(f"Columns is for {PLAYERS} players, got {players!r}")


def make_variant(**settings: object) -> Variant:
    """The only variant; any setting is refused by name."""
    if settings:
        raise VariantError(f"unknown variant setting {sorted(settings)[0]!r}: Columns has none")
    return Variant()
