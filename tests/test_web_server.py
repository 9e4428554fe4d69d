"""The page's server under floods (issue 51): past the cap the household's own connections are
kept, and a pipelining client's pending work is bounded and never delays the live board. Real
sockets on loopback addresses (127.0.0.N stand for hosts); nothing waits for a time, only for
answers and events."""

from __future__ import annotations

import http.client
import socket
import urllib.request

import pytest

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
