"""The live board seen by a real headless browser: Debian's Chromium driven by Playwright, the
page served by waitress as on the device. A move journaled by the companion must show on the page
within a second, without a reload. Skipped, saying why, only where no Chromium is installed."""

from __future__ import annotations

import shutil
import time
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
SHOW_WITHIN_MS = 1000


@pytest.fixture
def served(tmp_path: Path):
    server = WebServer(tmp_path, "127.0.0.1", 0)
    server.start()
    yield tmp_path, server.url
    server.close()


def test_a_move_journaled_shows_on_the_page_within_a_second(served):
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
        page.wait_for_selector("#board svg", timeout=5000)
        assert "Can't Stop" in page.inner_text("#title")
        before = page.get_attribute("#live", "data-version")
        loads = page.evaluate("performance.getEntriesByType('navigation').length")
        play("roll 1-4-5-6")
        started = time.monotonic()
        page.wait_for_selector(f"#live:not([data-version='{before}'])", state="attached", timeout=SHOW_WITHIN_MS)
        shown_after_ms = (time.monotonic() - started) * 1000
        assert "1-4-5-6" in page.inner_text("#facts") or "1 4 5 6" in page.inner_text("#facts")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loads, "no reload"
        page.screenshot(path=str(data / "live-phone.png"))
        browser.close()
    assert refused == []
    journal.close()
    assert shown_after_ms < SHOW_WITHIN_MS
