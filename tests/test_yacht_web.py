"""Yacht on the web page: every player's scorecard live (the thirteen boxes, the upper sum and
bonus, the extra-Yacht bonuses, the totals; what the dice would score in grey while choosing),
the facts beside it, and its moves in words."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.yacht import GAME, Keep, Phase, Score, State
from engine.yacht.boxes import Box
from firmware.games.yacht import web

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("Ann", "Bob")
CARD_A = (3, 6, 9, 12, 15, 18, 22, 0, 25, 30, 40, 50, 23)
CARD_B = (2, 4, 9, 8, 10, 24, 17, 26, 0, 30, 0, 0, 19)


def yacht_state(*moves: str, players: int = 2) -> State:
    state = GAME.new_game(players)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state


def cells(state: State, names=NAMES) -> dict[str, list[str]]:
    """Each row of the card: its values, player by player."""
    root = ET.fromstring(web.board_svg(state, names))
    rows = {}
    for row in root.iter(f"{SVG}g"):
        if "data-row" in row.attrib:
            rows[row.attrib["data-row"]] = ["".join(t.itertext()) for t in row.iter(f"{SVG}text") if "data-player" in t.attrib]
    return rows


def test_the_card_shows_every_box_the_bonuses_and_the_totals_of_every_player():
    state = State((CARD_A, CARD_B), (1, 0), phase=Phase.OVER, winner=0)
    rows = cells(state)
    assert len(rows) == 13 + 4 and rows["full-house"] == ["25", "0"] and rows["sixes"] == ["18", "24"]
    assert rows["upper-sum"] == ["63", "57"] and rows["upper-bonus"] == ["35", "0"]
    assert rows["yacht-bonus"] == ["100", ""] and rows["total"] == ["388", "149"]
    assert web.facts(state, NAMES) == [("Winner", "Ann (A)"), ("Totals", ["Ann 388,", "Bob 149"])]


def test_while_a_player_chooses_the_card_shows_what_the_dice_would_score_in_grey():
    state = yacht_state("roll 2-2-4-4-4")
    rows = cells(state)
    assert rows["full-house"] == ["25", ""] and rows["chance"] == ["16", ""] and rows["total"] == ["0", "0"]
    root = ET.fromstring(web.board_svg(state, NAMES))
    grey = [t for t in root.iter(f"{SVG}text") if t.get("fill-opacity")]
    assert len(grey) == 13 and all(t.get("data-player") == "0" for t in grey)
    facts = dict(web.facts(state, NAMES))
    assert facts["Roll"] == "1 of 3" and facts["Dice"] == "2 2 4 4 4" and "Full house 25," in facts["Would score"]


def test_a_shared_win_is_said_so():
    state = State((CARD_B, CARD_B), (0, 0), phase=Phase.OVER)
    assert web.facts(state, NAMES)[0] == ("Shared win", "Ann (A) and Bob (B)")
    assert "Ann and Bob won" in web.board_svg(state, NAMES)


def test_moves_in_words():
    before = yacht_state("roll 1-3-3-5-6")
    assert web.move_words(before, Keep((3, 3, 5)), GAME.apply(before, Keep((3, 3, 5))), NAMES) == "Ann kept 3 3 5"
    assert web.move_words(before, Keep(()), GAME.apply(before, Keep(())), NAMES) == "Ann kept none"
    full = yacht_state("roll 2-2-4-4-4")
    assert web.move_words(full, Score(Box.FULL_HOUSE), GAME.apply(full, Score(Box.FULL_HOUSE)), NAMES) == "Ann scored 25 in Full house"
    last_box = (0, 0, 0, None, 0, 0, 0, 0, 0, 0, 0, 50, 0)  # only Fours open, the Yacht box holds 50
    extra = State((last_box, (0,) * 13), (0, 0), phase=Phase.CHOOSE, dice=(4,) * 5, rolls=1)
    after = GAME.apply(extra, Score(Box.FOURS))
    assert web.move_words(extra, Score(Box.FOURS), after, NAMES) == "Ann scored 20 in Fours and a bonus of 100 and won"


def test_the_move_that_ends_the_game_names_who_won_or_who_share_the_win():
    full = (0,) * 13
    last = (0, 0, 0, None, 0, 0, 0, 0, 0, 0, 0, 0, 0)  # Bob's Fours open, the last box of the game
    lost = State((CARD_A, last), (0, 0), current=1, phase=Phase.CHOOSE, dice=(1, 1, 2, 3, 4), rolls=3)
    assert web.move_words(lost, Score(Box.FOURS), GAME.apply(lost, Score(Box.FOURS)), NAMES) == "Bob scored 4 in Fours: Ann won"
    shared = State((full[:3] + (4,) + full[4:], last), (0, 0), current=1, phase=Phase.CHOOSE, dice=(1, 1, 2, 3, 4), rolls=3)
    assert web.move_words(shared, Score(Box.FOURS), GAME.apply(shared, Score(Box.FOURS)), NAMES) == (
        "Bob scored 4 in Fours: Ann and Bob share the win")
    three = State((full, last, full), (0, 0, 0), current=1, phase=Phase.CHOOSE, dice=(1, 1, 2, 3, 3), rolls=3)
    names = ("Ann", "Bob", "Cy")
    assert web.move_words(three, Score(Box.FOURS), GAME.apply(three, Score(Box.FOURS)), names) == (
        "Bob scored 0 in Fours: Ann, Bob and Cy share the win")
