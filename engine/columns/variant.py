"""The set-up of a game: Columns is for exactly two players; the only setting is the board's layout."""

from __future__ import annotations

from dataclasses import dataclass

from engine.columns.board import GRID, Board, board_named
from engine.columns.state import PLAYERS
from engine.errors import VariantError


@dataclass(frozen=True)
class Variant:
    """The pieces and the rules are fixed; ``board`` is "grid" (the real 3x4 pins, the default)
    or "row" (one row of 12, what games recorded before the grid were played on)."""

    board: str = GRID.name

    def __post_init__(self) -> None:
        board_named(self.board)

    @property
    def layout(self) -> Board:
        return board_named(self.board)

    def check(self, players: object) -> None:
        """Refuse any player count but two."""
        if not isinstance(players, int) or isinstance(players, bool) or players != PLAYERS:
            raise VariantError(f"Columns is for {PLAYERS} players, got {players!r}")


def make_variant(**settings: object) -> Variant:
    """The variant from its settings (only ``board``); any other setting is refused by name."""
    unknown = sorted(set(settings) - {"board"})
    if unknown:
        raise VariantError(f"unknown variant setting {unknown[0]!r}: Columns has only 'board'")
    return Variant(**settings)  # type: ignore[arg-type]
