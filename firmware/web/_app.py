"""The read-only web page: Flask routes over the journal, opened read-only for each request.

Flask because it is the best-kept small Python web framework, pure Python (it installs on a Pi
from PyPI or apt, ``python3-flask``), and its templates escape what they show (player names come
from a configuration). The page polls ``/live.json`` twice a second rather than holding a
connection open, so any WSGI server serves it (waitress on the device: :mod:`firmware.web.server`)
and a phone that sleeps costs nothing. Only GET is accepted: the page never changes a game.
What a page shows is read again only when the journal's files changed (their size and time), so
polling phones cost the companion's journal nothing between moves.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, render_template, request, url_for

from engine.errors import EngineError
from firmware.calibration import table_dice
from firmware.core.catalogue import NoGamesListedError
from firmware.journal.dice_stats import GameRolls
from firmware.journal.journal import EmptyJournal, Journal, JournalError
from firmware.review.chart import chart_svg
from firmware.review.game_review import GameReview, NoReview, NoSuchGame, journaled_review
from firmware.review.text import sentence, thresholds_words
from firmware.web import _views as views

LOG = logging.getLogger("dice_companion")
POLL_MS = 500  # how often the live page asks whether anything happened (an event shows within a second)


class NoJournal(Exception):
    """The journal cannot be read: the page says why instead of failing."""


class NoGamesYet(NoJournal):
    """No game has been journaled yet (no journal file, or an empty one): not a fault."""


SECURITY_HEADERS = {
    # Scripts, styles and pictures only from the page itself, no inline script, never in a frame.
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def is_live_board(path: str) -> bool:
    """Whether a request is the live board's (its page, its poll, their files): these are answered
    by threads of their own (:mod:`firmware.web.server`), never behind another host's replays."""
    return path in ("/", "/live.json", "/favicon.ico") or path.startswith("/static/")


def is_replay(path: str) -> bool:
    """Whether a request replays a game: the one view whose cost a visitor chooses (any game, any
    step, never kept), so the one a flood of requests can make the page spend its time on."""
    return path.startswith("/games/")


def host_allowed(host: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this page: an address written as a number (the one it
    listens on, or any of the machine's when it listens on all), ``localhost``, or a name listed
    in ``[web] hosts``. Any other name is refused: a page elsewhere whose name was made to point
    here (DNS rebinding) must not read the journal through a player's browser."""
    if host.startswith("["):  # an IPv6 address: "[::1]:8080"
        name = host[1:].split("]", 1)[0]
    else:  # "name:port", "name"
        name = host.split(":")[0] if host.count(":") == 1 else host
    name = name.lower()
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name == "localhost" or name in names


def create_app(journal_path: Path, hosts: tuple[str, ...] = ()) -> Flask:
    """The page's application over the journal file at ``journal_path`` (it may not exist yet),
    answering requests whose Host is a numeric address, ``localhost`` or one of ``hosts``."""
    app = Flask(__name__)
    names = frozenset(name.lower() for name in hosts)
    path = Path(journal_path)
    cache = _Cache(path)

    @contextmanager
    def journal() -> Iterator[Journal]:
        if not path.exists():
            raise NoGamesYet("no game has been played here yet (the data folder has no journal)")
        try:
            opened = Journal(path, read_only=True)
        except EmptyJournal as error:
            raise NoGamesYet(str(error)) from None
        except JournalError as error:  # its message names the file: the page names only the file's name
            raise NoJournal(str(error).replace(str(path), path.name)) from None
        try:
            yield opened
        except sqlite3.DatabaseError as error:  # damage a reader meets only as it reads (it runs no full check)
            raise NoJournal(f"the journal {path.name} is unreadable: {error}") from None
        finally:
            opened.close()

    def read(view: Callable[[Journal], dict[str, Any]], quick: bool = False) -> dict[str, Any]:
        """``view`` of the journal, read again only once the journal changed; a ``quick`` one (a
        row and a game's events) never waits behind the slow ones (every game)."""
        def fresh() -> dict[str, Any]:
            with journal() as opened:
                return view(opened)

        return cache.get(view.__name__, fresh, quick)

    @app.before_request
    def only_get_for_this_host() -> Response | None:
        if request.method not in ("GET", "HEAD"):  # HEAD answers as GET without the body
            return Response("This page only shows the games: it accepts GET (and HEAD) and nothing else.\n", 405,
                            {"Allow": "GET, HEAD"}, mimetype="text/plain")
        if not host_allowed(request.host, names):
            return Response("This page answers only its own address, localhost and the names in [web] hosts.\n",
                            421, mimetype="text/plain")
        return None

    @app.after_request
    def secured(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.get("/favicon.ico")
    def no_icon() -> Response:
        return Response(status=204)  # no icon: said, so browsers do not log a missing one

    said: list[str] = [""]  # the last reason logged: said once, not at every poll

    def say_once(log: Callable[..., None], error: Exception) -> None:
        if str(error) != said[0]:
            said[0] = str(error)
            log("web page: %s", error)

    @app.errorhandler(NoJournal)
    def no_journal(error: NoJournal) -> Response | tuple[str, int]:
        say_once(LOG.info if isinstance(error, NoGamesYet) else LOG.warning, error)
        if isinstance(error, NoGamesYet) and request.path == "/history":  # an empty history is a page
            return render_template("history.html", games=[], damaged=[]), 200
        if isinstance(error, NoGamesYet) and request.path == "/live.json":
            return _json(views.NO_GAME)
        return _failure("No games yet" if not path.exists() else "Journal unreadable", error, 503)

    @app.errorhandler(NoGamesListedError)
    def no_games_listed(error: NoGamesListedError) -> Response | tuple[str, int]:
        """The program serving the page did not import firmware.games (the page, below the games,
        may not): a bug of that program, said once rather than a traceback at every poll."""
        say_once(LOG.error, error)
        return _failure("No games listed", error, 500)

    @app.errorhandler(404)
    def not_found(error: Exception) -> tuple[str, int]:
        return render_template("message.html", title="Not found", message=getattr(error, "description", "")), 404

    @app.get("/")
    def live_page() -> str:
        return render_template("live.html", poll_ms=POLL_MS)

    @app.get("/live.json")
    def live_json() -> Response:
        return _json(read(views.live, quick=True))

    drawn: list[tuple[object, str]] = [(None, "")]  # the last history read, and its page

    @app.get("/history")
    def history_page() -> str:
        """Drawn once a reading (a thousand games' rows are 20 ms of template): a crowd asking
        between two moves is answered with the same page."""
        found = read(views.history)
        reading, page = drawn[0]
        if reading is not found:
            page = render_template("history.html", **found)
            drawn[0] = (found, page)
        return page

    @app.get("/games/<int:game>")
    def game_page(game: int) -> str:
        with journal() as opened:
            found = views.steps(opened, game)
        if found is None:
            abort(404, f"no game {game} in the journal")
        record, events, sources = found
        step = min(max(request.args.get("step", len(events), type=int), 0), len(events))
        whole = views.replay(record, events, sources)
        try:  # the whole game is replayed once: its last step is the board shown unless another is asked
            shown = views.picture(record, whole if step == len(events) else views.replay(record, events[:step], sources))
            problem = ""
        except EngineError as error:
            shown, problem = None, f"the game does not replay to step {step}: {error}"
        return render_template(
            "game.html", game=views.summary(record), steps=whole.steps, step=step, picture=shown, problem=problem,
        )

    reviews: dict[tuple[int, int, float], GameReview] = {}  # ended games' reviews: they never change

    @app.get("/games/<int:game>/review")
    def review_page(game: int) -> str | tuple[str, int]:
        """Answered in the replays' lane (a review replays and values a whole game: up to a couple of
        seconds), never the live board's; an ended game's is computed once."""
        with journal() as opened:
            try:
                review = journaled_review(opened, game, reviews)
            except NoSuchGame as error:
                abort(404, str(error))
            except NoReview as error:
                return render_template("message.html", title="Not reviewed", message=str(error)), 422
        link = url_for("game_page", game=game)
        costliest = [(decision, sentence(review, decision)) for decision in review.costliest()]
        return render_template("review.html", review=review, chart=chart_svg(review, link), game_link=link,
                               totals=review.totals(), costliest=costliest, graded=thresholds_words(review))

    @app.get("/stats")
    def stats_page() -> str:
        return render_template("stats.html")

    ended_rolls: GameRolls = {}  # a finished game's rolls never change: replayed once, not after every move

    def statistics(opened: Journal) -> dict[str, Any]:
        return views.statistics(opened, ended_rolls)

    @app.get("/stats.json")
    def stats_json() -> Response:
        return _json(read(statistics) | {"table_dice": table_dice.summary(path.parent)})

    return app


class _Cache:
    """Views of the journal kept until its files change (size or time of the file or its log),
    read one at a time.

    Pages poll: after a move every open page asks again. Read side by side, their many statements
    competed for the interpreter with the companion's own thread, each held the log between rows,
    and the writer's checkpoint at a turn's end waited past its time (22 of 200 moves, 10 pages on
    1,000 games). So one reading runs at a time, and a request is answered with any reading that
    began after it arrived: ten pages asking together cost one reading, never an older one. The
    quick views keep a lock of their own: the live page never waits for the statistics (whose
    first reading replays every game)."""

    def __init__(self, path: Path) -> None:
        self._files = (path, path.with_name(path.name + "-wal"))
        self._kept: dict[str, _Kept] = {}
        self._reading = threading.Lock()  # held while a slow view is read
        self._reading_quick = threading.Lock()  # held while a quick one is

    def _version(self) -> tuple[int, ...]:
        stamp: list[int] = []
        for file in self._files:
            try:
                found = file.stat()
            except OSError:  # no log yet: as good as an empty one (a reader's first look makes it)
                stamp += [0, 0]
                continue
            stamp += [found.st_mtime_ns, found.st_size] if found.st_size else [0, 0]
        return tuple(stamp)

    def get(self, name: str, fresh: Callable[[], dict[str, Any]], quick: bool = False) -> dict[str, Any]:
        asked = time.monotonic()
        with self._reading_quick if quick else self._reading:
            kept = self._kept.get(name)
            if kept is not None and kept.began >= asked:  # read for someone who asked later
                return kept.value
            began, version = time.monotonic(), self._version()
            if kept is not None and kept.version == version:
                return kept.value
            self._kept[name] = _Kept(version, began, fresh())
            return self._kept[name].value


@dataclass(frozen=True)
class _Kept:
    version: tuple[int, ...]  # the journal's files when the reading began
    began: float  # time.monotonic() then
    value: dict[str, Any]


def _failure(title: str, error: Exception, status: int) -> Response | tuple[str, int]:
    """Why a view cannot be shown: JSON for the scripts' routes, a page for the rest."""
    if request.path.endswith(".json"):
        return Response(json.dumps({"error": str(error)}), status, mimetype="application/json")
    return render_template("message.html", title=title, message=str(error)), status


def _json(data: dict[str, Any]) -> Response:
    """JSON with an ETag, so a poll that finds nothing new costs a 304 and no body."""
    body = json.dumps(data, default=str)
    tag = hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]
    response = Response(body, mimetype="application/json")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)
