"""The page's server under floods (issue 51): past the cap the household's own connections are
kept, and a pipelining client's pending work is bounded and never delays the live board. Real
sockets on loopback addresses (127.0.0.N stand for hosts); nothing waits for a time, only for
answers and events."""

from __future__ import annotations

import http.client
import socket
import threading
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import pytest

from firmware.core.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.web import _views
from firmware.web import server as web_server
from waiting import HANG_S


def _served(server: web_server.WebServer) -> None:
    """A newcomer's answer: every connection opened before it was accepted (the kernel queues them
    in order) and the cap kept after each batch, so every closing they caused is done."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=HANG_S) as page:
        assert page.status == 200


def _live(phone: http.client.HTTPConnection) -> int:
    phone.request("GET", "/live.json")
    answer = phone.getresponse()
    answer.read()
    return answer.status


@pytest.mark.parametrize("answered_recently_s, flood", [
    (0.0, [f"127.0.0.{2 + number % 2}" for number in range(30)]),  # two hosts, 15 each: the most
    (HANG_S, [f"127.0.0.{10 + number}" for number in range(30)]),  # 30 hosts, one each, as many as the phone
], ids=["from the address holding most", "never one answered recently"])
def test_past_the_cap_a_phone_s_kept_alive_connection_is_not_closed(tmp_path, monkeypatch, answered_recently_s, flood):
    """A phone's keep-alive connection, idle between its polls, was older than a reconnect flood's
    sockets, so closed first: 21 of 80 polls lost their connection under 780 sockets from 39 hosts."""
    monkeypatch.setattr(web_server, "CONNECTION_CAP", 20)
    monkeypatch.setattr(web_server, "ACCEPT_BATCH", 8)
    monkeypatch.setattr(web_server, "ANSWERED_RECENTLY_S", answered_recently_s)
    monkeypatch.setitem(web_server.CONNECTIONS, "channel_timeout", 10 * HANG_S)  # never closed for idling here
    server = web_server.WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    phone = http.client.HTTPConnection("127.0.0.1", server.port, timeout=HANG_S, source_address=("127.0.0.101", 0))
    held = []
    try:
        assert _live(phone) == 200
        held = [socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S, source_address=(host, 0))
                for host in flood]
        _served(server)
        assert _live(phone) == 200, "the phone's connection was kept"
    finally:
        phone.close()
        for sock in held:
            sock.close()
        server.close()


@dataclass
class HeldGame:
    """A data folder with one game whose page, each time it is asked, counts it in ``replays``,
    sets ``asked`` and waits for ``release`` (``gave_up`` set if it never came): replays holding
    worker threads."""

    data: Path
    replays: int = 0
    asked: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)
    gave_up: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def a_game(tmp_path, monkeypatch) -> HeldGame:
    journal = Journal(tmp_path / JOURNAL_NAME)
    journal.start_game(GameSetup(("Ann", "Bob")))
    journal.close()
    held = HeldGame(tmp_path)
    steps = _views.steps

    def held_steps(*args: object) -> object:
        held.replays += 1
        held.asked.set()
        if not held.release.wait(HANG_S):
            held.gave_up.set()
        return steps(*args)

    monkeypatch.setattr(_views, "steps", held_steps)
    return held


def test_a_pipelining_client_has_one_request_parsed_at_a_time_and_all_answered(a_game):
    """Waitress parsed every request already read (about 180 GETs in 8 KB) into the connection's
    queue, and a connection with a queued request is never closed: 20 pipelined replays on each of
    100 slowly read connections kept the worker threads for one client."""
    server = web_server.WebServer(a_game.data, "127.0.0.1", 0)
    server.start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S, source_address=("127.0.0.7", 0))
    try:
        sock.sendall(b"GET /games/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" * 20)
        assert a_game.asked.wait(HANG_S)
        channels = list(server._server.active_channels.values())
        [channel] = [channel for channel in channels if channel.addr[0] == "127.0.0.7"]
        with channel.requests_lock:  # held while waitress parses what was read
            queued = len(channel.requests)
        a_game.release.set()
        answers = b""
        while answers.count(b"HTTP/1.1 200 OK") < 20:
            answers += sock.recv(65536)
        assert queued == 1
    finally:
        a_game.release.set()
        sock.close()
        server.close()


def test_the_live_board_is_answered_while_every_other_thread_replays_a_game(a_game, monkeypatch):
    """The household's poll queued behind another host's replays (24 ms became 4.0 s): the live
    board's page and poll have worker threads of their own."""
    monkeypatch.setattr(web_server, "THREADS", 1)
    server = web_server.WebServer(a_game.data, "127.0.0.1", 0)
    server.start()
    replay = threading.Thread(target=lambda: urllib.request.urlopen(f"http://127.0.0.1:{server.port}/games/1",
                                                                    timeout=HANG_S).read())
    replay.start()
    try:
        assert a_game.asked.wait(HANG_S)
        for route in ("/live.json", "/"):
            with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{route}", timeout=HANG_S) as answer:
                assert answer.status == 200
        assert not a_game.gave_up.is_set(), "answered while the replay still held the only other thread"
    finally:
        a_game.release.set()
        replay.join(HANG_S)
        server.close()


def test_an_address_has_few_requests_answered_at_once_and_its_others_may_be_closed(a_game, monkeypatch):
    """A connection with a request to answer is never closed for the cap: 39 hosts pipelining on
    100 connections each had 250 of the 300 so, and a household's fresh connection was the only one
    left to close. An address's connections past ANSWERING_PER_ADDRESS keep their requests unread."""
    monkeypatch.setattr(web_server, "CONNECTION_CAP", 12)
    monkeypatch.setattr(web_server, "ANSWERING_PER_ADDRESS", 2)
    monkeypatch.setitem(web_server.CONNECTIONS, "channel_timeout", 10 * HANG_S)
    request = b"GET /games/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    read: dict[int, int] = {}
    all_read = threading.Event()
    received = web_server.BoundedChannel.received

    def counted(channel: web_server.BoundedChannel, data: bytes) -> bool:
        read[id(channel)] = read.get(id(channel), 0) + len(data)
        if sum(got == len(request) for got in read.values()) == 12:
            all_read.set()
        return received(channel, data)

    monkeypatch.setattr(web_server.BoundedChannel, "received", counted)
    server = web_server.WebServer(a_game.data, "127.0.0.1", 0)
    server.start()
    held = []
    try:
        for _ in range(12):  # as many as the cap: none closed yet
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S,
                                                 source_address=("127.0.0.8", 0)))
            held[-1].sendall(request)
        assert all_read.wait(HANG_S)
        _served(server)  # one past the cap: one of the host's unread ones is closed, not the newcomer
        assert a_game.replays <= 2
    finally:
        a_game.release.set()
        for sock in held:
            sock.close()
        server.close()


def test_the_slow_lane_rests_after_each_answer_as_long_as_it_took(monkeypatch):
    """8 threads replaying games for pipelining hosts kept the interpreter from the loop that accepts
    connections (it waits for it at every system call): a turn of 64 connections took 0.27 s, and the
    household's polls waited 20 s in the kernel's queue. Resting, the lane leaves it half the time."""
    clock, rests = [100.0], []

    class Replay:
        def service(self) -> None:
            clock[0] += 0.03

    monkeypatch.setattr(web_server, "time", SimpleNamespace(monotonic=lambda: clock[0], sleep=rests.append))
    web_server._Resting(Replay()).service()
    assert rests == [pytest.approx(0.03)]


def test_a_page_whose_port_is_taken_lets_go_of_its_worker_threads(tmp_path, monkeypatch):
    """Review of issue 51: the lanes' threads started before the port was bound, and a port taken
    (doctor checks it so) left eleven idle threads behind."""
    made = []

    class Recorded(web_server.Lanes):
        def __init__(self, *args) -> None:
            super().__init__(*args)
            made.append(self)

    monkeypatch.setattr(web_server, "Lanes", Recorded)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(OSError, match="cannot serve the page"):
            web_server.WebServer(tmp_path, "127.0.0.1", taken.getsockname()[1])
    (lanes,) = made
    assert not [thread for lane in (lanes._live, lanes._replays, lanes._views) for thread in lane.threads]
