"""The set-up of a game: how many players, and the board (which travels inside every state)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.counters.board import Board, board_from_dict, default_board
from engine.errors import VariantError

MIN_PLAYERS, MAX_PLAYERS = 2, 4


HANDICAPS = ("apart", "own")
"""How the handicap's "You should all select counters in different columns for this" is read:
"apart", every player's handicap counters in columns no earlier player's took (all of them, as
the sentence says "all"); "own", only a player's own counters in different columns (how games
were played before the rule was read so: their journals keep replaying)."""


@dataclass(frozen=True)
class Variant:
    """The board to play on (by default the package's assumed printed board) and the handicap's reading."""

    board: Board = field(default_factory=default_board)
    handicap: str = "apart"

    def check(self, players: int) -> None:
        """Refuse a set-up the rules do not allow."""
        check_players(players)
        if not isinstance(self.board, Board):
            raise VariantError(f"board must be a Board, got {type(self.board).__name__}")
        if self.handicap not in HANDICAPS:
            raise VariantError(f"handicap must be one of {', '.join(HANDICAPS)}, got {self.handicap!r}")


def make_variant(**settings: object) -> Variant:
    """A Variant from keyword settings: ``board=`` a Board or its dict form (as in the TOML file),
    ``handicap=`` one of HANDICAPS."""
    unknown = sorted(set(settings) - {"board", "handicap"})
    if unknown:
        raise VariantError(f"unknown variant setting {unknown[0]!r}; known: board, handicap")
    board = settings.get("board", default_board())
    handicap = settings.get("handicap", "apart")
    if not isinstance(handicap, str):
        raise VariantError(f"handicap must be one of {', '.join(HANDICAPS)}, got {handicap!r}")
    return Variant(board if isinstance(board, Board) else board_from_dict(board), handicap)


def check_players(players: object) -> None:
    """Refuse a player count outside 2..4."""
    if not isinstance(players, int) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise VariantError(
            f"Get Your Counters to the Top is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )
