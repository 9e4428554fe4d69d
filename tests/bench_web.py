"""What the web page costs on a big journal, and whether crowds and slow clients shut it.

    .venv/bin/python tests/bench_web.py --games 1000 --seed 1

On a journal of ``--games`` finished Can't Stop games with one game in progress: ``/live.json``
and ``/stats.json`` right after each of 20 moves (the moment every open page asks again), their
p50 and p99; then 200 clients asking at once for 20 s against the real server (p99, errors);
then a new visitor's page while 120 slow clients hold connections open. Each line ends with the
target the issue set. Also: 10 pages polling the statistics, the history and the live game while
200 moves are journaled, counting the checkpoints they held up past their wait. Last, the floods
(``--only floods`` runs them alone): the household's phones polling while thousands of slow
sockets are reopened as fast as they are closed, while one address and 39 pipeline game pages and
read them slowly, and while a reconnect flood runs (the polls on kept-alive connections it lost).
"""

from __future__ import annotations

import argparse
import logging
import random
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

if __name__ == "__main__":  # run as a script: the project on the path
    sys.path.insert(0, str(Path(__file__).parents[1]))
    sys.path.insert(0, str(Path(__file__).parent))

from journal_costs import journal_of

from engine.cant_stop import GAME, Variant
from engine.cant_stop.bots import OddsBot, SteadyBot
import firmware.games  # noqa: F401  (lists the games in the core's catalogue, as the commands do)
from firmware.core.game_setup import GameSetup
from firmware.games.cant_stop.selfplay import play
from firmware.games.cant_stop.table import TABLE
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.web._app import POLL_MS, create_app
from firmware.web.server import WebServer


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def after_moves(path: Path, rng: random.Random, moves: int = 20) -> list[str]:
    """Play ``moves`` moves of a new game into the journal, asking both views after each."""
    app = create_app(path).test_client()
    cold = []
    for route in ("/live.json", "/stats.json"):  # the page was opened before the game: its first reading
        started = time.perf_counter()
        app.get(route)
        cold.append((time.perf_counter() - started) * 1000)
    journal = Journal(path)
    game = journal.start_game(GameSetup(("Ann", "Bob")))
    steps = list(play((SteadyBot(), OddsBot()), rng, Variant()))[:moves]
    live, stats = [], []
    for step in steps:
        journal.append(game, GAME.move_text(step.event), TABLE.progress(step.after))
        for route, times in (("/live.json", live), ("/stats.json", stats)):
            started = time.perf_counter()
            assert app.get(route).status_code == 200
            times.append((time.perf_counter() - started) * 1000)
    journal.close()
    return [
        f"first readings of a page opened before the game: /live.json {cold[0]:.0f} ms, /stats.json {cold[1]:.0f} ms",
        f"/live.json right after a move: p50 {statistics.median(live):.0f} ms p99 {percentile(live, 0.99):.0f} ms "
        "(target p99 <= 50 ms)",
        f"/stats.json right after a move: p50 {statistics.median(stats):.0f} ms p99 {percentile(stats, 0.99):.0f} ms "
        "(target p99 <= 1000 ms)",
    ]


class _Blocked(logging.Handler):
    """Counts the journal's checkpoints that a reader held up past their wait."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += "checkpoint not finished" in record.getMessage()


def readers_during_a_game(path: Path, rng: random.Random, readers: int = 10, moves: int = 200) -> str:
    """``readers`` pages polling the statistics, the history and the live game while ``moves``
    moves are journaled as fast as the bots make them; the pages were open before the game (each
    view read once), as at a table."""
    app = create_app(path)
    blocked = _Blocked()
    logging.getLogger("dice_companion").addHandler(blocked)
    done = threading.Event()
    routes = ("/stats.json", "/history", "/live.json")
    for route in routes:
        app.test_client().get(route)
    answers: list[float] = []

    def reader(route: str) -> None:
        client = app.test_client()
        while not done.is_set():
            started = time.perf_counter()
            client.get(route)
            answers.append(time.perf_counter() - started)
            done.wait(POLL_MS / 1000)  # as often as an open page asks

    threads = [threading.Thread(target=reader, args=(routes[i % len(routes)],)) for i in range(readers)]
    for thread in threads:
        thread.start()
    journal = Journal(path)
    made = 0
    while made < moves:
        game = journal.start_game(GameSetup(("Ann", "Bob")))
        for step in play((SteadyBot(), OddsBot()), rng, Variant()):
            journal.append(game, GAME.move_text(step.event), TABLE.progress(step.after))
            made += 1
            if made == moves:
                journal.abandon(game)
                break
    journal.close()
    done.set()
    for thread in threads:
        thread.join()
    logging.getLogger("dice_companion").removeHandler(blocked)
    return (f"{readers} readers polling during {moves} moves: {len(answers)} answers, p50 {statistics.median(answers):.2f} s "
            f"p99 {percentile(answers, 0.99):.2f} s; {blocked.count} checkpoints blocked past their wait (target 0)")


CROWD_ROUTES = ("/live.json", "/live.json", "/", "/history", "/stats.json", "/games/{game}")
CROWD_PROCESSES = 4  # the clients run in processes of their own: in the server's, their threads would take its interpreter


def _clients(port: int, first: int, count: int, seconds: float, games: int) -> tuple[list[float], int]:
    """``count`` client threads (numbered from ``first``), each from its own loopback address,
    asking for every route in turn for ``seconds``: the answers' times and the errors (5 s a timeout)."""
    import http.client

    times: list[float] = []
    errors = 0
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def client(number: int) -> None:
        nonlocal errors
        source = (f"127.0.{1 + number // 250}.{1 + number % 250}", 0)
        turn = number
        while time.monotonic() < stop:
            route = CROWD_ROUTES[turn % len(CROWD_ROUTES)].format(game=1 + turn % games)
            turn += 1
            started = time.perf_counter()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=source)
                connection.request("GET", route)
                connection.getresponse().read()
                connection.close()
                with lock:
                    times.append(time.perf_counter() - started)
            except OSError:
                with lock:
                    errors += 1

    threads = [threading.Thread(target=client, args=(number,)) for number in range(first, first + count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times, errors


def crowd(data: Path, clients: int = 200, seconds: float = 20.0, games: int = 1000) -> str:
    """``clients`` clients, each from its own loopback address (a household's phones; one address
    may hold PER_ADDRESS connections), in CROWD_PROCESSES processes, asking for every route in turn
    (the live page's JSON most) for ``seconds``; an answer later than 5 s is a timeout."""
    from concurrent.futures import ProcessPoolExecutor

    server = WebServer(data, "127.0.0.1", 0)
    server.start()
    share = -(-clients // CROWD_PROCESSES)
    with ProcessPoolExecutor(CROWD_PROCESSES) as pool:
        parts = [pool.submit(_clients, server.port, first, min(share, clients - first), seconds, games)
                 for first in range(0, clients, share)]
        results = [part.result() for part in parts]
    server.close()
    times = [t for part, _ in results for t in part]
    errors = sum(e for _, e in results)
    return (f"{clients} clients mixing every route for {seconds:g} s: {len(times)} answers, p99 "
            f"{percentile(times, 0.99):.2f} s, {errors} errors or timeouts at 5 s (target 0)")


def slow_sockets(data: Path, held: int = 120) -> str:
    server = WebServer(data, "127.0.0.1", 0)
    server.start()
    sockets = []
    for _ in range(held):  # from another host than the visitor's
        sockets.append(socket.create_connection(("127.0.0.1", server.port), timeout=5, source_address=("127.0.0.2", 0)))
        sockets[-1].sendall(b"GET / HTTP/1.1\r\n")
    started = time.perf_counter()
    urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=30).read()
    took = time.perf_counter() - started
    for open_socket in sockets:
        open_socket.close()
    server.close()
    return f"a new visitor's page with {held} slow sockets open: {took:.2f} s (target <= 2 s)"


CROWD_HOSTS = 20  # addresses the slow sockets come from (one address may hold PER_ADDRESS)
HOUSEHOLD = ("127.0.0.101", "127.0.0.102", "127.0.0.103", "127.0.0.104")  # the household's phones


def _slow_sockets(port: int, count: int, hosts: int, ready, stop) -> int:
    """Hold ``count`` connections from ``hosts`` loopback addresses, each sending the start of a
    request and a header line every 3 s, reopening every one the server closes, until ``stop``;
    ``ready`` is set once all were opened. Returns how many it had to reopen."""
    import errno
    import resource
    import selectors

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))
    selector = selectors.DefaultSelector()
    reopened = 0

    def open_one(number: int) -> None:
        sock = socket.socket()
        sock.setblocking(False)
        sock.bind((f"127.0.{1 + number % hosts}.1", 0))
        if sock.connect_ex(("127.0.0.1", port)) not in (0, errno.EINPROGRESS):
            sock.close()
            raise OSError("the slow sockets could not connect")
        selector.register(sock, selectors.EVENT_WRITE, [number, b"GET / HTTP/1.1\r\n", time.monotonic()])

    for number in range(count):
        open_one(number)
    ready.set()
    while not stop.is_set():
        now = time.monotonic()
        for key, events in selector.select(timeout=0.1):
            number, unsent, _ = key.data
            sock = key.fileobj
            try:
                if events & selectors.EVENT_READ and not sock.recv(4096):
                    raise ConnectionResetError
                if events & selectors.EVENT_WRITE and unsent:
                    sock.send(unsent)
                    selector.modify(sock, selectors.EVENT_READ, [number, b"", now + 3])
            except OSError:
                selector.unregister(sock)
                sock.close()
                open_one(number)
                reopened += 1
        for key in list(selector.get_map().values()):
            number, unsent, due = key.data
            if not unsent and due <= now:  # a header line every 3 s: never idle, never finished
                key.data[1:] = [b"X-Slow: 1\r\n", now]
                selector.modify(key.fileobj, selectors.EVENT_READ | selectors.EVENT_WRITE, key.data)
    return reopened


PIPELINED = 20  # requests a pipelining socket sends at once
READ_BYTES = 64  # what it reads of their answers each second


def _pipelining(port: int, count: int, hosts: int, games: int, ready, stop) -> int:
    """Hold ``count`` connections from ``hosts`` loopback addresses, each sending PIPELINED
    ``GET /games/N`` at once and reading READ_BYTES of the answers a second (a 4 KB receive
    window), reopening every one the server closes, until ``stop``; ``ready`` is set once all were
    opened. Returns how many it had to reopen."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, count + 256)), hard))

    def open_one(number: int) -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind((f"127.0.{1 + number % hosts}.1", 0))
        sock.settimeout(5)
        sock.connect(("127.0.0.1", port))
        sock.sendall(b"".join(b"GET /games/%d HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % (1 + (number + turn) % games)
                              for turn in range(PIPELINED)))
        sock.setblocking(False)
        return sock

    sockets = [open_one(number) for number in range(count)]
    ready.set()
    reopened = 0
    while not stop.wait(1):
        for number, sock in enumerate(sockets):
            try:
                if sock.recv(READ_BYTES):
                    continue
            except BlockingIOError:
                continue
            except OSError:
                pass
            sock.close()
            sockets[number] = open_one(number)
            reopened += 1
    for sock in sockets:
        sock.close()
    return reopened


def _household(port: int, seconds: float, keep_alive: bool = False) -> list[float]:
    """Each phone of HOUSEHOLD asks for the live game twice a second, as an open page does, for
    ``seconds``, on a new connection each time or on one kept alive (reopened only once lost): how
    long each answer took, connection included (30 s a timeout, a lost one infinite)."""
    import http.client

    times: list[float] = []

    def phone(address: str) -> None:
        stop = time.monotonic() + seconds
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(address, 0))
        while time.monotonic() < stop:
            started = time.perf_counter()
            try:
                connection.request("GET", "/live.json")
                connection.getresponse().read()
                times.append(time.perf_counter() - started)
            except (OSError, http.client.HTTPException):
                times.append(float("inf"))
                connection.close()  # the next request opens a new one
            if not keep_alive:
                connection.close()
            time.sleep(POLL_MS / 1000)
        connection.close()

    threads = [threading.Thread(target=phone, args=(address,)) for address in HOUSEHOLD]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def _under_attack(data: Path, seconds: float, keep_alive: bool, attack, *arguments) -> tuple[list[float], int]:
    """``attack(port, *arguments, ready, stop)`` in a process of its own, while the household's
    phones poll the live game for ``seconds`` from another (in the server's, their threads would
    take its interpreter): the polls' times and how many sockets the attack reopened."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    server = WebServer(data, "127.0.0.1", 0)
    server.start()
    manager = multiprocessing.Manager()
    ready, stop = manager.Event(), manager.Event()
    with ProcessPoolExecutor(2) as pool:
        attacking = pool.submit(attack, server.port, *arguments, ready, stop)
        while not ready.wait(1):
            if attacking.done():
                attacking.result()
        time.sleep(2)  # the attack settles in
        times = pool.submit(_household, server.port, seconds, keep_alive).result()
        stop.set()
        reopened = attacking.result()
    manager.shutdown()
    server.close()
    return times, reopened


def _polls(times: list[float]) -> str:
    return (f"the household's {len(HOUSEHOLD)} phones had {len(times)} answers, p50 {statistics.median(times):.2f} s, "
            f"slowest {max(times):.2f} s (target <= 1 s)")


def siege(data: Path, count: int = 2000, seconds: float = 20.0) -> str:
    """``count`` slow sockets from CROWD_HOSTS addresses, reopened as fast as the server closes
    them, while the household's phones poll the live game for ``seconds``."""
    times, reopened = _under_attack(data, seconds, False, _slow_sockets, count, CROWD_HOSTS)
    return (f"{count} slow sockets from {CROWD_HOSTS} addresses: {_polls(times)}; "
            f"{reopened} slow sockets closed by the server and reopened")


def pipelining(data: Path, hosts: int, games: int, per_host: int = 100, seconds: float = 20.0) -> str:
    """``per_host`` connections (PER_ADDRESS) from each of ``hosts`` addresses pipelining game
    pages and reading their answers slowly, while the household's phones poll the live game."""
    times, reopened = _under_attack(data, seconds, False, _pipelining, hosts * per_host, hosts, games)
    return (f"{hosts * per_host} connections from {hosts} address{'es' * (hosts > 1)} pipelining {PIPELINED} "
            f"/games/N each, read at {READ_BYTES} B/s: {_polls(times)}; {reopened} closed by the server and reopened")


def reconnect_flood(data: Path, count: int = 780, hosts: int = 39, seconds: float = 10.0) -> str:
    """``count`` slow sockets from ``hosts`` addresses, reopened as fast as the server closes them,
    while the household's phones poll the live game on connections kept alive between polls, as a
    browser does: the polls that lost their connection."""
    times, reopened = _under_attack(data, seconds, True, _slow_sockets, count, hosts)
    lost = sum(took == float("inf") for took in times)
    return (f"{count} reconnecting sockets from {hosts} addresses: {lost} of {len(times)} polls on kept-alive "
            f"connections lost (target 0); {_polls([took for took in times if took != float('inf')] or [0.0])}; "
            f"{reopened} sockets closed by the server and reopened")


def main() -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", choices=("costs", "floods"), help="the journal's costs and the crowd, or the "
                        "slow, pipelining and reconnecting sockets alone (default: both)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        events = journal_of(args.games, rng, data / JOURNAL_NAME)
        print(f"journal of {args.games} finished games, {events} events, one game in progress")
        if args.only != "floods":
            for line in after_moves(data / JOURNAL_NAME, rng):
                print(line)
            print(readers_during_a_game(data / JOURNAL_NAME, rng))
            print(crowd(data, args.clients, args.seconds, args.games))
        if args.only != "costs":
            print(slow_sockets(data))
            print(siege(data))
            print(pipelining(data, 1, args.games))
            print(pipelining(data, 39, args.games))
            print(reconnect_flood(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
