"""Serving the page: waitress, a pure-Python production WSGI server (well kept, on PyPI and in
Raspberry Pi OS as ``python3-waitress``), a few threads, no C extension to build on the Pi.

``dice-companion serve`` runs it in the foreground over a data folder's journal; ``run`` with
``[web] enabled = true`` runs it on a thread beside the event loop. Either way it only reads the
journal (each request opens it read-only for one read), so it never blocks the companion's writes.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from waitress.channel import HTTPChannel
from waitress.server import create_server

from firmware.journal.journal import JOURNAL_NAME
from firmware.web._app import create_app

LOG = logging.getLogger("dice_companion")
THREADS = 8  # a few phones and a TV at once, with room for the live page while the slow views wait their turn
# Idle and slow connections must not lock new visitors out (waitress's defaults: 100 connections,
# idle ones closed after 120 s, looked for every 30 s): many more, closed after 10 s, looked for
# every 2 s; poll() rather than select(), which fails past 1,024 sockets.
CONNECTIONS = {"connection_limit": 1000, "channel_timeout": 10, "cleanup_interval": 2, "asyncore_use_poll": True}


HEADER_DEADLINE_S = 10.0  # a request's headers must be in this long after its first byte (trickled ones never go idle)
PER_ADDRESS = 100  # connections one address may hold: one host's slow sockets must not lock the others out


class BoundedChannel(HTTPChannel):
    """waitress's connection with two bounds it lacks: a request whose headers are not all in
    HEADER_DEADLINE_S after its first byte is closed (a client trickling a byte every few seconds is
    never idle, so the idle timeout never closes it), and a connection past PER_ADDRESS from one
    address is closed as soon as it is accepted."""

    request_began = 0.0

    def __init__(self, server, sock, addr, adj, map=None) -> None:  # noqa: A002 (waitress's own names)
        super().__init__(server, sock, addr, adj, map)
        host = _host(addr)
        if sum(_host(channel.addr) == host for channel in list(server.active_channels.values())) > PER_ADDRESS:
            self.will_close = True  # closed at the loop's next turn, before anything is read

    def received(self, data: bytes) -> bool:
        if self.request is None:
            self.request_began = time.monotonic()
        return super().received(data)

    def readable(self) -> bool:
        request = self.request  # looked at on every turn of the loop (at least once a second)
        if request is not None and not request.headers_finished and \
                time.monotonic() - self.request_began > HEADER_DEADLINE_S:
            self.will_close = True
        return super().readable()


def _host(addr: object) -> object:
    return addr[0] if isinstance(addr, tuple) else addr


class WebServer:
    """The page over the journal in ``data_dir``, listening on ``address``:``port`` (port 0: any
    free one), answering requests for numeric addresses, localhost and ``hosts``."""

    def __init__(self, data_dir: Path, address: str, port: int, hosts: tuple[str, ...] = ()) -> None:
        app = create_app(data_dir / JOURNAL_NAME, hosts)
        try:
            self._server = create_server(app, host=address, port=port, threads=THREADS, ident="dice-companion",
                                         **CONNECTIONS)
        except OSError as error:
            raise OSError(f"cannot serve the page on {address}:{port}: {error.strerror or error}") from None
        self._server.channel_class = BoundedChannel  # type: ignore[union-attr]
        self.port: int = self._server.effective_port  # type: ignore[union-attr]
        self.address = address

    @property
    def url(self) -> str:
        host = f"[{self.address}]" if ":" in self.address else self.address
        return f"http://{host}:{self.port}/"

    def serve_forever(self) -> None:
        LOG.info("web page at %s", self.url)
        self._server.run()

    def start(self) -> threading.Thread:
        """Serve on a daemon thread (it ends with the companion)."""
        thread = threading.Thread(target=self.serve_forever, name="web-page", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Stop serving: the requests being answered first (their threads wrote to the server's
        wake-up pipe after it was closed: a traceback when a crowd was still asking)."""
        self._server.task_dispatcher.shutdown()
        self._server.close()
