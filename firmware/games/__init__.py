"""The games the companion plays, each in a folder of its own: its table flow, screens, set-up
options and bots. The core finds them here by kind; adding a game is a folder and a line below."""

from __future__ import annotations

from firmware.games.cant_stop.table import TABLE as CANT_STOP
from firmware.games.columns.table import TABLE as COLUMNS
from firmware.games.counters.table import TABLE as COUNTERS
from firmware.games.tumblin.table import TABLE as TUMBLIN
from firmware.table_game import TableGame

GAMES: tuple[TableGame, ...] = (CANT_STOP, COUNTERS, COLUMNS, TUMBLIN)
DEFAULT_KIND = GAMES[0].kind


class UnknownGameError(ValueError):
    """A game kind that no game here plays."""


def kinds() -> tuple[str, ...]:
    return tuple(game.kind for game in GAMES)


def table_game(kind: str) -> TableGame:
    """The game of this kind; UnknownGameError names the kinds there are."""
    for game in GAMES:
        if game.kind == kind:
            return game
    raise UnknownGameError(f"no game {kind!r}: the companion plays {', '.join(kinds())}")
