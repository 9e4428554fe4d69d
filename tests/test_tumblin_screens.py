"""Tumblin' Dice's screens: drawn from states the engine reached by its moves, compared with their
reference PNGs (tests/golden/tumblin-*.png), no text cut at the panel's edge with names of eight
letters, and the helpers that decide what the rows say."""

from __future__ import annotations

import pytest

from engine.tumblin import GAME, Scoring, State
from firmware.drawing.screens import draw
from firmware.games.tumblin import screens as tumblin_screens
from firmware.games.tumblin.draft import CARD, COLOUR, FACE, LEVEL, NO_DIE, DraftDie
from firmware.games.tumblin.flicks import ZERO_WARNING
from firmware.games.tumblin.screens import (
    FlickScreen,
    ResultScreen,
    RoundsScreen,
    TallyScreen,
    WaitingScreen,
    board_rows,
    cell_text,
    die_sentence,
    fitted_columns,
    flick_title,
    regular_rounds,
    round_columns,
    sides_in_order,
)
from golden import assert_matches_golden, watch_for_cut_text, watch_words

NAMES = ("Ann", "Bob", "Cid", "Dan")
LONG_NAMES = ("Margaret", "Benedikt", "Caroline", "Dominika")
ENTRIES = ("landed", "stayed", "standing", "breed red", "mine", "rounds")
BORDER = "level: on the border of levels 2 and 3"


def played(players: int, *moves: str, **variant: object) -> State:
    state = GAME.new_game(players, **variant)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state


def round_of(players: int, tally: str) -> tuple[str, ...]:
    """Every die of a round flicked (none stayed), then the board read."""
    return (*["flick"] * 4 * players, tally)


# Red and green tied for the lead (39 each) after four rounds: blue sits the overtime out, which green starts (it
# flicked before red in round 4) and red wins.
TIED = (
    *round_of(3, "tally red 4@3 green 2@2 blue 5@1"),
    *round_of(3, "tally red 4@2 green 6@4 blue 5@1"),
    *round_of(3, "tally red 1@3 green 2@2 blue 5@3"),
    *round_of(3, "tally red 4@4 green 1@3 green 2@2 blue 5@2"),
)
OVERTIME = played(3, *TIED, "flick", "flick stayed", "flick")
OVERTIME_WON = played(3, *TIED, *["flick"] * 8, "tally red 6@4 green 2@1")
TEAM_ROUNDS = (
    *round_of(4, "tally red 4@3 green 2@2 blue 5@1 black 3@3"),
    *round_of(4, "tally red 4@2 green 6@4 blue 5@1"),
    *round_of(4, "tally red 1@3 green 2@2 blue 5@3 black 6@4"),
)
TEAMS_MID = played(4, *TEAM_ROUNDS, "flick", "flick", "flick", teams=True)
TEAMS_WON = played(4, *TEAM_ROUNDS, *round_of(4, "tally red 4@4 green 2@1 blue 5@2"), teams=True)
MID = played(3, "flick", "flick", "flick", "flick stayed", "flick")
LONG = played(4, *round_of(4, "tally red 4@3 green 2@2 blue 5@1 black 6@4 red 3@1"), "flick", "flick", "flick")
TALLY = played(3, *["flick"] * 11, "flick stayed")
READ = (
    DraftDie("red", 4, 3), DraftDie("green", 2, 1), DraftDie("red", 5, None, doubt=BORDER), DraftDie("blue", 6, 2),
    DraftDie(None, 3, 2, doubt="colour: unread"), DraftDie("red", 1, 4),
    DraftDie("green", None, 2, doubt="face: unread"),
)
CARDS = played(4, *["flick"] * 16, multiplier_cards=2)
SIXTEEN = tuple(
    DraftDie(name, face, level, card)
    for name in ("red", "green", "blue", "black")
    for face, level, card in ((4, 3, 0), (6, 4, 1), (2, 1, 2), (5, 2, 0))
)
ADDING = played(2, *["flick"] * 7, "flick stayed", scoring="add")

SCREENS = {
    "flick-start": FlickScreen(GAME.new_game(2), NAMES[:2], ENTRIES, 0, None),
    "flick-standing": FlickScreen(MID, NAMES[:3], ENTRIES, 3, (14, 8, 0)),
    "flick-long-names": FlickScreen(LONG, LONG_NAMES, ENTRIES, 0, None),
    "flick-teams": FlickScreen(TEAMS_MID, LONG_NAMES, ENTRIES, 0, (10, 4, 0, 12)),
    "flick-overtime": FlickScreen(OVERTIME, NAMES[:3], ENTRIES, 0, None, "undone: flick"),
    "tally-unsure": TallyScreen(TALLY, NAMES[:3], READ, 2, None, (), True),
    "tally-editing": TallyScreen(CARDS, NAMES, SIXTEEN, 5, CARD, (), True),
    "tally-count-unseen": TallyScreen(ADDING, NAMES[:2], (DraftDie("red", 4, 3), DraftDie("green", 2, 1)), 3, None,
                                      (("red", 1), ("green", 1)), True),
    "tally-on-zero": TallyScreen(ADDING, NAMES[:2], (DraftDie("red", 4, 3), DraftDie("green", 2, 0)), 0, None,
                                 (), True),
    "tally-take-off": TallyScreen(ADDING, NAMES[:2], (DraftDie("red", 4, 3), DraftDie("green", 2, 0)), 3, None,
                                  (), True, f"Take green 2 {ZERO_WARNING}"),  # the count found it on the 0x level
    "standing": TallyScreen(CARDS, LONG_NAMES, SIXTEEN, 9, None, (), False),
    # a die on the 0x level at a standing: what happens to it (no ROLL: any press puts the standing away)
    "standing-on-zero": TallyScreen(ADDING, NAMES[:2], (DraftDie("red", 4, 3), DraftDie("green", 2, 0)), 0, None,
                                    (), False),
    "flick-stayed": FlickScreen(MID, NAMES[:3], ENTRIES, 1, None),  # SELECT:stayed was never explained
    "waiting": WaitingScreen(TALLY, NAMES[:3]),
    "rounds-overtime": RoundsScreen(OVERTIME_WON, NAMES[:3]),
    "rounds-teams": RoundsScreen(TEAMS_WON, LONG_NAMES),
    "result-teams": ResultScreen(TEAMS_WON, NAMES),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_reference(name, update_golden):
    assert_matches_golden(draw(SCREENS[name]), f"tumblin-{name}", update_golden)


def test_the_title_says_whose_flick_it_is_and_which_die_as_far_as_it_fits():
    assert flick_title(played(2, "flick", "flick"), NAMES) == ("Ann: flick red", "R1 2/4")
    state = played(4, *["flick"] * 5)
    assert flick_title(state, NAMES) == ("Bob: green", "R1 2/4")
    assert flick_title(played(4, *["flick"] * 6), LONG_NAMES) == ("Caroline: blue", "R1 2/4")
    assert flick_title(state, LONG_NAMES) == ("Benedikt: green", "R1")
    assert flick_title(state, LONG_NAMES, last_round=True) == ("Benedikt: green", "last")
    assert flick_title(OVERTIME, NAMES, last_round=True) == ("Ann: flick red", "OT 2/4")


def test_sixteen_dice_of_four_players_take_four_rows_of_four_with_their_points():
    rows = board_rows(CARDS, SIXTEEN)
    assert [(label, len(dice)) for label, dice, _ in rows] == [("red", 4), ("green", 4), ("blue", 4), ("black", 4)]
    # each colour: 4x3, 6x4 on card 1 with three others, 2x1 on card 2 with three others, 5x2
    assert {points for _, _, points in rows} == {12 + 24 * 4 + 2 * 4 + 10}


def test_unknown_parts_read_as_question_marks_and_count_nothing():
    rows = board_rows(TALLY, READ)
    assert rows == [("red", (0, 2, 5), 16), ("green", (1, 6), 2), ("blue", (3,), 12), ("?", (4,), None)]
    assert cell_text(READ[2], Scoring.MULTIPLY) == "5x?" and cell_text(READ[6], Scoring.MULTIPLY) == "?x2"
    assert cell_text(DraftDie("red", 4, 3), Scoring.ADD) == "4+3"
    assert die_sentence(TALLY, READ, 0) == "red 4 on 3x = 12"
    assert die_sentence(TALLY, READ, 2) == "red 5 on ?x"
    assert die_sentence(CARDS, SIXTEEN, 1) == "red 6 on 4x*1 = 96"


def test_dice_of_a_colour_beyond_four_go_on_a_second_row():
    dice = tuple(DraftDie("red", face, 1) for face in range(1, 7))
    assert board_rows(GAME.new_game(2), dice) == [("red", (0, 1, 2, 3), 21), ("", (4, 5), None), ("green", (), 0)]


def test_overtime_rounds_are_marked_and_a_seat_sitting_out_has_no_score():
    assert regular_rounds(OVERTIME_WON) == 4
    columns = round_columns(OVERTIME_WON)
    assert [label for label, _ in columns] == ["1", "2", "3", "4", "OT"]
    assert columns[-1][1] == (24, 2, None)
    assert sides_in_order(OVERTIME) == ((1,), (0,), (2,)), "green flicked before red in round 4; blue sits out: last"


def test_a_target_score_ends_regular_play_in_the_round_that_reaches_it():
    state = played(2, *round_of(2, "tally red 6@4 red 6@4 green 6@4 green 6@4"), target=40)
    assert state.overtime and regular_rounds(state) == 1


def test_rounds_that_do_not_fit_are_summed_into_the_first_column():
    columns = round_columns(OVERTIME_WON)
    assert fitted_columns(columns, 200) == columns
    folded = fitted_columns(columns, 58)  # all five take 59 px: four 2-digit columns of 7, "OT" 11, gaps of 4
    assert folded[0] == ("1-2", (20, 28, 10)) and [label for label, _ in folded[1:]] == ["3", "4", "OT"]


def test_teams_are_listed_together_the_team_flicking_first_on_top():
    assert TEAMS_MID.order[:2] == (1, 0)
    assert sides_in_order(TEAMS_MID) == ((1, 3), (0, 2))


@pytest.mark.parametrize("state, names, title", [
    (TEAMS_WON, NAMES, ["Ann+Cid", "win!"]),  # a team: they win
    (TEAMS_WON, ("Anna", "Bob", "Carl", "Dan"), ["Team wins!"]),  # "Anna+Carl" leaves no room for "win!"
    (OVERTIME_WON, NAMES, ["Ann wins!"]),
])
def test_the_result_says_who_won_in_agreement_with_them(monkeypatch, state, names, title):
    said = watch_words(monkeypatch, tumblin_screens)
    draw(ResultScreen(state, names))
    assert said[:len(title)] == title


def test_names_of_eight_letters_fit_every_screen_and_no_footer_runs_its_hints_together(monkeypatch):
    cut = watch_for_cut_text(monkeypatch, tumblin_screens)
    for screen in SCREENS.values():
        draw(screen)
    for state in (GAME.new_game(4), LONG, TEAMS_MID, played(4, *TEAM_ROUNDS, "flick", teams=True)):
        for cursor in range(len(ENTRIES)):
            draw(FlickScreen(state, LONG_NAMES, ENTRIES, cursor, (96, 40, 0, 7), last_round=True))
        draw(WaitingScreen(state, LONG_NAMES, "board not calibrated"))
        draw(RoundsScreen(state, LONG_NAMES))
    draw(FlickScreen(OVERTIME, LONG_NAMES[:3], ENTRIES, 0, None, "undone: flick stayed"))
    for cursor in range(len(SIXTEEN) + 2):
        draw(TallyScreen(CARDS, LONG_NAMES, SIXTEEN, cursor, None, (("black", 2), ("green", 1)), True))
    for field in (FACE, COLOUR, LEVEL, CARD):
        draw(TallyScreen(CARDS, LONG_NAMES, (DraftDie("black", NO_DIE, None, 2, BORDER),), 0, field, (), True))
    for state in (OVERTIME_WON, TEAMS_WON, played(4, *round_of(4, "tally"), *round_of(4, "tally red 1@1"),
                                                  *round_of(4, "tally"), *round_of(4, "tally"))):
        draw(ResultScreen(state, LONG_NAMES[:state.players]))
        draw(RoundsScreen(state, LONG_NAMES[:state.players]))
    assert cut == []


def test_one_die_on_the_board_is_a_die(monkeypatch):
    """"Standing 1 dice" (demo --game tumblin --auto --seed 1, screen 88)."""
    said = watch_words(monkeypatch, tumblin_screens)
    draw(TallyScreen(CARDS, NAMES, (DraftDie("red", 4, 2),), 0, None, (), False))
    assert said[1].startswith("1 die ") and not any("1 dice" in words for words in said)


def test_a_die_on_the_0x_level_at_a_standing_is_said_to_be_set_aside_at_the_count(monkeypatch):
    """"take it off, then ROLL" asked what no hand can do on the keyboard demo's simulated board, and
    promised a reading ROLL never made there (any press puts a standing away)."""
    said = watch_words(monkeypatch, tumblin_screens)
    draw(SCREENS["standing-on-zero"])
    assert said[-2:] == ["green 2 on 0x: set", "aside at the count"]
