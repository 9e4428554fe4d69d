"""The set-up of a game: how many players, and the board (which travels inside every state)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.counters.board import Board, board_from_dict, default_board
from engine.errors import VariantError

MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Variant:
    """The board to play on; by default the package's assumed printed board."""

    board: Board = field(default_factory=default_board)

    def check(self, players: int) -> None:
        """Refuse a set-up the rules do not allow."""
        check_players(players)
        if not isinstance(self.board, Board):
            raise VariantError(f"board must be a Board, got {type(self.board).__name__}")


def make_variant(**settings: object) -> Variant:
    """A Variant from keyword settings: ``board=`` a Board or its dict form (as in the TOML file)."""
    unknown = sorted(set(settings) - {"board"})
    if unknown:
        raise VariantError(f"unknown variant setting {unknown[0]!r}; known: board")
    if "board" not in settings:
        return Variant()
    board = settings["board"]
    return Variant(board if isinstance(board, Board) else board_from_dict(board))


def check_players(players: object) -> None:
    """Refuse a player count outside 2..4."""
    if not isinstance(players, int) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise VariantError(
            f"Get Your Counters to the Top is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )
