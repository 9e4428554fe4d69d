"""The games the companion plays, each in a folder of its own: its table flow, screens, set-up
options, bots and web pictures. Importing this package lists them in the core's catalogue
(:mod:`firmware.core.catalogue`), where the rooms below find a game by kind; adding a game is a
folder and a line in GAMES, one in WEB_VIEWS and, for a game with choices to review, one in
REVIEWS below."""

from __future__ import annotations

from firmware.core import catalogue
from firmware.core.catalogue import WebView
from firmware.core.reviewing import Reviewer
from firmware.core.table_game import TableGame
from firmware.games.cant_stop import web as cant_stop_web
from firmware.games.cant_stop.review import REVIEW as CANT_STOP_REVIEW
from firmware.games.cant_stop.table import TABLE as CANT_STOP
from firmware.games.columns import web as columns_web
from firmware.games.columns.review import REVIEW as COLUMNS_REVIEW
from firmware.games.columns.table import TABLE as COLUMNS
from firmware.games.counters import web as counters_web
from firmware.games.counters.review import REVIEW as COUNTERS_REVIEW
from firmware.games.counters.table import TABLE as COUNTERS
from firmware.games.tumblin import web as tumblin_web
from firmware.games.tumblin.table import TABLE as TUMBLIN
from firmware.games.yacht import web as yacht_web
from firmware.games.yacht.review import REVIEW as YACHT_REVIEW
from firmware.games.yacht.table import TABLE as YACHT

GAMES: tuple[TableGame, ...] = (CANT_STOP, COUNTERS, COLUMNS, TUMBLIN, YACHT)  # the first is the default

WEB_VIEWS: dict[str, WebView] = {
    CANT_STOP.kind: cant_stop_web,
    COUNTERS.kind: counters_web,
    COLUMNS.kind: columns_web,
    TUMBLIN.kind: tumblin_web,
    YACHT.kind: yacht_web,
}

REVIEWS: dict[str, Reviewer] = {  # Tumblin' Dice is a game of skill: no choices to review
    CANT_STOP.kind: CANT_STOP_REVIEW,
    COUNTERS.kind: COUNTERS_REVIEW,
    COLUMNS.kind: COLUMNS_REVIEW,
    YACHT.kind: YACHT_REVIEW,
}

catalogue.list_games(GAMES, WEB_VIEWS, REVIEWS)
