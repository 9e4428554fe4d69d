"""Serving the page: waitress, a pure-Python production WSGI server (well kept, on PyPI and in
Raspberry Pi OS as ``python3-waitress``), a few threads, no C extension to build on the Pi.

``dice-companion serve`` runs it in the foreground over a data folder's journal; ``run`` with
``[web] enabled = true`` runs it on a thread beside the event loop. Either way it only reads the
journal (each request opens it read-only for one read), so it never blocks the companion's writes.
"""

from __future__ import annotations

import heapq
import logging
import math
import threading
import time
from collections import Counter, defaultdict, deque
from pathlib import Path
from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import TcpWSGIServer
from waitress.task import ThreadedTaskDispatcher

from firmware.journal.journal import JOURNAL_NAME
from firmware.web._app import create_app, is_live_board, is_replay

LOG = logging.getLogger("dice_companion")
# A request is answered in one of three lanes of worker threads: the live board's, the replays'
# and the other views'. A replay takes the interpreter for tens of milliseconds, and while one
# runs, the loop that accepts and reads connections waits for it at every system call (CPython's
# lock favours the busy thread): 8 threads replaying for 39 pipelining hosts left the loop 0.27 s
# a turn of 64 connections, and the household's polls queued 20 s behind other hosts' connections
# in the kernel. So replays have one thread, which rests after each as long as it took (the loop
# and the live board run freely at least half the time). The other views are read once a move
# (the statistics' first reading replays every game: seconds) and kept, so they keep their threads.
THREADS = 8  # the other views' (a few phones and a TV at once, while a reading is under way)
LIVE_THREADS = 2  # the live board's lane: its page and poll never wait behind the slow views
# Idle and slow connections must not lock new visitors out. Waitress's defaults (100 connections,
# idle ones closed after 120 s, looked for every 30 s) let a few slow clients shut the page; here
# idle ones are closed after 10 s, looked for every 2 s, poll() rather than select() (which fails
# past 1,024 sockets), and past CONNECTION_CAP some are closed to let a newcomer in (_closing_order).
# Waitress's own limit, which stops accepting (a newcomer then waits behind every slow socket in
# the kernel's queue), sits above the cap, never reached.
# 2,000 slow sockets from 20 addresses, reopened as fast as they are closed, left the household's
# phones answered within 0.4 s with a cap of 200, 300 or 1,000, even with everything on one core
# (tests/bench_web.py): the cap is what a Pi's file descriptors allow (1,024 for a service),
# with room for the journal's files, the camera and a batch of newcomers.
CONNECTION_CAP = 300  # open connections at most, however many wait
ACCEPT_BATCH = 64  # connections accepted a turn (waitress takes one): a newcomer queued behind a flood is let in soon
BACKLOG = 4096  # connections the kernel queues for accepting: a full queue drops a newcomer's SYN (a second's wait)
CONNECTIONS = {"channel_timeout": 10, "cleanup_interval": 2, "asyncore_use_poll": True, "backlog": BACKLOG}
HEADER_DEADLINE_S = 10.0  # a request's headers must be in this long after its first byte (trickled ones never go idle)
PER_ADDRESS = 100  # connections one address may hold: one host's slow sockets must not lock the others out
ANSWERING_PER_ADDRESS = 4  # of those, with a request read (queued or answered: never closed for the cap); the rest wait
ANSWERED_RECENTLY_S = 5.0  # a connection that answered a request this recently is never closed for the cap (a poll)
HEADERS_END = b"\r\n\r\n"  # where a request's headers end (waitress takes no other)
NOTICE_EVERY_S = 60.0  # how often the log may say that slow connections were closed to make room


class BoundedChannel(HTTPChannel):
    """waitress's connection with bounds it lacks: a request whose headers are not all in
    HEADER_DEADLINE_S after its first byte is closed (a client trickling a byte every few seconds is
    never idle, so the idle timeout never closes it), a connection past PER_ADDRESS from one
    address is closed as soon as it is accepted, and its requests are parsed one at a time, no more
    than ANSWERING_PER_ADDRESS of an address's at once. ``waiting_since`` is when it last began to
    wait for its client: opened, or the first byte of its latest request; ``served_at`` when it
    last answered a request."""

    served_at = -math.inf
    _answering = False  # counted in the server's ``answering``
    _unparsed = b""  # read, not yet parsed: the requests pipelined behind the one being answered

    def __init__(self, server, sock, addr, adj, map=None) -> None:  # noqa: A002 (waitress's own names)
        super().__init__(server, sock, addr, adj, map)
        self.waiting_since = time.monotonic()
        _count(server.connections, _host(addr), 1)
        if server.connections[_host(addr)] > PER_ADDRESS:
            self.will_close = True  # closed at the loop's next turn, before anything is read

    def del_channel(self, map=None) -> None:  # noqa: A002 (waitress's own names)
        if self._fileno is not None:  # still counted (a closed connection may be closed again)
            _count(self.server.connections, _host(self.addr), -1)
        super().del_channel(map)

    def received(self, data: bytes) -> bool:
        """Held, and handed to waitress one request at a time: it parsed every request in a read
        (some 180 GETs in 8 KB) into the connection's queue, and a connection with a queued
        request is never closed, so a pipelining client kept the threads for itself."""
        self._unparsed += data
        self._parse_next()
        return True

    def _parse_next(self) -> None:
        """Hand waitress the held bytes up to one request's end of headers at a time, while it has
        no request to answer (a request with a body may finish mid-piece: two at most) and its
        address fewer than ANSWERING_PER_ADDRESS connections with one: a held one may be closed."""
        answering = self.server.answering
        while self._unparsed and not self.requests and answering[_host(self.addr)] < ANSWERING_PER_ADDRESS:
            end = self._unparsed.find(HEADERS_END)
            end = len(self._unparsed) if end < 0 else end + len(HEADERS_END)
            piece, self._unparsed = self._unparsed[:end], self._unparsed[end:]
            if self.request is None:
                self.waiting_since = time.monotonic()
            if not super().received(piece):  # the connection is closing
                self._unparsed = b""
            self._recount()

    def _recount(self) -> None:
        """Count this connection among its address's answering ones while it has a request: the
        loop calls it as it parses one, a worker as it answers one, both under one lock, so the
        later sees the truth."""
        with self.server.answering_lock:
            answering = bool(self.requests)
            if answering != self._answering:
                self._answering = answering
                _count(self.server.answering, _host(self.addr), 1 if answering else -1)

    def service(self) -> None:
        self.served_at = time.monotonic()  # already here: the client may read its answer before super() returns
        try:
            super().service()
        finally:
            self.served_at = time.monotonic()
            self._recount()

    def readable(self) -> bool:
        if self._unparsed and super().readable():  # the last answer sent: the next request held
            self._parse_next()
        request = self.request  # looked at on every turn of the loop (at least once a second)
        if request is not None and not request.headers_finished and \
                time.monotonic() - self.waiting_since > HEADER_DEADLINE_S:
            self.will_close = True
        return super().readable() and not self._unparsed  # nothing more read while a request is held


def _host(addr: object) -> object:
    return addr[0] if isinstance(addr, tuple) else addr


def _count(counts: Counter[object], host: object, step: int) -> None:
    """Add ``step`` to ``host``'s count, forgetting it at 0: a flood of addresses leaves nothing behind."""
    counts[host] += step
    if not counts[host]:
        del counts[host]


class Lanes:
    """waitress's task dispatcher in three lanes of worker threads: the live board's
    (LIVE_THREADS), the replays' (one, resting after each as long as it took) and the other
    views' (THREADS), so the household's poll never queues behind another host's replays nor
    waits for the interpreter while they run."""

    def __init__(self, threads: int, live_threads: int) -> None:
        self._live, self._replays, self._views = (ThreadedTaskDispatcher() for _ in range(3))
        self._live.set_thread_count(live_threads)
        self._replays.set_thread_count(1)
        self._views.set_thread_count(threads)

    def add_task(self, channel: HTTPChannel) -> None:
        """Queue ``channel``'s next request (waitress adds a channel with one to answer) in its lane."""
        path = getattr(channel.requests[0], "path", "")  # a request that did not parse has none
        if is_live_board(path):
            self._live.add_task(channel)
        elif is_replay(path):
            self._replays.add_task(_Resting(channel))
        else:
            self._views.add_task(channel)

    def shutdown(self, cancel_pending: bool = True, timeout: float = 5) -> bool:
        return all([lane.shutdown(cancel_pending, timeout) for lane in (self._live, self._replays, self._views)])


class _Resting:
    """A replay's task: its thread rests after the answer as long as the answer took."""

    def __init__(self, channel: HTTPChannel) -> None:
        self.channel = channel

    def service(self) -> None:
        started = time.monotonic()
        self.channel.service()
        time.sleep(time.monotonic() - started)

    def cancel(self) -> None:
        self.channel.cancel()


class BoundedServer(TcpWSGIServer):
    """waitress's server accepting every waiting connection at once (up to ACCEPT_BATCH a turn,
    not one), then closing connections of the addresses holding the most while more than
    CONNECTION_CAP are open: a newcomer is served at once, and a flood of slow sockets only closes
    its own older ones, never a household's."""

    channel_class = BoundedChannel
    _accepted = False
    _closed_since_notice = 0
    _last_notice = -NOTICE_EVERY_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.connections: Counter[object] = Counter()  # per address, its open connections
        self.answering: Counter[object] = Counter()  # of them, those with a request to answer
        self.answering_lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def accept(self):  # noqa: ANN201 (waitress's own signature)
        pair = super().accept()
        self._accepted = pair is not None
        return pair

    def handle_accept(self) -> None:
        for _ in range(ACCEPT_BATCH):
            if not self.accepting:  # closed meanwhile
                break
            self._accepted = False
            super().handle_accept()
            if not self._accepted:
                break
        self._close_slowest()

    def _close_slowest(self) -> None:
        still_open = [channel for channel in list(self.active_channels.values()) if not channel.will_close]
        excess = len(still_open) - CONNECTION_CAP
        if excess <= 0:
            return
        closing = _closing_order(still_open, self.connections, excess)
        for channel in closing:
            channel.handle_close()
        self._closed_since_notice += len(closing)
        now = time.monotonic()
        if now - self._last_notice >= NOTICE_EVERY_S:
            LOG.warning("the page had more than %d connections open: closed %d from the addresses holding the most "
                        "(since the last notice)", CONNECTION_CAP, self._closed_since_notice)
            self._last_notice, self._closed_since_notice = now, 0


def _closing_order(channels: list[BoundedChannel], held: Counter[object], count: int) -> list[BoundedChannel]:
    """Up to ``count`` of ``channels`` to close, one at a time from the address holding the most
    open connections (``held``), the one there that waited longest for its client: a flood's many
    sockets go before a phone's one kept-alive connection, however much older that is. Never one
    answering a request or that answered one in the last ANSWERED_RECENTLY_S (a household's polls);
    fewer than ``count`` where no more may go (waitress's own limit then stops accepting)."""
    now = time.monotonic()
    closable: dict[object, deque[BoundedChannel]] = defaultdict(deque)
    for channel in sorted(channels, key=lambda channel: channel.waiting_since):
        if not channel.requests and now - channel.served_at > ANSWERED_RECENTLY_S:
            closable[_host(channel.addr)].append(channel)
    crowded = [(-held[host], queue[0].waiting_since, number, host)
               for number, (host, queue) in enumerate(closable.items())]
    heapq.heapify(crowded)
    chosen: list[BoundedChannel] = []
    while crowded and len(chosen) < count:
        most, _, number, host = heapq.heappop(crowded)
        chosen.append(closable[host].popleft())
        if closable[host]:
            heapq.heappush(crowded, (most + 1, closable[host][0].waiting_since, number, host))
    return chosen


class WebServer:
    """The page over the journal in ``data_dir``, listening on ``address``:``port`` (port 0: any
    free one), answering requests for numeric addresses, localhost and ``hosts``."""

    def __init__(self, data_dir: Path, address: str, port: int, hosts: tuple[str, ...] = ()) -> None:
        app = create_app(data_dir / JOURNAL_NAME, hosts)
        lanes = Lanes(THREADS, LIVE_THREADS)  # their threads start here: let go of them if the port is not had
        try:
            self._server = BoundedServer(app, host=address, port=port, dispatcher=lanes,
                                         ident="dice-companion", connection_limit=CONNECTION_CAP + 2 * ACCEPT_BATCH,
                                         **CONNECTIONS)
        except OSError as error:
            lanes.shutdown()
            raise OSError(f"cannot serve the page on {address}:{port}: {error.strerror or error}") from None
        self.port: int = int(self._server.effective_port)  # waitress gives a string
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
