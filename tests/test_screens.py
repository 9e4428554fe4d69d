"""Every OLED screen against its reference PNG (look at them: tests/golden/screen-*.png)."""

from __future__ import annotations

import pytest

from engine.cant_stop import bust_probability, legal_moves
from firmware.drawing.screens import (
    BadReadScreen,
    DiceLessonScreen,
    ManualEntryScreen,
    NoticeScreen,
    SetupScreen,
    draw,
    wrapped,
    percent,
    says,
)
from firmware.games.cant_stop import screens as cant_stop_screens
from firmware.games.cant_stop.screens import (
    BoardScreen,
    BotTurnScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    RollScreen,
    WinnerScreen,
)
from golden import assert_matches_golden, watch_for_cut_text
from table_helpers import NAMES, resume_screen, state_after

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

BUSTED = state_after("roll 2-2-2-2", "4+4", "roll 3-3-3-3", "6+6", "roll 4-4-4-4", "8+8", "roll 1-1-1-1")
FOUR_PLAYERS = state_after(
    "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop",  # player 1 claims 2
    "roll 3-4-3-4", "7+7", "stop",  # player 2: 7 at 2
    "roll 3-3-4-4", "6+8", "stop",  # player 3: 6 and 8 at 1
    "roll 6-6-5-5", "10+12", "roll 3-4-3-4", "7+7",  # player 4's runners out on 7, 10 and 12
    players=4,
)
LONG_NAMES = ("Margaret", "Benedikt", "Caroline", "Dominika")

SCREENS = {
    "setup": SetupScreen((("Game", "Can't Stop"), ("Players", "2"), ("Columns to win", "3"), ("Rules", "standard")), 2),
    "setup-dice-row": SetupScreen((("Game", "Counters to Top"), ("Players", "2"), ("Dice", "teach camera")), 2, "learn"),
    "setup-start-line": SetupScreen((("Game", "Counters to Top"), ("Players", "2"), ("Dice", "teach camera")), 3),
    "setup-scrolled": SetupScreen((("Game", "Tumblin' Dice"), ("Players", "4"), ("Play to", "4 rounds"),
                                   ("Score", "face x level"), ("Teams", "none")), 2),
    "roll-first": RollScreen(state_after(), NAMES, bust_probability(state_after())),
    "roll-runners": RollScreen(MIDGAME, NAMES, bust_probability(MIDGAME)),
    "roll-runners-bot": RollScreen(MIDGAME, NAMES, bust_probability(MIDGAME), bot_decides=True),  # no STOP offered
    "roll-reading": RollScreen(MIDGAME, NAMES, bust_probability(MIDGAME), "reading dice..."),
    "choice": ChoiceScreen(CHOOSING, ("Ann", "Bob", "Cy"), legal_moves(CHOOSING), 1),
    "bad-read-three-dice": BadReadScreen(3, (2, 4, 6), 0, 4),
    "bad-read-cocked-die": BadReadScreen(4, (1, 3, 6), 1, 4),
    "bust": BustScreen(BUSTED, NAMES, 0, (1, 1, 1, 1)),
    "claim": ClaimScreen(state_after("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop"), NAMES, 0, (2,)),
    "winner": WinnerScreen(WON, NAMES),
    "resume": resume_screen(MIDGAME, NAMES),
    "resume-abandon": resume_screen(MIDGAME, NAMES, confirming=True),
    "manual-entry": ManualEntryScreen(NAMES[MIDGAME.current], (3, 6, 1, 1), 1),
    "dice-check": ManualEntryScreen("throw 3", (2, 5, 5, 1, 6), 2, heading="Check dice"),
    "dice-lesson": DiceLessonScreen((2, 0, 3, 1, 4, 2), "kept 4 dice"),
    "dice-lesson-enough": DiceLessonScreen((12, 9, 11, 10, 14, 8)),
    "notice-events-lost": NoticeScreen("Events lost", wrapped("game 12's events 1041-1058. The log was damaged."),
                                       "played on"),
    "notice-journal": NoticeScreen(
        "Journal damaged", ("kept aside as", "journal.sqlite3.unrea", "dable-20261123-101500"), "new journal"
    ),
    "board": BoardScreen(MIDGAME, NAMES),
    "board-four-long-names": BoardScreen(FOUR_PLAYERS, LONG_NAMES),
    "bot-rolls-again": BotTurnScreen(MIDGAME, NAMES, 0, (1, 3, 5, 6), "7+8"),
    "bot-stops-and-claims": BotTurnScreen(
        state_after("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop"), NAMES, 0, (1, 1, 1, 1), "2", (2,)
    ),
    "choice-for-a-bot": ChoiceScreen(CHOOSING, ("Robo", "Bob", "Cy"), legal_moves(CHOOSING), 0, proxy=True),
    "long-name-resume": resume_screen(FOUR_PLAYERS, LONG_NAMES),
    "long-name-choice": ChoiceScreen(CHOOSING, LONG_NAMES[:3], legal_moves(CHOOSING), 0),
    "long-name-winner": WinnerScreen(WON, ("Margaret", "Bob")),
    "long-name-bust": BustScreen(BUSTED, ("Margaret", "Benedikt"), 0, (1, 1, 1, 1)),
    "you-claim": ClaimScreen(state_after("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop"), ("You", "Advisor"), 0, (2,)),
    "you-win": WinnerScreen(WON, ("You", "Advisor")),
}


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_reference(name, update_golden):
    image = draw(SCREENS[name])
    assert image.size == (128, 64) and image.mode == "1"
    assert_matches_golden(image, f"screen-{name}", update_golden)


def test_a_player_called_you_is_spoken_to():
    assert says("Ann", "wins") == "Ann wins" and says("You", "wins") == "You win" and says("you", "claims") == "you claim"


def test_odds_are_shown_to_one_decimal():
    assert percent(bust_probability(MIDGAME)) == f"{float(bust_probability(MIDGAME)) * 100:.1f}%"
    assert percent(bust_probability(state_after())) == "0.0%"


@pytest.mark.parametrize("names", [LONG_NAMES, LONG_NAMES[:2], ("You", "Advisor")])
def test_names_of_eight_letters_fit_every_screen(names, monkeypatch):
    """Every text drawn stays whole on the panel, and titles leave a gap between left and right."""
    cut = watch_for_cut_text(monkeypatch, cant_stop_screens)
    state = FOUR_PLAYERS if len(names) == 4 else MIDGAME
    choosing = state_after("roll 1-1-1-2", players=len(names))
    for screen in (
        RollScreen(state, names, bust_probability(state), advice="STOP"),
        RollScreen(state, names, bust_probability(state), proxy=True),
        ChoiceScreen(choosing, names, legal_moves(choosing), advice=0),
        ChoiceScreen(choosing, names, legal_moves(choosing), proxy=True),
        BustScreen(state, names, 0, (1, 1, 1, 1)),
        ClaimScreen(state, names, 0, (2, 7, 12)),
        BotTurnScreen(state, names, 0, (6, 6, 6, 6), "12+12", (2, 7, 12)),
        BotTurnScreen(MIDGAME, names, 0, (1, 3, 5, 6), "7+8"),
        WinnerScreen(WON, names[:2] if len(names) == 2 else names),
        resume_screen(state, names),
        resume_screen(state, names, confirming=True),
        ManualEntryScreen(names[state.current], (1, 2, 3, 4), 0),
        BoardScreen(state, names),
    ):
        draw(screen)
    assert cut == []


def test_every_set_up_row_of_every_game_is_drawn_whole_with_its_label(monkeypatch):
    """Every value of every option of every game, drawn where the rows stand: nothing cut, every
    row keeps its label (the scroll marks are in the title bar, not on a row's line); a value too
    long for a line would lose words from its end, never the label."""
    from firmware.core.game_setup import GameSetup
    from firmware.drawing import screens
    from firmware.drawing.screens import setup_row
    from firmware.games import GAMES
    from firmware.table.companion import Companion
    from hardware.buttons import Press
    from hardware.display import dummy_display
    from table_helpers import press

    assert setup_row("Game", "Counters to the Top", 19) == "Game: Counters"
    assert setup_row("Score", "face x level", 15) == "Score: face"
    assert setup_row("Mine kind", "proximity", 15) == "Mine kind: prox"
    cut = watch_for_cut_text(monkeypatch, screens)
    rows: set[tuple[str, str]] = set()
    for game in GAMES:
        companion = Companion(dummy_display(), GameSetup(("Ann", "Bob", "Cleo", "Dev"), kind=game.kind))
        while isinstance(companion.screen, SetupScreen) and companion.screen.field < len(companion.screen.rows):
            for _ in range(8):  # every value of the row, round again
                draw(companion.screen)
                rows.update(companion.screen.rows)
                press(companion, Press.NEXT)
            press(companion, Press.SELECT)
        draw(companion.screen)  # the start line
    whole_line = (screens.WIDTH - 1) // screens.CHAR_PX
    assert [row for row in rows if setup_row(*row, whole_line) != f"{row[0]}: {row[1]}"] == []
    assert cut == [] and len(rows) > 20


def test_the_dice_lessons_row_says_what_next_does_and_only_games_that_read_dice_have_it():
    """Columns reads no dice: no "Dice" row; on the row, NEXT starts the lesson and the footer says so."""
    from firmware.core.game_setup import GameSetup
    from firmware.games import GAMES
    from firmware.table._setup_menu import first_menu, menu_after
    from hardware.buttons import Press

    for game in GAMES:
        menu = first_menu(GameSetup(("Ann", "Bob"), kind=game.kind), learn_dice=True)
        labels = [label for label, _ in menu.screen().rows]
        assert ("Dice" in labels) == (game.camera != ""), game.kind
        while menu.field < menu.start_field:
            screen = menu.screen()
            assert screen.next_does == ("learn" if menu.field == menu.lesson_field else "change")
            menu = menu_after(menu, Press.SELECT, GameSetup(("Ann", "Bob"), kind=game.kind))


def test_a_title_never_runs_into_its_note(monkeypatch):
    """Counters' bot turn read "Advisor2 (C)1 2 2 4 5": the words are cut to leave a space."""
    from PIL import Image, ImageDraw

    from firmware.drawing import screens

    drawn = []
    monkeypatch.setattr(screens, "text", lambda canvas, xy, words, fill=1, right=False: drawn.append((xy[0], words, right)))
    screens.title(ImageDraw.Draw(Image.new("1", (128, 64))), "Advisor2 (C) takes", "1 2 2 4 5")
    (left_x, words, _), (right_x, note, _) = drawn
    assert left_x + len(words) * screens.CHAR_PX + screens.CHAR_PX <= right_x - len(note) * screens.CHAR_PX
