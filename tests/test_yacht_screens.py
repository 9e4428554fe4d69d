"""Yacht's screens against their reference PNGs (tests/golden/yacht-*.png), and every one of them
drawn with names of eight letters, nothing cut."""

from __future__ import annotations

import pytest

from engine.yacht import BOXES, GAME, Box, Keep, Phase, Score, State, total
from firmware.drawing.screens import draw
from firmware.games.yacht import screens as yacht_screens
from firmware.games.yacht.choices import listed
from firmware.games.yacht.screens import (
    BotTurnScreen,
    CardScreen,
    ChoicesScreen,
    DiceScreen,
    RollScreen,
    ScoredScreen,
    WinnerScreen,
    tip_label,
)
from golden import assert_matches_golden, watch_for_cut_text

NAMES = ("Ann", "Bob")
LONG_NAMES = ("Margaret", "Benedikt", "Caroline", "Dominika")


def yacht_state(*moves: str, players: int = 2) -> State:
    state = GAME.new_game(players)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state



DICE = yacht_state("roll 2-3-3-5-3")
KEPT = yacht_state("roll 2-3-3-5-3", "keep 3-3-3")
MID = yacht_state("roll 2-3-3-5-3", "score threes", "roll 6-6-6-1-1", "score full-house",
                  "roll 1-2-3-4-5", "keep 1-2-3-4", "roll 6", "score sixes", "roll 5-5-5-5-5", "score yacht")
LAST_ROLL = yacht_state("roll 2-3-3-5-3", "keep 3-3-3", "roll 4-6", "keep 3-3-3", "roll 1-1")
CARD_A = (3, 6, 9, 12, 15, 18, 22, 0, 25, 30, 40, 50, 23)  # upper 63: the bonus
CARD_B = (2, 4, 9, 8, 10, 24, 17, 26, 0, 30, 0, 0, 19)
FULLEST = (5, 10, 15, 20, 25, 30, 30, 30, 25, 30, 40, 50, 30)  # every box at its most: upper 105, total 1275 with 9 extra Yachts
WON = State((CARD_A, CARD_B), (1, 0), phase=Phase.OVER, winner=0)
SHARED = State((CARD_B, CARD_B), (0, 0), phase=Phase.OVER, winner=None)
UPPER_DONE = State((CARD_A[:6] + (None,) * 7, (None,) * 13), (0, 0), current=1)  # Sixes 18 made the upper 63
EXTRA = State(((None, None, None, 20) + (None,) * 7 + (50, None), (None,) * 13), (1, 0), current=1)  # four 4s, Yacht 50
FOUR = State((CARD_A[:6] + (None,) * 7, CARD_B[:3] + (None,) * 10, (None,) * 13, CARD_A[:12] + (None,)),
             (0, 0, 0, 0), current=2)

PICK = listed(DICE).index(Keep((3, 3, 3)))
JOKER = State(((None,) * 11 + (50, None), (None,) * 13), (0, 0), phase=Phase.CHOOSE, dice=(6, 6, 6, 6, 6), rolls=1)
SCREENS = {
    "roll": RollScreen(yacht_state(), NAMES),
    "roll-kept": RollScreen(KEPT, NAMES),
    "dice": DiceScreen(DICE, NAMES),
    "dice-hints": DiceScreen(DICE, NAMES, "KEEP 3 3 3", 248.3),
    "dice-hints-box": DiceScreen(yacht_state("roll 6-6-6-1-1"), NAMES, "FH 25", 251.7, Box.FULL_HOUSE),
    "dice-last": DiceScreen(LAST_ROLL, NAMES),
    "choices": ChoicesScreen(DICE, NAMES, listed(DICE), 1),
    # opened on the advisor's pick, a keep after the boxes: starred, "^" above (the boxes first, as listed)
    "choices-hints": ChoicesScreen(DICE, NAMES, listed(DICE), PICK, PICK, (200.0,) * PICK + (248.3, 246.0, 240.2) + (200.0,) * 40),
    "scored": ScoredScreen(MID, NAMES, 1, Box.YACHT, 50),
    "scored-bonus": ScoredScreen(UPPER_DONE, NAMES, 0, Box.SIXES, 18),
    "scored-extra": ScoredScreen(EXTRA, NAMES, 0, Box.FOURS, 20, True),
    "bot-turn": BotTurnScreen(KEPT, NAMES, 0, (2, 3, 3, 3, 5), ("keep 3 3 3",), 1),
    "winner": WinnerScreen(WON, NAMES),
    "winner-last": WinnerScreen(WON, NAMES, "B FH 25"),  # as the game ends at the table: its last scoring
    "dice-joker-tip": DiceScreen(JOKER, NAMES, tip_label(JOKER, Score(Box.SIXES)), 301.2, Box.SIXES),
    "shared-win": WinnerScreen(SHARED, NAMES),
    "solitaire-over": WinnerScreen(State((CARD_A,), (0,), phase=Phase.OVER, winner=0), NAMES),
    "solitaire-fullest": WinnerScreen(State((FULLEST,), (9,), phase=Phase.OVER, winner=0), LONG_NAMES),
    "card": CardScreen(MID, NAMES),
    "card-four": CardScreen(FOUR, LONG_NAMES),
    "card-over": CardScreen(WON, NAMES),
    "card-four-fullest": CardScreen(State((FULLEST,) * 4, (9, 0, 9, 0), phase=Phase.OVER, winner=None), LONG_NAMES),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_reference(name, update_golden):
    assert_matches_golden(draw(SCREENS[name]), f"yacht-{name}", update_golden)


@pytest.mark.parametrize("names", [LONG_NAMES, ("Großmann", "Straßner", "Ærøskøb", "Ĳsbrand")])
def test_names_of_eight_letters_fit_every_screen(monkeypatch, names):
    """The card draws the names in the small font, any letter (as its base letter); the rest in the 6-px font."""
    cut = watch_for_cut_text(monkeypatch, yacht_screens)
    four = FOUR
    choosing = State(four.cards, four.extra_yachts, current=3, phase=Phase.CHOOSE, dice=(4, 4, 4, 4, 4), rolls=2)
    for player in range(4):
        for screen in (
            RollScreen(State(four.cards, four.extra_yachts, current=player), LONG_NAMES),
            RollScreen(State(four.cards, four.extra_yachts, current=player, kept=(1, 2, 3, 4)), LONG_NAMES, proxy=True),
            DiceScreen(State(four.cards, four.extra_yachts, current=player, phase=Phase.CHOOSE, dice=(1, 2, 3, 4, 6), rolls=3),
                       LONG_NAMES, "LS 40", 1234.5, Box.LARGE_STRAIGHT),
            DiceScreen(State(four.cards, four.extra_yachts, current=player, phase=Phase.CHOOSE, dice=(1, 2, 2, 4, 6), rolls=1),
                       LONG_NAMES, "KEEP 1 2 4 6", 123.4, proxy=True),
            ChoicesScreen(choosing, LONG_NAMES, listed(choosing), 7, 0, tuple(100.0 + i for i in range(len(listed(choosing))))),
            ScoredScreen(choosing, LONG_NAMES, player, Box.SMALL_STRAIGHT, 30, player == 3),
            BotTurnScreen(State(four.cards, four.extra_yachts, current=player, kept=(4, 4)), LONG_NAMES, player, (1, 4, 4, 5, 6),
                          ("keep 4 4",)),
            BotTurnScreen(four, LONG_NAMES, player, (1, 1, 1, 5, 6), ("keep 1 1 1", "keep 1 1 1", "3K 14")),
            WinnerScreen(State((CARD_A,) * 4, (0,) * 4, phase=Phase.OVER, winner=player), LONG_NAMES),
            CardScreen(State(four.cards, (7, 0, 0, 0), current=player), names),
        ):
            draw(screen)
    draw(WinnerScreen(State((CARD_A,) * 4, (0,) * 4, phase=Phase.OVER), LONG_NAMES))
    assert cut == []


def test_the_dice_screen_lists_every_box_the_dice_may_go_in_with_its_points_now(monkeypatch):
    from golden import watch_words  # the 6-px font only: the grid is in the small font
    from firmware.drawing import tiny_font

    drawn: list[str] = []
    original = tiny_font.tiny_text
    monkeypatch.setattr(yacht_screens, "tiny_text", lambda canvas, xy, words, fill=1: (drawn.append(words), original(canvas, xy, words, fill)))
    said = watch_words(monkeypatch, yacht_screens)
    draw(DiceScreen(DICE, NAMES, "KEEP 3 3 3", 248.3))
    assert "2 3 3 3 5" in said
    assert drawn[:2] == ["TIP KEEP 3 3 3", "EXPECT 248.3"]
    assert drawn[2:] == ["1S 0", "2S 2", "3S 9", "4S 0", "5S 5", "6S 0", "3K 16", "4K 0", "FH 0", "SS 0", "LS 0", "YA 0", "CH 16"]
    assert len(drawn[2:]) == len(BOXES)
    scored = [Score(box) for box in BOXES]
    assert listed(DICE)[:3] == (Score(Box.THREE_OF_A_KIND), Score(Box.CHANCE), Score(Box.THREES))
    assert set(listed(DICE)[: len(BOXES)]) == set(scored)


@pytest.mark.parametrize("screen", [SCREENS["scored"], BotTurnScreen(MID, NAMES, 1, (2, 3, 3, 5, 6), ("3S 6",))],
                         ids=["scored", "bot-turn-over"])
def test_every_yacht_screen_calls_the_scorecard_the_card(monkeypatch, screen):
    from golden import watch_words

    said = watch_words(monkeypatch, yacht_screens)
    draw(screen)
    assert "NEXT:card" in said and "NEXT:board" not in said


def test_a_score_that_earns_the_upper_bonus_and_an_extra_yacht_says_both(monkeypatch):
    from golden import watch_words

    upper = (3, 6, 9, 12, 15, 30)  # five 6s in Sixes make the upper 75 (it was 45): +35, and the Yacht box holds 50: +100
    state = State((upper + (None,) * 5 + (50, None), (None,) * 13), (1, 0), current=1)
    said = watch_words(monkeypatch, yacht_screens)
    draw(ScoredScreen(state, NAMES, 0, Box.SIXES, 30, True))
    assert "Total 260, +35 +100!" in said
    big = State((upper + (30, 40, 25, 30, 40, 50, None), (None,) * 13), (9, 0), current=1)  # a total of four digits
    draw(ScoredScreen(big, NAMES, 0, Box.SIXES, 30, True))
    assert total(big, 0) >= 1000 and f"Total {total(big, 0)}, +35 +100!" in said


def test_a_bots_turn_shows_its_dice_spaced_on_a_line_of_their_own_and_the_roll_in_the_title(monkeypatch):
    from golden import watch_words

    said = watch_words(monkeypatch, yacht_screens)
    draw(SCREENS["bot-turn"])
    assert said[:4] == ["Ann (A)", "roll 1/3", "2 3 3 3 5", "keep 3 3 3"]


def drawn_cells(monkeypatch, screen) -> list[tuple[int, int, int, str]]:
    """Every text the card draws in the small font: (left, right, top, words), its inked columns."""
    from firmware.drawing import tiny_font

    cells: list[tuple[int, int, int, str]] = []
    original = tiny_font.tiny_text

    def recording(canvas, xy, words, fill=1):  # type: ignore[no-untyped-def]
        cells.append((xy[0], xy[0] + tiny_font.tiny_width(words) - 1, xy[1], words))
        original(canvas, xy, words, fill)

    monkeypatch.setattr(yacht_screens, "tiny_text", recording)
    draw(screen)
    return cells



@pytest.mark.parametrize("players", [1, 2, 3, 4])
@pytest.mark.parametrize("card", [FULLEST, (None,) * 13, CARD_A], ids=["fullest", "empty", "a"])
def test_every_cell_of_the_card_keeps_a_space_from_its_neighbours(monkeypatch, players, card):
    """Neighbours on a row keep at least the small font's space between them (0 and 265 never
    read 0265, a total of four digits never runs into its label), rows never touch, and the
    names keep clear of the grid."""
    from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_width

    state = State((card,) * players, (9,) * players, phase=Phase.OVER if card[0] is not None else Phase.ROLL)
    assert card is not FULLEST or total(state, 0) >= 1000
    cells = drawn_cells(monkeypatch, CardScreen(state, LONG_NAMES[:players]))
    assert all(0 <= left and right < 128 and 0 <= top and top + GLYPH_HEIGHT <= 64 for left, right, top, _ in cells)
    space = tiny_width(" ")
    for one in cells:
        for other in cells:
            if one is other:
                continue
            same_row = one[2] == other[2]
            overlap_x = one[0] <= other[1] + space and other[0] <= one[1] + space
            if same_row:
                assert not overlap_x, f"{one[3]!r} and {other[3]!r} run together"
            elif overlap_x:
                assert abs(one[2] - other[2]) > GLYPH_HEIGHT, f"{one[3]!r} and {other[3]!r} touch"
    names_top = min(top for _, _, top, words in cells if any(name in words for name in LONG_NAMES[:players]))
    grid_bottom = max(top for _, _, top, _ in cells if top < names_top) + GLYPH_HEIGHT
    assert names_top >= grid_bottom + 2, "the names sit directly on the grid"


def test_the_readmes_yacht_section_explains_every_abbreviation_of_the_card():
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Yacht\n", 1)[1].split("\n## ", 1)[0]
    table = [row for row in section.splitlines() if row.startswith("| `")]
    explained = {cell.replace("`", "").strip() for row in table for cell in row.split("|")[1::3]}
    words = {"1S ... 6S": {"1S", "2S", "3S", "4S", "5S", "6S"}}
    shown = set().union(*(words.get(cell, {cell}) for cell in explained))
    assert set(yacht_screens.SHORT.values()) | {"UP", "BN", yacht_screens.EXTRA_SHORT} <= shown


def test_the_card_of_one_or_two_players_shows_every_point_of_the_total(monkeypatch):
    """The total held +100 for each extra Yacht and no row showed it (405 beside 64 + 35 + 206)."""
    words = [words for *_, words in drawn_cells(monkeypatch, CardScreen(WON, NAMES))]
    assert yacht_screens.EXTRA_SHORT in words and "100" in words
    upper, lower = sum(CARD_A[:6]), sum(CARD_A[6:])
    assert total(WON, 0) == upper + 35 + lower + 100 and str(total(WON, 0)) in words


def test_the_game_ends_on_the_winner_with_its_last_scoring_and_a_joker_is_announced_before():
    """The winner screen came straight after the last reading, the last box never shown; a joker's
    +100 was not said before scoring (the tip said "6S 30", the page "Would score Sixes 30")."""
    from firmware.games.yacht.table import TABLE
    from firmware.games.yacht.web import facts

    last = State((CARD_A[:12] + (None,), CARD_B), (0, 0), current=0, phase=Phase.CHOOSE, dice=(1, 2, 3, 4, 6), rolls=3)
    over = GAME.apply(last, Score(Box.CHANCE))
    banner = TABLE.after_move(last, Score(Box.CHANCE), over, NAMES)
    assert isinstance(banner, WinnerScreen) and banner.last == "A CH 16"
    assert tip_label(JOKER, Score(Box.SIXES)) == "6S 30 YB 100"
    assert ("Yacht bonus", "+100 with any box") in facts(JOKER, NAMES)


def test_a_solitaire_game_over_stands_at_its_points():
    from firmware.games.yacht.table import TABLE

    alone = State((CARD_A,), (0,), phase=Phase.OVER, winner=0)
    assert TABLE.doing(alone, ("Ann",)) == f"Ann: {total(alone, 0)} points" and TABLE.doing(WON, NAMES) == "Ann: over"
