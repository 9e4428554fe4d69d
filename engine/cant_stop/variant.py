"""Variant settings from the rulebook and the limits on combining them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.cant_stop.board import MAX_PLAYERS, MIN_PLAYERS
from engine.errors import VariantError

DEFAULT_COLUMNS_TO_WIN = 3
COLUMNS_TO_WIN_CHOICES = (3, 4, 5)
# The rulebook caps the columns needed to win by the number of players.
MAX_COLUMNS_TO_WIN = {2: 5, 3: 4, 4: 3}


@dataclass(frozen=True)
class Variant:
    """Columns needed to win (3, 4 or 5), and at most one of Jumping and Forced Move."""

    columns_to_win: int = DEFAULT_COLUMNS_TO_WIN
    jumping: bool = False
    forced_move: bool = False

    def check(self, players: int) -> None:
        """Refuse a variant the rules do not allow for this many players."""
        check_players(players)
        for name in ("jumping", "forced_move"):
            if not isinstance(getattr(self, name), bool):
                raise VariantError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if type(self.columns_to_win) is not int or self.columns_to_win not in COLUMNS_TO_WIN_CHOICES:
            raise VariantError(
                f"columns to win must be 3, 4 or 5, got {self.columns_to_win!r}"
            )
        cap = MAX_COLUMNS_TO_WIN[players]
        if self.columns_to_win > cap:
            raise VariantError(
                f"{players} players can play to at most {cap} columns, "
                f"got {self.columns_to_win}"
            )
        if self.jumping and self.forced_move:
            raise VariantError(
                "Jumping and Forced Move cannot be combined: "
                "with Jumping a runner never stands on an occupied space"
            )


def make_variant(**settings: object) -> Variant:
    """A Variant from keyword settings, refusing names the rules do not know."""
    known = {"columns_to_win", "jumping", "forced_move"}
    unknown = sorted(set(settings) - known)
    if unknown:
        raise VariantError(
            f"unknown variant setting {unknown[0]!r}; known: {', '.join(sorted(known))}"
        )
    return Variant(**settings)  # type: ignore[arg-type]


def check_players(players: object) -> None:
    """Refuse a player count outside 2..4."""
    if not isinstance(players, int) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise VariantError(
            f"Can't Stop is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )
