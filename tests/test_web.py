"""The read-only web page over HTTP (Flask's test client): every route's status and content type,
nothing but GET accepted, the live board of each game kind, the ETag that makes an idle poll cost
nothing, history and replay, the dice statistics, and a missing or damaged journal reported, not
a crash."""

from __future__ import annotations

import logging
import re
import sqlite3
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from firmware.core.game_setup import GameSetup
from firmware.core.table_game import Progress
from firmware.journal.journal import JOURNAL_NAME, UNDO, Journal
from firmware.web._app import create_app
from waiting import HANG_S

GAMES = {  # a few moves of each kind, as the table journals them
    "cant-stop": ["roll 1-4-5-6", "5+11", "roll 2-2-3-3", "5+5"],
    "counters": None,  # its first moves come from its legal moves (the handicap)
    "columns": ["R B3", "S B2", "D B2-B3"],
    "tumblin": ["flick", "flick stayed", "flick"],
    "yacht": ["roll 1-3-3-5-6", "keep 3-3-5", "roll 3-5", "score full-house"],
}
ROUTES = ("/", "/live.json", "/history", "/games/1", "/stats", "/stats.json", "/static/page.css")


def journal_with(
    path: Path, kind: str, names=("Ann", "Bob"), moves: list[str] | None = None, source=None, dice_set: str = "dice",
) -> int:
    """A game of ``kind`` journaled with ``moves`` (each applied by the engine, an undo taking back
    the move before); returns its id. The game before it, left unfinished, is abandoned first, as
    at the table."""
    setup = GameSetup(tuple(names), kind=kind, dice_set=dice_set)
    journal = Journal(path)
    try:
        if (unfinished := journal.unfinished()) is not None:
            journal.abandon(unfinished.id)
        game = journal.start_game(setup)
        state = setup.new_state()
        engine = setup.game.engine
        if moves is None:
            moves = [engine.move_text(engine.legal_moves(state)[0])]
        earlier = []
        for text in moves:
            if text == UNDO:
                state = earlier.pop()
            else:
                earlier.append(state)
                state = engine.apply(state, engine.parse_move(text))
            journal.append(game, text, setup.game.progress(state), source=source if text.startswith("roll") else None)
        return game
    finally:
        journal.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=GAMES["cant-stop"], source="camera")
    return tmp_path


def client(data: Path):
    return create_app(data / JOURNAL_NAME).test_client()


@pytest.mark.parametrize("route, kind", [
    ("/", "text/html"), ("/live.json", "application/json"), ("/history", "text/html"), ("/games/1", "text/html"),
    ("/games/1?step=2", "text/html"), ("/stats", "text/html"), ("/stats.json", "application/json"),
    ("/static/page.css", "text/css"), ("/static/live.js", "text/javascript"), ("/static/stats.js", "text/javascript"),
])
def test_every_route_answers_get_with_its_content_type(data, route, kind):
    response = client(data).get(route)
    assert response.status_code == 200 and response.mimetype == kind


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
@pytest.mark.parametrize("route", ROUTES)
def test_nothing_but_get_and_head_is_accepted(data, route, method):
    response = client(data).open(route, method=method)
    assert response.status_code == 405 and response.headers["Allow"] == "GET, HEAD"
    assert Journal(data / JOURNAL_NAME, read_only=True).events(1) == GAMES["cant-stop"], "nothing changed"


def test_an_unknown_game_is_not_found(data):
    assert client(data).get("/games/99").status_code == 404


@pytest.mark.parametrize("number", [2**63 - 1, 2**63, 2**64, 10**40])
def test_a_game_number_past_what_sqlite_holds_is_not_found(data, number):
    """Issue 43: 2^63 and past answered 500 (OverflowError binding it as an SQLite integer)."""
    assert client(data).get(f"/games/{number}").status_code == 404


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_live_board_of_every_game_kind_is_an_svg_with_its_facts(tmp_path, kind):
    journal_with(tmp_path / JOURNAL_NAME, kind, moves=GAMES[kind])
    live = client(tmp_path).get("/live.json").get_json()
    svg = ElementTree.fromstring(live["svg"])
    assert svg.tag.endswith("svg") and "viewBox" in svg.attrib and "width" not in svg.attrib
    assert live["facts"] and all(len(fact) == 2 for fact in live["facts"])
    assert live["game"]["kind"] == kind and live["game"]["status"] == "playing"


def test_the_live_version_changes_with_every_event_and_an_idle_poll_costs_a_304(data):
    page = client(data)
    first = page.get("/live.json")
    again = page.get("/live.json", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    journal = Journal(data / JOURNAL_NAME)
    journal.append(1, "stop", Progress(None, 2, True))
    journal.close()
    after = page.get("/live.json", headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200 and after.get_json()["version"] != first.get_json()["version"]
    assert after.get_json()["last"] == "stop"


def test_names_are_escaped_everywhere(tmp_path):
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", names=("<b>Ann", "Bo&b"), moves=GAMES["cant-stop"])
    page = client(tmp_path)
    for route in ("/history", "/games/1"):
        html = page.get(route).get_data(as_text=True)
        assert "<b>Ann" not in html and "&lt;b&gt;Ann" in html and "Bo&amp;b" in html
    ElementTree.fromstring(page.get("/live.json").get_json()["svg"])  # still well-formed


def test_history_lists_every_game_with_players_rules_winner_and_length(tmp_path):
    path = tmp_path / JOURNAL_NAME
    journal_with(path, "columns", moves=GAMES["columns"])
    journal = Journal(path)
    journal.abandon(1)
    journal.close()
    journal_with(path, "cant-stop", moves=GAMES["cant-stop"])
    html = client(tmp_path).get("/history").get_data(as_text=True)
    assert html.index("Can&#39;t Stop") < html.index("Columns"), "newest first"
    assert "abandoned" in html and "playing" in html and "Ann, Bob" in html and "turns" in html


def test_history_says_the_rules_in_words_and_counts_in_the_right_number(tmp_path):
    """The subtitle showed the codes ("cant-stop standard to 3") and counted "1 turns"."""
    journal_with(tmp_path / JOURNAL_NAME, "yacht", moves=[])
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=["roll 1-4-5-6"])
    page = client(tmp_path)
    assert page.get("/live.json").get_json()["game"]["rules"] == "standard rules, 3 columns to win"
    text = " ".join(re.sub(r"<[^>]+>", "", page.get("/history").get_data(as_text=True)).split())
    assert "cant-stop" not in text and "Ann, Bob · standard rules, 3 columns to win" in text
    assert "1 turn ·" in text and "1 turns" not in text and " · - · " not in text, "no length yet: none shown"
    assert "Ann, Bob no winner" in text, "Yacht has no options: no empty fact between dots"


def test_a_game_replays_step_by_step(data):
    page = client(data)
    first = page.get("/games/1?step=1").get_data(as_text=True)
    assert "step 1 of 4" in first and 'aria-current="step"' in first
    last = page.get("/games/1?step=99").get_data(as_text=True)
    assert "step 4 of 4" in last, "a step past the end shows the last"
    assert page.get("/games/1?step=0").status_code == 200


STEPS = {  # a game's events as the table journals them, and as its page lists them
    "cant-stop": (["roll 1-4-5-6", "5+11", UNDO, "6+10", "stop", "roll 6-6-6-6"],
                  ["Ann rolled 1 4 5 6", "Ann advanced 5 and 11", "Took back: Ann advanced 5 and 11",
                   "Ann advanced 6 and 10", "Ann stopped", "Bob rolled 6 6 6 6"]),
    "counters": (["handicap 4", "roll 1-3-3-4-6", "keep 3-4", "roll 3-3-5", "take triple 3"],
                 ["Bob's handicap: 4", "Ann threw 1 3 3 4 6", "Ann kept 3 and 4", "Ann threw 3 3 5", "Ann moved 3 up 2"]),
    "columns": (GAMES["columns"], ["Ann placed a roundel on B3", "Bob placed a single on B2", "Ann placed a double on B2-B3"]),
    "tumblin": (["flick", "flick stayed", *["flick"] * 6, "tally red 4@3 green 2@1"],
                ["Ann (red) flicked", "Bob (green): did not pass 0x", *["Ann (red) flicked", "Bob (green) flicked"] * 3,
                 "Round 1 counted"]),
    "yacht": (["roll 1-3-3-5-6", "keep 3-3-5", "roll 3-5", UNDO, "roll 3-3", "score full-house", "roll 6-6-6-6-6",
               "score yacht"],
              ["Ann rolled 1 3 3 5 6", "Ann kept 3 3 5", "Ann rolled 3 5", "Took back: Ann rolled 3 5", "Ann rolled 3 3",
               "Ann scored 0 in Full house", "Bob rolled 6 6 6 6 6", "Bob scored 50 in Yacht"]),
}


def listed_steps(html: str) -> list[str]:
    found = re.search(r'<ol class="events">(.*?)</ol>', html, re.S)
    assert found, "the page lists its steps"
    return re.findall(r'<li[^>]*><a href="\?step=\d+">([^<]*)</a></li>', found.group(1).replace("&#39;", "'"))


@pytest.mark.parametrize("kind", sorted(STEPS))
def test_the_step_list_says_who_did_what_in_words(tmp_path, kind):
    """It listed the journal's notation ('flick', 'keep 3-4', 'tally green 2@1 ...') with no player."""
    events, said = STEPS[kind]
    game = journal_with(tmp_path / JOURNAL_NAME, kind, moves=events)
    html = client(tmp_path).get(f"/games/{game}?step=2").get_data(as_text=True)
    assert listed_steps(html) == said
    assert f"step 2 of {len(events)}" in html


def test_the_steps_from_an_event_that_does_not_replay_are_the_journal_s_text(data):
    with sqlite3.connect(data / JOURNAL_NAME) as db:
        db.execute("UPDATE events SET event = '7+7' WHERE game = 1 AND seq = 2")
    html = client(data).get("/games/1").get_data(as_text=True)
    assert listed_steps(html) == ["Ann rolled 1 4 5 6", "7+7", "roll 2-2-3-3", "5+5"]
    assert "does not replay" in html


def test_pieces_of_facts_the_last_moves_and_the_steps_are_each_kept_whole(tmp_path):
    """At 390 px 'R10 S3 D3 | L3' and 'D | A2-A3' broke inside; at 1,366 px 'roll 4-5-6- | 6'. A list
    of things is a list of pieces that CSS keeps on one line each; a move is a line of its own."""
    journal_with(tmp_path / JOURNAL_NAME, "columns", moves=["R A1", "D A2-A3", "R A4"])
    html = client(tmp_path).get("/games/1").get_data(as_text=True)
    pieces_left = re.search(r"<dt>Pieces left</dt><dd>(.*?)</dd>", html, re.S).group(1)
    assert re.findall(r'<span class="piece">([^<]*)</span>', pieces_left) == ["Ann R10 S3 D3 L3;", "Bob R12 S3 D2 L3"]
    moves = re.search(r'<section class="moves"><h2>Last moves</h2><ul>(.*?)</ul></section>', html, re.S).group(1)
    assert re.findall(r"<li>([^<]*)</li>", moves) == [
        "Ann placed a roundel on A4", "Bob placed a double on A2-A3", "Ann placed a roundel on A1"]
    assert len(listed_steps(html)) == 3
    css = client(tmp_path).get("/static/page.css").get_data(as_text=True)
    assert re.search(r"\.piece \{[^}]*white-space: nowrap", css)
    assert "anywhere" not in css, "no move may be cut at any letter"


def test_the_statistics_count_the_rolls_read(data):
    stats = client(data).get("/stats.json").get_json()
    overall = stats["groups"][0]
    assert overall["group"] == 'set "dice" read by the camera', "one dice set, one source: one group, named by both"
    assert overall["dice"] == 8 and sum(overall["counts"]) == 8
    assert overall["counts"] == [1, 2, 2, 1, 1, 1]
    assert len(stats["groups"]) == 1 and stats["sources"] == "2 read by the camera" and stats["left_out"] == 0
    assert overall["sentence"].startswith("Too few dice (8) to tell")
    assert stats["rolls"] == 2 and any(b["rolls"] for b in stats["bust"])


def test_the_statistics_count_one_roll_in_the_singular(tmp_path):
    """/stats said "1 rolls at the table"."""
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=["roll 1-2-3-4", "3+7", "stop"], source="camera")
    assert client(tmp_path).get("/stats.json").get_json()["summary"].startswith("1 roll at the table (")


def test_too_few_dice_to_tell_show_no_p_value_and_enough_show_it(tmp_path):
    """16 dice printed 'p = 0.738' above 'Too few dice (16) to tell': a figure that looked like a verdict."""
    moves = ["roll 1-2-3-4", "3+7", "stop", "roll 2-3-4-5", "5+9", "stop",
             "roll 3-4-5-6", "7+11", "stop", "roll 1-3-5-6", "4+11", "stop"]
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=moves, source="camera")
    stats = client(tmp_path).get("/stats.json").get_json()
    overall = stats["groups"][0]
    assert overall["dice"] == 16 and overall["p_value"] is None and overall["chi_square"] is None
    assert overall["sentence"].startswith("Too few dice (16) to tell")
    assert stats["summary"] == "4 rolls at the table (4 read by the camera). All dice: too few dice (16) to tell yet."
    assert "p =" not in stats["summary"]
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=moves * 2, source="camera")  # 32 dice more: 48
    stats = client(tmp_path).get("/stats.json").get_json()
    overall = stats["groups"][0]
    assert overall["dice"] == 48 and 0 <= overall["p_value"] <= 1
    assert f"p = {overall['p_value']:.3g}." in stats["summary"] and "no sign of a biased die" in overall["sentence"]


def test_no_journal_yet_is_an_empty_history_said_once_in_the_log(tmp_path, caplog):
    caplog.set_level(logging.INFO, "dice_companion")
    page = client(tmp_path)
    for _ in range(7):  # the live page polls twice a second
        live = page.get("/live.json")
        assert live.status_code == 200 and live.get_json()["message"] == "No game has been played yet."
    response = page.get("/history")
    assert response.status_code == 200 and "No game has been played yet." in response.get_data(as_text=True)
    assert page.get("/").status_code == 200, "the page itself loads and says so as it polls"
    said = [record.getMessage() for record in caplog.records if "no game has been played" in record.getMessage()]
    assert len(said) == 1 and caplog.records[0].levelno == logging.INFO


def test_a_page_without_the_games_listed_says_why_once_in_the_log(data, caplog, monkeypatch):
    """A program serving the page without importing firmware.games (which lists the games; the page
    may not import it, as it sits below them) answered 500 with a traceback on every poll."""
    from firmware.core import catalogue

    monkeypatch.setattr(catalogue, "_games", ())
    monkeypatch.setattr(catalogue, "_web_views", {})
    caplog.set_level(logging.INFO)
    page = client(data)
    for route in ("/live.json", "/live.json", "/history", "/stats.json", "/games/1"):
        assert page.get(route).status_code == 500, route
    said = [record for record in caplog.records if "import firmware.games" in record.getMessage()]
    assert len(said) == 1 and said[0].name == "dice_companion" and said[0].exc_info is None
    assert "import firmware.games" in page.get("/live.json").get_json()["error"]


def test_an_unreadable_journal_is_reported_not_a_crash(tmp_path):
    (tmp_path / JOURNAL_NAME).write_bytes(b"this is not a database" * 100)
    page = client(tmp_path)
    for route in ("/live.json", "/history", "/stats.json", "/games/1"):
        response = page.get(route)
        assert response.status_code == 503, route
    assert "unreadable" in page.get("/history").get_data(as_text=True)


def test_a_damaged_game_is_named_in_the_history_and_the_rest_still_shown(data):
    journal_with(data / JOURNAL_NAME, "columns", moves=GAMES["columns"])
    with sqlite3.connect(data / JOURNAL_NAME) as db:
        db.execute("UPDATE games SET names = 'not json' WHERE id = 1")
    page = client(data)
    html = page.get("/history").get_data(as_text=True)
    assert "Game 1 is damaged" in html and "Columns" in html
    assert page.get("/live.json").get_json()["game"]["kind"] == "columns"
    assert page.get("/stats.json").status_code == 200


def test_a_game_that_does_not_replay_is_said_on_the_live_board(data):
    with sqlite3.connect(data / JOURNAL_NAME) as db:
        db.execute("UPDATE events SET event = '7+7' WHERE game = 1 AND seq = 2")
    live = client(data).get("/live.json").get_json()
    assert "does not replay" in live["message"] and "svg" not in live


def test_the_page_is_off_by_default_and_on_loopback_only():
    from firmware.config import parse_config

    web = parse_config({}).web
    assert (web.enabled, web.address, web.port) == (False, "127.0.0.1", 8080)
    web = parse_config({"web": {"enabled": True, "address": "0.0.0.0", "port": 8000}}).web
    assert (web.enabled, web.address, web.port) == (True, "0.0.0.0", 8000)


@pytest.mark.parametrize("key, value, says", [
    ("enabled", "yes", "true or false"), ("address", "my-pi.local", "127.0.0.1"), ("port", 70000, "1 to 65535"),
    ("port", True, "1 to 65535"), ("colour", "red", "unknown key web.colour"),
])
def test_a_wrong_web_setting_is_refused_with_what_is_allowed(key, value, says):
    from firmware.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match=says):
        parse_config({"web": {key: value}})


def test_a_port_already_taken_is_said_and_the_game_goes_on(tmp_path):
    from firmware.config import Config, WebConfig
    from firmware.table.start import start_web_page
    from firmware.web.server import WebServer

    taken = WebServer(tmp_path, "127.0.0.1", 0)
    try:
        config = Config(web=WebConfig(True, "127.0.0.1", taken.port), data_dir=tmp_path)
        notice = start_web_page(config)
        assert notice is not None and notice.title == "Web page failed"
    finally:
        taken.close()


def test_rolls_read_by_the_camera_and_entered_by_hand_are_said_apart(data):
    journal_with(data / JOURNAL_NAME, "cant-stop", moves=["roll 6-6-6-6", "12+12"], source="hand")
    stats = client(data).get("/stats.json").get_json()
    groups = {group["group"]: group["counts"] for group in stats["groups"]}
    assert groups['set "dice"'] == [1, 2, 2, 1, 1, 5]
    assert groups['set "dice" read by the camera'] == [1, 2, 2, 1, 1, 1] and groups['set "dice" entered by hand'] == [0, 0, 0, 0, 0, 4]
    assert stats["sources"] == "2 read by the camera, 1 entered by hand"


def test_each_dice_set_is_shown_and_games_left_out_are_counted(data):
    journal_with(data / JOURNAL_NAME, "cant-stop", moves=["roll 6-6-6-6", "12+12"], source="camera", dice_set="red casino")
    journal_with(data / JOURNAL_NAME, "columns", moves=GAMES["columns"])
    with sqlite3.connect(data / JOURNAL_NAME) as db:
        db.execute("UPDATE events SET event = 'R 99' WHERE game = 3 AND seq = 1")  # does not replay
    stats = client(data).get("/stats.json").get_json()
    groups = {group["group"]: group["counts"] for group in stats["groups"]}
    assert groups["all dice read by the camera"] == [1, 2, 2, 1, 1, 5]
    assert groups['set "dice" read by the camera'] == [1, 2, 2, 1, 1, 1] and groups['set "red casino" read by the camera'] == [0, 0, 0, 0, 0, 4]
    assert stats["left_out"] == 1 and stats["summary"].endswith(" 1 damaged game left out: see History.")


def test_polls_between_moves_do_not_open_the_journal_again(data, monkeypatch):
    import firmware.web._app as app_module

    opened = []
    real = app_module.Journal
    monkeypatch.setattr(app_module, "Journal", lambda *args, **kwargs: opened.append(args) or real(*args, **kwargs))
    page = client(data)
    first = page.get("/live.json").get_json()
    for _ in range(5):
        assert page.get("/live.json").get_json() == first
    assert len(opened) == 1
    journal = Journal(data / JOURNAL_NAME)
    journal.append(1, "stop", Progress(None, 2, True))
    journal.close()
    assert page.get("/live.json").get_json()["last"] == "stop" and len(opened) == 2


def test_the_live_page_names_the_last_moves_and_a_roll_that_busted(tmp_path):
    moves = ["roll 1-4-5-6", "5+11", "stop", "roll 1-1-1-2", "2+3", "roll 1-1-1-3", "2+4", "roll 6-6-6-6"]
    journal_with(tmp_path / JOURNAL_NAME, "cant-stop", moves=moves)
    live = client(tmp_path).get("/live.json").get_json()
    assert live["moves"] == ["Bob rolled 6 6 6 6: bust", "Bob advanced 2 and 4", "Bob rolled 1 1 1 3"]
    assert dict(live["facts"])["Turn"].startswith("Ann")


def test_the_last_moves_of_tumblin_counters_and_columns_are_said_in_words_with_their_players(tmp_path):
    """Tumblin's count was credited to one player in journal notation; its flicks had no player."""
    moves = ["flick", "flick stayed", "flick", "flick", "flick", "flick", "flick", "flick",
             "tally red 4@3 green 2@1"]
    journal_with(tmp_path / JOURNAL_NAME, "tumblin", moves=moves)
    assert client(tmp_path).get("/live.json").get_json()["moves"] == [
        "Round 1 counted", "Bob (green) flicked", "Ann (red) flicked"]
    journal_with(tmp_path / JOURNAL_NAME, "tumblin", moves=["flick", "flick stayed"])
    assert client(tmp_path).get("/live.json").get_json()["moves"] == ["Bob (green): did not pass 0x", "Ann (red) flicked"]
    journal_with(tmp_path / JOURNAL_NAME, "counters")  # its first legal move: the handicap
    said = client(tmp_path).get("/live.json").get_json()["moves"]
    assert len(said) == 1 and re.fullmatch(r"Bob's handicap: \S+", said[0]), said
    journal_with(tmp_path / JOURNAL_NAME, "columns", moves=GAMES["columns"])
    assert client(tmp_path).get("/live.json").get_json()["moves"] == [
        "Ann placed a double on B2-B3", "Bob placed a single on B2", "Ann placed a roundel on B3"]


@pytest.mark.parametrize("port", ["80000", "-1", "0"])
def test_serve_refuses_a_port_that_is_none(tmp_path, capsys, port):
    from firmware.cli import main

    with pytest.raises(SystemExit):
        main(["serve", "--data", str(tmp_path), "--port", port])
    assert "a port is 1 to 65535" in capsys.readouterr().err


@pytest.mark.parametrize("arguments, says", [
    (["--address", "nothost"], "--address = 'nothost': allowed is"),
    (["--data", "nowhere"], "there is no data folder"),
])
def test_serve_refuses_an_address_or_a_data_folder_that_is_not_there(tmp_path, capsys, arguments, says):
    from firmware.cli import main

    arguments = [str(tmp_path / a) if a == "nowhere" else a for a in arguments]
    assert main(["serve", *(["--data", str(tmp_path)] if "--data" not in arguments else []), *arguments]) == 2
    assert says in capsys.readouterr().err


def test_run_with_the_page_enabled_serves_it_beside_the_game(data):
    import socket
    import urllib.request

    from firmware.config import Config, WebConfig
    from firmware.table.start import start_web_page

    with socket.socket() as probe:  # a port free a moment ago
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert start_web_page(Config(web=WebConfig(True, "127.0.0.1", port), data_dir=data)) is None
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/live.json", timeout=HANG_S) as response:
        assert response.status == 200 and b'"kind": "cant-stop"' in response.read()
    assert start_web_page(Config(data_dir=data)) is None, "off by default: nothing started"


def test_the_statistics_say_what_the_table_learned_of_its_dice(data):
    from firmware.calibration.table_dice import EXAMPLES_NAME, TableDice
    from vision.read.reader import read_dice
    from vision.scenes.synthetic import render_tray

    assert client(data).get("/stats.json").get_json()["table_dice"] == {"sets": {}, "layer": None, "problem": ""}
    dice = TableDice(data, "white", background=False)
    rng = np.random.default_rng(4)
    for _ in range(4):
        image, _ = render_tray((1, 2, 2, 6), rng)
        reading = read_dice(image)
        dice.confirm(image, reading.dice, [d.value for d in reading.dice])
    dice.refit()
    found = client(data).get("/stats.json").get_json()["table_dice"]
    assert found["sets"] == {"white": [4, 8, 0, 0, 0, 4]} and found["problem"] == ""
    assert found["layer"]["dice_set"] == "white" and found["layer"]["examples"] == 16 and found["layer"]["in_use"] is False
    (data / EXAMPLES_NAME).write_bytes(b"not a zip")
    response = client(data).get("/stats.json")
    assert response.status_code == 200 and "cannot be read" in response.get_json()["table_dice"]["problem"]
    assert (data / EXAMPLES_NAME).read_bytes() == b"not a zip", "the page only reads"


# --- who may ask, and what every answer carries ------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1:8080", "localhost:8080", "192.168.1.20", "[::1]:8080", "dicepi.local"])
def test_the_page_answers_numeric_addresses_localhost_and_the_names_configured(tmp_path, host):
    from firmware.web._app import create_app

    client = create_app(tmp_path / "journal.sqlite3", hosts=("DicePi.local",)).test_client()
    assert client.get("/", headers={"Host": host}).status_code == 200


def test_any_other_host_name_is_refused_so_a_rebound_name_cannot_read_the_journal(tmp_path):
    from firmware.web._app import create_app

    client = create_app(tmp_path / "journal.sqlite3").test_client()
    answer = client.get("/live.json", headers={"Host": "attacker.example:8080"})
    assert answer.status_code == 421 and b"journal" not in answer.data.lower().replace(b"[web] hosts", b"")


def test_every_answer_carries_the_security_headers_and_head_answers_as_get_without_a_body(tmp_path):
    from firmware.web._app import create_app

    client = create_app(tmp_path / "journal.sqlite3").test_client()
    for answer in (client.get("/"), client.get("/live.json"), client.get("/static/live.js"), client.head("/")):
        assert "default-src 'self'" in answer.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    head, get = client.head("/"), client.get("/")
    assert head.status_code == get.status_code == 200 and head.data == b"" and get.data
    for method in ("post", "put", "delete", "patch"):
        answer = getattr(client, method)("/")
        assert answer.status_code == 405 and answer.headers["Allow"] == "GET, HEAD"
    assert client.get("/favicon.ico").status_code == 204


def test_web_hosts_in_the_configuration_must_be_host_names():
    from firmware.config import ConfigError, parse_config

    assert parse_config({"web": {"hosts": ["dicepi.local"]}}).web.hosts == ("dicepi.local",)
    with pytest.raises(ConfigError, match="^web.hosts = \\['http://x'\\]: allowed is a list of host names"):
        parse_config({"web": {"hosts": ["http://x"]}})


def test_a_new_visitor_is_served_while_120_slow_clients_hold_connections_open(tmp_path, monkeypatch):
    """Waitress's default of 100 connections let 120 slow sockets shut the page to everyone. The
    slow ones are never closed here for their deadline, so the visitor is served beside them or
    not at all (however slow the machine)."""
    import socket
    import urllib.request

    from firmware.web import server as web_server

    monkeypatch.setattr(web_server, "HEADER_DEADLINE_S", 10 * HANG_S)
    server = web_server.WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    slow = []
    try:
        for _ in range(120):  # from another host than the visitor's (one host may hold PER_ADDRESS)
            held = socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S, source_address=("127.0.0.2", 0))
            held.sendall(b"GET / HTTP/1.1\r\n")  # and never the rest
            slow.append(held)
        page = urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=HANG_S)
        assert page.status == 200
    finally:
        for held in slow:
            held.close()
        server.close()


def closed_by_the_server(sock) -> bool:
    """Waits for the server to close ``sock`` (an end of stream or a reset); False if it sends instead."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_one_host_holds_at_most_its_share_of_connections(tmp_path):
    """1,100 slow sockets from one LAN host shut the page (the limit is 1,000): past PER_ADDRESS
    from one address a connection is closed at once, and another host is served."""
    import socket
    import urllib.request

    from firmware.web import server as web_server

    server = web_server.WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    held = []
    try:
        for _ in range(web_server.PER_ADDRESS + 20):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S, source_address=("127.0.0.3", 0))
            sock.sendall(b"GET / HTTP/1.1\r\n")
            held.append(sock)
        assert all(closed_by_the_server(sock) for sock in held[web_server.PER_ADDRESS:])
        assert urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=HANG_S).status == 200
    finally:
        for sock in held:
            sock.close()
        server.close()


def test_past_the_cap_the_connections_waiting_longest_are_closed_and_a_newcomer_is_served(tmp_path, monkeypatch):
    """2,000 slow sockets from 20 addresses (each within PER_ADDRESS) kept the household out for
    tens of seconds: waitress stopped accepting at its limit, and a newcomer waited in the kernel's
    queue behind every slow socket. Past CONNECTION_CAP the ones that waited longest are closed (the
    three hosts hold as many each; else the most crowded host's go first: tests/test_web_server.py)."""
    import socket
    import urllib.request

    from firmware.web import server as web_server

    monkeypatch.setattr(web_server, "CONNECTION_CAP", 40)
    monkeypatch.setattr(web_server, "ACCEPT_BATCH", 8)
    monkeypatch.setitem(web_server.CONNECTIONS, "channel_timeout", 10 * HANG_S)  # never closed for idling here
    server = web_server.WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    held = []
    try:
        for number in range(60):  # from three hosts, none past its share
            held.append(socket.create_connection(("127.0.0.1", server.port), timeout=HANG_S,
                                                 source_address=(f"127.0.0.{2 + number % 3}", 0)))
        assert all(closed_by_the_server(sock) for sock in held[:10])  # the oldest, first to go
        assert urllib.request.urlopen(f"http://127.0.0.1:{server.port}/", timeout=HANG_S).status == 200
    finally:
        for sock in held:
            sock.close()
        server.close()


def test_headers_trickled_past_the_deadline_are_closed(tmp_path, monkeypatch):
    """A byte every tenth of a second is never idle: the idle timeout never closed it."""
    import socket

    from firmware.web import server as web_server

    monkeypatch.setattr(web_server, "HEADER_DEADLINE_S", 0.3)
    server = web_server.WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    try:
        sock.settimeout(0.1)
        for byte in b"GET / HTTP/1.1\r\nX-Slow: " + b"a" * 10_000:  # far longer than the deadline lets it send
            try:
                sock.sendall(bytes([byte]))
                if sock.recv(1) == b"":
                    break
            except socket.timeout:
                continue
            except OSError:
                break
        else:
            raise AssertionError("a trickle of 10,000 bytes was never closed")
    finally:
        sock.close()
        server.close()


class _CountingLock:
    """A lock that says when ``waiting`` requests are queued for it."""

    def __init__(self, waiting: int) -> None:
        import threading

        self._lock, self._counting, self._count, self._waiting = threading.Lock(), threading.Lock(), 0, waiting
        self.all_waiting = threading.Event()

    def __enter__(self) -> None:
        with self._counting:
            self._count += 1
            if self._count == self._waiting:
                self.all_waiting.set()
        self._lock.acquire()

    def __exit__(self, *_: object) -> None:
        self._lock.release()


def test_pages_asking_together_cost_one_reading_at_a_time_never_an_older_one(tmp_path):
    """Ten pages read the journal side by side after each move: their statements held the log
    long enough to block the companion's checkpoint (issue 28 item 10)."""
    import threading

    from firmware.web._app import _Cache

    journal = tmp_path / JOURNAL_NAME
    journal.write_bytes(b"one")
    cache = _Cache(journal)
    cache._reading = lock = _CountingLock(waiting=5)  # the first reads, four ask meanwhile
    reading, release = threading.Event(), threading.Event()
    readings: list[int] = []
    running = []

    def fresh() -> dict[str, int]:
        running.append(1)
        assert len(running) == 1, "one reading at a time"
        readings.append(len(readings) + 1)
        if len(readings) == 1:
            reading.set()
            release.wait(HANG_S)
        running.pop()
        return {"reading": len(readings)}

    answers: list[dict[str, int]] = []
    first = threading.Thread(target=lambda: answers.append(cache.get("live", fresh)))
    first.start()
    assert reading.wait(HANG_S)
    others = [threading.Thread(target=lambda: answers.append(cache.get("live", fresh))) for _ in range(4)]
    for thread in others:
        thread.start()
    assert lock.all_waiting.wait(HANG_S)
    journal.write_bytes(b"two, after they asked")  # the first reading began before it: too old for them
    release.set()
    for thread in (first, *others):
        thread.join(HANG_S)
    assert sorted(answer["reading"] for answer in answers) == [1, 2, 2, 2, 2], "the four share one newer reading"
    assert cache.get("live", fresh) == {"reading": 2}, "nothing changed since: the kept reading"


def test_the_live_view_never_waits_for_the_statistics(tmp_path):
    """The statistics' first reading replays every game (seconds on 1,000 games): the live page,
    asked twice a second, must not queue behind it."""
    import threading

    from firmware.web._app import _Cache

    journal = tmp_path / JOURNAL_NAME
    journal.write_bytes(b"one")
    cache = _Cache(journal)
    reading, release = threading.Event(), threading.Event()

    def statistics() -> dict[str, str]:
        reading.set()
        release.wait(HANG_S)
        return {"view": "statistics"}

    slow = threading.Thread(target=cache.get, args=("statistics", statistics))
    slow.start()
    assert reading.wait(HANG_S)
    answered: list[dict[str, str]] = []
    live = threading.Thread(target=lambda: answered.append(cache.get("live", lambda: {"view": "live"}, quick=True)))
    live.start()
    live.join(HANG_S)  # returns at once; behind the statistics it would wait until they are released
    waited = live.is_alive()
    release.set()
    slow.join(HANG_S)
    live.join(10)
    assert not waited and answered == [{"view": "live"}]


def test_a_games_page_reads_that_games_rows_alone(data, monkeypatch):
    """It replayed the whole journal on every request (1.36 s on 1,000 games): now no other game is read."""
    from firmware.journal import journal as journal_module

    journal_with(data / JOURNAL_NAME, "counters")
    page = client(data)

    def every_game(*_args):
        raise AssertionError("the page read every game for one")

    monkeypatch.setattr(journal_module, "read_games", every_game)
    assert page.get("/games/1").status_code == 200 and page.get("/games/2").status_code == 200
    assert page.get("/games/3").status_code == 404


@pytest.mark.parametrize("damage", ["UPDATE games SET names = '[\"Ann\", \"Bo' WHERE id = 1",
                                    "DELETE FROM events WHERE game = 1 AND seq = 1",
                                    "UPDATE games SET kind = 'columns' WHERE id = 1"],
                         ids=["row", "event missing", "kind changed"])
def test_a_damaged_games_page_is_not_found_as_before(data, damage):
    db = sqlite3.connect(data / JOURNAL_NAME)
    db.execute(damage)
    db.commit()
    db.close()
    assert client(data).get("/games/1").status_code == 404
