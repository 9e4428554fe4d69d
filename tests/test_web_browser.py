"""The page seen by a real headless browser: Debian's Chromium driven by Playwright, the page
served by waitress as on the device. A move journaled by the companion must show on the page
without a reload, the page asking every half second at most (so within a second on a machine that
keeps up: how fast is not the test's to say, a busy machine is only slower); no move is broken
across two lines at any width; the dice page says what it draws. Skipped, saying why, only where
no Chromium is installed."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from firmware.core.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, UNDO, Journal
from firmware.web.server import WebServer
from test_web import journal_with
from waiting import HANG_S

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium here: `apt-get install chromium` (.ci/run installs it where apt is there)"
)
PHONE = {"width": 390, "height": 844}
HANG_MS = HANG_S * 1000
POLL_AT_MOST_MS = 500  # the page asks this often or more: a move shows within a second where the server keeps up
WIDTHS = (360, 390, 768, 1024, 1366, 1920)  # phones upright, a tablet, laptops, a TV
LINES = """(element) => {  // how many lines an element's words lie on
  const lines = new Set();
  const words = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = words.nextNode(); node; node = words.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) if (box.width > 0) lines.add(Math.round(box.bottom));
  }
  return lines.size;
}"""
WORDS_LINES = """([selector, words]) => {  // how many lines ``words`` lie on within ``selector`` (0: not there)
  const text = document.createTreeWalker(document.querySelector(selector), NodeFilter.SHOW_TEXT);
  for (let node = text.nextNode(); node; node = text.nextNode()) {
    const start = node.textContent.indexOf(words);
    if (start < 0) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + words.length);
    return new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.bottom))).size;
  }
  return 0;
}"""


def browser(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])


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
        chromium = browser(playwright)
        page = chromium.new_page(viewport=PHONE)
        refused = []  # what the page's own Content-Security-Policy refused: nothing of the page may be
        page.on("console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None)
        page.goto(url)
        page.wait_for_selector("#board svg", timeout=HANG_MS)  # a bound on a hang, not a speed
        assert "Can't Stop" in page.inner_text("#title")
        before = page.get_attribute("#live", "data-version")
        assert int(page.get_attribute("#live", "data-poll-ms")) <= POLL_AT_MOST_MS
        loads = page.evaluate("performance.getEntriesByType('navigation').length")
        play("roll 1-4-5-6")
        page.wait_for_selector(f"#live:not([data-version='{before}'])", state="attached", timeout=HANG_MS)
        assert "1-4-5-6" in page.inner_text("#facts") or "1 4 5 6" in page.inner_text("#facts")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loads, "no reload"
        page.screenshot(path=str(data / "live-phone.png"))
        chromium.close()
    assert refused == []
    journal.close()


def test_no_move_and_no_piece_of_a_fact_is_broken_across_two_lines_at_any_width(served):
    """'roll 4-5-6- | 6' at 1,366 px, 'D | A2-A3' and 'R10 S3 D3 | L3' at 390 px."""
    from playwright.sync_api import sync_playwright

    data, url = served
    journal_with(data / JOURNAL_NAME, "columns", moves=["R A1", "D A2-A3", "R A4", "L B1-B2 up"])
    journal_with(data / JOURNAL_NAME, "cant-stop", moves=["roll 4-5-6-6", "10+11", "roll 1-4-5-6", "5+11"])
    pages = {"games/1": 3, "games/1?step=2": 2, "games/2": 3, "": 3}  # how many moves each names last
    with sync_playwright() as playwright:
        chromium = browser(playwright)
        page = chromium.new_page(viewport=PHONE)
        for path, moves in pages.items():
            page.goto(url + path)
            page.wait_for_selector(".facts dt", timeout=HANG_MS)
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 900})
                if path == "games/1":  # Ann's pieces left, whatever the markup
                    assert page.evaluate(WORDS_LINES, [".facts", "R10 S3 D3 L3"]) == 1, f"broken at {width} px"
                assert len(page.query_selector_all(".moves li")) == moves, path
                wholes = page.query_selector_all(".piece, .moves li, .events li")
                broken = [(whole.text_content(), width) for whole in wholes if whole.evaluate(LINES) > 1]
                assert broken == [], f"/{path} breaks these across two lines"
                assert page.evaluate("document.scrollingElement.scrollWidth") <= width, f"/{path} scrolls sideways"
        chromium.close()


def test_dates_and_facts_stay_whole_and_no_step_link_wraps_alone_on_a_phone(served):
    """At 390 px /history broke each date ('2026-11-' | '29 06:35') and a game's page put 'last' on a line of its own."""
    from playwright.sync_api import sync_playwright

    data, url = served
    moves = ["roll 1-4-5-6", UNDO] * 55  # steps enough for three digits
    journal_with(data / JOURNAL_NAME, "cant-stop", names=("Annabel", "Bartholomew", "Cy"), moves=moves)
    journal_with(data / JOURNAL_NAME, "tumblin", names=("Ann", "Bob", "Cy", "Di"))
    with sync_playwright() as playwright:
        chromium = browser(playwright)
        page = chromium.new_page(viewport=PHONE)
        page.goto(url + "history")
        for number, game in enumerate(page.query_selector_all(".games li"), 1):
            text = game.inner_text()
            started = re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", text).group()
            facts = [started, re.search(r"\d+ turns?", text).group(), "3 columns to win"]
            for fact in facts if "Can't Stop" in text else facts[:2]:
                lines = page.evaluate(WORDS_LINES, [f".games li:nth-child({number})", fact])
                assert lines == 1, f"{fact!r} broken across two lines"
        for step in (50, 104):  # two and three digits
            page.goto(url + f"games/1?step={step}")
            lines = page.eval_on_selector_all(".steps a", "(all) => all.map((one) => Math.round(one.getBoundingClientRect().bottom))")
            assert all(lines.count(line) > 1 for line in lines), f"a step link alone on a line at step {step}: {lines}"
            assert page.evaluate(WORDS_LINES, [".steps", f"step {step} of 110"]) == 1
        chromium.close()


def test_the_dice_page_says_too_few_dice_without_a_p_value_and_labels_the_line_as_its_caption(served):
    """With 16 dice it printed 'p = 0.738' above 'Too few dice (16) to tell', and labelled the dashed
    line '3' where its caption said '(2.7)'."""
    from playwright.sync_api import sync_playwright

    data, url = served
    journal_with(data / JOURNAL_NAME, "cant-stop", source="camera", moves=[
        "roll 1-2-3-4", "3+7", "stop", "roll 2-3-4-5", "5+9", "stop",
        "roll 3-4-5-6", "7+11", "stop", "roll 1-3-5-6", "4+11", "stop"])
    with sync_playwright() as playwright:
        chromium = browser(playwright)
        page = chromium.new_page(viewport=PHONE)
        page.goto(url + "stats")
        page.wait_for_selector("#groups figure", timeout=HANG_MS)
        summary = page.inner_text("#summary")
        assert "too few dice (16) to tell" in summary and "p =" not in summary and "χ²" not in summary
        assert page.inner_text("#groups p").startswith("Too few dice (16) to tell")
        label = page.text_content("#groups svg text[x='4']")
        assert label == "2.7" and f"({label})" in page.inner_text("#groups figcaption")
        chromium.close()


def test_a_games_review_reads_on_a_phone_and_a_tv_without_a_piece_broken(served):
    """Issue 54: the review of a 4-player Yacht game (two advisors, the greedy bot, a random one):
    its chart drawn, no sideways scroll and no grade or total broken across two lines at any width,
    each costly decision a link to its step."""
    import random

    from engine.yacht.advisor import Advisor
    from engine.yacht.bots import GreedyBot, RandomBot
    from firmware.games.yacht.advisor_table import advisor_table
    from playwright.sync_api import sync_playwright
    from test_review import bot_events, journaled

    data, url = served
    optimal, greedy, chance = Advisor(advisor_table()), GreedyBot(), RandomBot(random.Random(3))
    seats = (optimal, greedy, chance, optimal)
    events = bot_events("yacht", 4, lambda state: seats[state.current].choose(state), 3)
    game = journaled(data / JOURNAL_NAME, "yacht", ("Annabel", "Bartholomew", "Cy", "Di"), events)
    with sync_playwright() as playwright:
        chromium = browser(playwright)
        page = chromium.new_page(viewport=PHONE)
        page.goto(url + f"games/{game}/review")
        page.wait_for_selector(".chart svg", timeout=HANG_MS)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 900})
            broken = [(whole.text_content(), width) for whole in page.query_selector_all(".piece") if whole.evaluate(LINES) > 1]
            assert broken == [], "a grade or a total broken across two lines"
            assert page.evaluate("document.scrollingElement.scrollWidth") <= width, f"the review scrolls sideways at {width}"
        links = page.eval_on_selector_all(".costly a", "(all) => all.map((one) => one.getAttribute('href'))")
        assert links and all(re.fullmatch(rf"/games/{game}\?step=\d+", link) for link in links)
        page.click(".costly a")
        page.wait_for_selector(".events li[aria-current]", timeout=HANG_MS)
        chromium.close()
