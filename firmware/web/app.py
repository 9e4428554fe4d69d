"""The read-only web page: Flask routes over the journal, opened read-only for each request.

Flask because it is the best-kept small Python web framework, pure Python (it installs on a Pi
from PyPI or apt, ``python3-flask``), and its templates escape what they show (player names come
from a configuration). The page polls ``/live.json`` twice a second rather than holding a
connection open, so any WSGI server serves it (waitress on the device: :mod:`firmware.web.server`)
and a phone that sleeps costs nothing. Only GET is accepted: the page never changes a game.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask, Response, abort, render_template, request

from engine.errors import EngineError
from firmware.journal import Journal, JournalError
from firmware.web import views

LOG = logging.getLogger("dice_companion")
POLL_MS = 500  # how often the live page asks whether anything happened (an event shows within a second)


class NoJournal(Exception):
    """The journal cannot be read: the page says why instead of failing."""


def create_app(journal_path: Path) -> Flask:
    """The page's application over the journal file at ``journal_path`` (it may not exist yet)."""
    app = Flask(__name__)
    app.config["JSON_SORT_KEYS"] = False

    @contextmanager
    def journal() -> Iterator[Journal]:
        if not Path(journal_path).exists():
            raise NoJournal(f"no journal at {journal_path} yet: no game has been played here")
        try:
            opened = Journal(journal_path, read_only=True)
        except JournalError as error:
            raise NoJournal(str(error)) from None
        try:
            yield opened
        finally:
            opened.close()

    @app.before_request
    def only_get() -> Response | None:
        if request.method != "GET":
            return Response("This page only shows the games: it accepts GET and nothing else.\n", 405,
                            {"Allow": "GET"}, mimetype="text/plain")
        return None

    @app.errorhandler(NoJournal)
    def no_journal(error: NoJournal) -> Response | tuple[str, int]:
        LOG.warning("web page: %s", error)
        if request.path.endswith(".json"):
            return Response(json.dumps({"error": str(error)}), 503, mimetype="application/json")
        return render_template("message.html", title="Journal unreadable", message=str(error)), 503

    @app.get("/")
    def live_page() -> str:
        return render_template("live.html", poll_ms=POLL_MS)

    @app.get("/live.json")
    def live_json() -> Response:
        with journal() as opened:
            shown = views.live(opened)
        return _json(shown)

    @app.get("/history")
    def history_page() -> str:
        with journal() as opened:
            shown = views.history(opened)
        return render_template("history.html", **shown)

    @app.get("/games/<int:game>")
    def game_page(game: int) -> str:
        with journal() as opened:
            found = views.steps(opened, game)
        if found is None:
            abort(404, f"no game {game} in the journal")
        record, events = found
        step = min(max(request.args.get("step", len(events), type=int), 0), len(events))
        try:
            shown = views.picture(record, events[:step])
            problem = ""
        except EngineError as error:
            shown, problem = None, f"the game does not replay to step {step}: {error}"
        return render_template(
            "game.html", game=views.summary(record), events=events, step=step, picture=shown, problem=problem,
        )

    @app.get("/stats")
    def stats_page() -> str:
        return render_template("stats.html")

    @app.get("/stats.json")
    def stats_json() -> Response:
        with journal() as opened:
            shown = views.statistics(opened)
        return _json(shown)

    return app


def _json(data: dict[str, Any]) -> Response:
    """JSON with an ETag, so a poll that finds nothing new costs a 304 and no body."""
    body = json.dumps(data, default=str)
    tag = hashlib.sha1(body.encode("utf-8")).hexdigest()[:16]
    response = Response(body, mimetype="application/json")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)
