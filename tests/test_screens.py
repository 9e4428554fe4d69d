"""Every OLED screen against its reference PNG (look at them: tests/golden/screen-*.png)."""

from __future__ import annotations

import pytest

from engine.cant_stop import bust_probability, legal_moves
from firmware.screens import (
    BadReadScreen,
    BoardScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    ManualEntryScreen,
    NoticeScreen,
    ResumeScreen,
    RollScreen,
    SetupScreen,
    WinnerScreen,
    board_line,
    draw,
    percent,
)
from golden import assert_matches_golden
from table_helpers import NAMES, state_after

MIDGAME = state_after(
    "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop",  # Ann claims 2
    "roll 3-4-3-4", "7+7", "roll 2-3-4-5", "5+9", "stop",  # Bob: 7 at 2, 5 at 1, 9 at 1
    "roll 3-3-4-4", "6+8", "roll 3-3-4-4", "6+8", "roll 1-3-5-6", "7+8",  # Ann's runners out on 6, 7, 8
)
CHOOSING = state_after("roll 3-3-4-4", "6+8", "roll 1-3-5-6", "7+8", "roll 2-4-5-6", players=3)
WON = state_after(
    "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1",
    "roll 6-6-6-6", "12+12", "roll 6-6-6-6", "12", "stop", "roll 1-1-1-1",
    "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3", "stop",
)

SCREENS = {
    "setup": SetupScreen(2, 3, "standard", 1),
    "roll-first": RollScreen(state_after(), NAMES, bust_probability(state_after())),
    "roll-runners": RollScreen(MIDGAME, NAMES, bust_probability(MIDGAME)),
    "roll-reading": RollScreen(MIDGAME, NAMES, bust_probability(MIDGAME), "reading dice..."),
    "choice": ChoiceScreen(CHOOSING, ("Ann", "Bob", "Cy"), legal_moves(CHOOSING), 1),
    "bad-read-three-dice": BadReadScreen(MIDGAME, NAMES, 3, (2, 4, 6), 0, 4),
    "bad-read-cocked-die": BadReadScreen(MIDGAME, NAMES, 4, (1, 3, 6), 1, 4),
    "bust": BustScreen(
        state_after("roll 2-2-2-2", "4+4", "roll 3-3-3-3", "6+6", "roll 4-4-4-4", "8+8", "roll 1-1-1-1"), NAMES, 0, (1, 1, 1, 1)
    ),
    "claim": ClaimScreen(state_after("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop"), NAMES, 0, (2,)),
    "winner": WinnerScreen(WON, NAMES),
    "resume": ResumeScreen(MIDGAME, NAMES),
    "resume-abandon": ResumeScreen(MIDGAME, NAMES, confirming=True),
    "manual-entry": ManualEntryScreen(MIDGAME, NAMES, (3, 6, 1, 1), 1),
    "notice-journal": NoticeScreen(
        "Journal unreadable", ("kept aside as", "journal.sqlite3.unrea", "dable-20261123-101500"), "started anew"
    ),
    "board-1": BoardScreen(MIDGAME, NAMES, 0),
    "board-2": BoardScreen(MIDGAME, NAMES, 1),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_reference(name, update_golden):
    image = draw(SCREENS[name])
    assert image.size == (128, 64) and image.mode == "1"
    assert_matches_golden(image, f"screen-{name}", update_golden)


def test_the_board_lines_say_who_stands_where():
    assert board_line(MIDGAME, 2) == " 2/3  won by A"
    assert board_line(MIDGAME, 7) == " 7/13 B2 ^1"
    assert board_line(MIDGAME, 12) == "12/3  "


def test_odds_are_shown_to_one_decimal():
    assert percent(bust_probability(MIDGAME)) == f"{float(bust_probability(MIDGAME)) * 100:.1f}%"
    assert percent(bust_probability(state_after())) == "0.0%"
