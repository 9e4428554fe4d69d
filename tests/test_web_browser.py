"""The live board seen by a real headless browser: Debian's Chromium driven by Playwright, the
page served by waitress as on the device. A move journaled by the companion must show on the page
without a reload, the page asking every half second at most (so within a second on a machine that
keeps up: how fast is not the test's to say, a busy machine is only slower). Skipped, saying why, only where no Chromium is installed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from firmware.games.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.web.server import WebServer

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium here: `apt-get install chromium` (.ci/run installs it where apt is there)"
)
PHONE = {"width": 390, "height": 844}
POLL_AT_MOST_MS = 500  # the page asks this often or more: a move shows within a second where the server keeps up


@pytest.fixture
def served(tmp_path: Path):
    server = WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    yield tmp_path, server.url
    server.close()


def test_a_move_journaled_shows_on_the_page_without_a_reload(served):
    from playwright.sync_api import sync_playwright

    data, url = served
    setup = GameSetup(("Ann", "Bob"), kind="cant-stop")
    journal = Journal(data / JOURNAL_NAME)
    game = journal.start_game(setup)
    state = setup.new_state()
    engine = setup.game.engine

    def play(text: str) -> None:
        nonlocal state
        state = engine.apply(state, engine.parse_move(text))
        journal.append(game, text, setup.game.progress(state), source="camera" if text.startswith("roll") else None)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport=PHONE)
        refused = []  # what the page's own Content-Security-Policy refused: nothing of the page may be
        page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
        page.goto(url)
        page.wait_for_selector("#board svg", timeout=0)  # no time limit: a slow machine is only slower
        assert "Can't Stop" in page.inner_text("#title")
        before = page.get_attribute("#live", "data-version")
        assert int(page.get_attribute("#live", "data-poll-ms")) <= POLL_AT_MOST_MS
        loads = page.evaluate("performance.getEntriesByType('navigation').length")
        play("roll 1-4-5-6")
        page.wait_for_selector(f"#live:not([data-version='{before}'])", state="attached", timeout=0)
        assert "1-4-5-6" in page.inner_text("#facts") or "1 4 5 6" in page.inner_text("#facts")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loads, "no reload"
        page.screenshot(path=str(data / "live-phone.png"))
        browser.close()
    assert refused == []
    journal.close()
