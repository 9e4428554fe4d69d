"""The games the companion can host, found by kind, for the rooms that know no game.

The set-up screen lists them, the configuration and the journal check a game's kind and options
against them, the web page asks each for its pictures: all through here. The games themselves
sit above (``firmware/games/``) and are listed here by ``firmware/games/__init__.py`` when it is
imported, as the commands do before anything else, so every import points down.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from firmware.core.reviewing import Reviewer
from firmware.core.table_game import TableGame
from firmware.drawing.facts import Fact


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


class UnknownGameError(ValueError):
    """A game kind that no game here plays."""


class NoGamesListedError(RuntimeError):
    """The catalogue was read before ``firmware.games`` listed the games (a program that forgot to
    import it: a bug, never a player's mistake)."""


_games: tuple[TableGame, ...] = ()
_web_views: dict[str, WebView] = {}
_reviewers: dict[str, Reviewer] = {}


def list_games(games: Sequence[TableGame], web_views: Mapping[str, WebView],
               reviewers: Mapping[str, Reviewer] | None = None) -> None:
    """Make ``games`` the catalogue, in the order the set-up screen offers them (the first is the
    default); each needs its web pictures under its kind, and each with choices to review its
    reviewer (a game of skill has none)."""
    global _games, _web_views, _reviewers
    kinds_given = [game.kind for game in games]
    reviewers = reviewers or {}
    if not games or len(set(kinds_given)) != len(kinds_given) or set(web_views) != set(kinds_given) \
            or not set(reviewers) <= set(kinds_given):
        raise ValueError(f"a catalogue needs games of distinct kinds, each with its web view: got {kinds_given}, "
                         f"views for {sorted(web_views)} and reviewers for {sorted(reviewers)}")
    _games, _web_views, _reviewers = tuple(games), dict(web_views), dict(reviewers)


def games() -> tuple[TableGame, ...]:
    """Every game the companion plays, in the set-up screen's order."""
    if not _games:
        raise NoGamesListedError("no games are listed: import firmware.games, which lists them, before reading the catalogue")
    return _games


def kinds() -> tuple[str, ...]:
    return tuple(game.kind for game in games())


def default_kind() -> str:
    """The game the companion plays unless told otherwise: the catalogue's first."""
    return games()[0].kind


def table_game(kind: str) -> TableGame:
    """The game of this kind; UnknownGameError names the kinds there are."""
    for game in games():
        if game.kind == kind:
            return game
    raise UnknownGameError(f"no game {kind!r}: the companion plays {', '.join(kinds())}")


def web_view(kind: str) -> WebView:
    """The web pictures of the game of this kind; UnknownGameError names the kinds there are."""
    return _web_views[table_game(kind).kind]


def reviewer(kind: str) -> Reviewer | None:
    """The review of the game of this kind's decisions; None for a game with no choices to review
    (a game of skill). UnknownGameError names the kinds there are."""
    return _reviewers.get(table_game(kind).kind)
