"""The games the companion plays, each in a folder of its own: its table flow, screens, set-up
options, bots and web pictures. The core finds them here by kind; adding a game is a folder and a
line in GAMES and one in WEB_VIEWS below."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from firmware.core.table_game import TableGame
from firmware.drawing.facts import Fact
from firmware.games.cant_stop import web as cant_stop_web
from firmware.games.cant_stop.table import TABLE as CANT_STOP
from firmware.games.columns import web as columns_web
from firmware.games.columns.table import TABLE as COLUMNS
from firmware.games.counters import web as counters_web
from firmware.games.counters.table import TABLE as COUNTERS
from firmware.games.tumblin import web as tumblin_web
from firmware.games.tumblin.table import TABLE as TUMBLIN
from firmware.games.yacht import web as yacht_web
from firmware.games.yacht.table import TABLE as YACHT

GAMES: tuple[TableGame, ...] = (CANT_STOP, COUNTERS, COLUMNS, TUMBLIN, YACHT)
DEFAULT_KIND = GAMES[0].kind


class WebView(Protocol):
    """A game on the web page (each game's ``web`` module): its board drawn from an engine state,
    and the lines beside it."""

    def board_svg(self, state: Any, names: Sequence[str]) -> str:
        """A standalone SVG of the board (a viewBox and no size: the page scales it)."""
        ...

    def facts(self, state: Any, names: Sequence[str]) -> list[Fact]:
        """(label, value) lines: whose turn and what they do, the last roll and its options or
        odds, the score; the winner when the game is over. A list of things is a list of pieces
        (:mod:`firmware.drawing.facts`), so that none is broken across two lines."""
        ...

    def move_words(self, before: Any, move: Any, after: Any, names: Sequence[str]) -> str:
        """A move as a player says it, who did what, short enough for a line of a phone: "Ann
        rolled 6 6 6 6: bust", "Bob (green): did not pass 0x", "Ann kept 3 and 4" (a game's steps
        and its last moves on the page)."""
        ...


WEB_VIEWS: dict[str, WebView] = {
    CANT_STOP.kind: cant_stop_web,
    COUNTERS.kind: counters_web,
    COLUMNS.kind: columns_web,
    TUMBLIN.kind: tumblin_web,
    YACHT.kind: yacht_web,
}


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


def web_view(kind: str) -> WebView:
    """The web pictures of the game of this kind; UnknownGameError names the kinds there are."""
    return WEB_VIEWS[table_game(kind).kind]
