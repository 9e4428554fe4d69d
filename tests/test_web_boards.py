"""The web page's board pictures and the lines beside them, for every game: SVG that parses with a
viewBox and no size, names escaped, every piece where the engine's state has it, and the facts
the OLED shows (Can't Stop's bust odds exactly engine.cant_stop.bust_probability's)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
import pytest

from columns_positions import play as columns_play
from columns_positions import playout, row_game
from columns_positions import position as columns_position
from counters_positions import play as counters_play
from counters_positions import position as counters_position
from engine.cant_stop import COLUMNS, HEIGHTS, STOP, apply, bust_probability, choices
from engine.counters import COLUMN_NAMES, default_board
from engine.counters import new_game as counters_new_game
from engine.counters.variant import Variant as CountersVariant
from engine.dice import Roll
from engine.tumblin import tally_due
from firmware.core.catalogue import UnknownGameError, kinds, table_game, web_view
from firmware.drawing.svg import SEAT_COLOURS
from firmware.games.cant_stop import web as cant_stop_web
from firmware.games.columns import web as columns_web
from firmware.games.counters import web as counters_web
from firmware.games.tumblin import web as tumblin_web
from positions import position as cant_stop_position
from tumblin_positions import flick_all, game, play, rounds

SVG = "{http://www.w3.org/2000/svg}"
TRICKY = ["<Ann & Bob>", 'Zoë "Z"', "Cy</text>", "D&amp;"]


def parse(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    return root


def marked(root: ET.Element, *attributes: str) -> list[ET.Element]:
    """Every element carrying all of these ``data-`` attributes."""
    return [e for e in root.iter() if all(f"data-{a}" in e.attrib for a in attributes)]


def texts(root: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in root.iter(f"{SVG}text")]


def fresh(kind: str, players: int):
    return table_game(kind).engine.new_game(players)


# --- every game -----------------------------------------------------------------------------


def test_every_kind_has_a_web_view_and_an_unknown_one_is_refused():
    for kind in kinds():
        view = web_view(kind)
        assert callable(view.board_svg) and callable(view.facts)
    with pytest.raises(UnknownGameError, match="cant-stop"):
        web_view("chess")


@pytest.mark.parametrize("kind", kinds())
def test_a_fresh_board_scales_and_says_what_it_shows(kind):
    players = 2
    root = parse(web_view(kind).board_svg(fresh(kind, players), TRICKY[:players]))
    assert "width" not in root.attrib and "height" not in root.attrib
    x, y, width, height = map(float, root.attrib["viewBox"].split())
    assert (x, y) == (0, 0) and 200 < width < 700 and 200 < height < 800  # near square: a phone upright, a TV
    assert root.attrib["role"] == "img"
    assert root.attrib["aria-label"] and root[0].tag == f"{SVG}title"
    assert root[0].text == root.attrib["aria-label"]


@pytest.mark.parametrize("kind", kinds())
def test_names_from_the_configuration_are_escaped(kind):
    players = 2 if kind == "columns" else 4
    names = TRICKY[:players]
    picture = web_view(kind).board_svg(fresh(kind, players), names)
    assert "&lt;Ann &amp; Bob&gt;" in picture and "Cy</text>" not in picture
    words = " ".join(texts(parse(picture)))
    for name in names:
        assert name in words
    facts = web_view(kind).facts(fresh(kind, players), names)
    assert all(isinstance(label, str) and (isinstance(value, str) or all(isinstance(piece, str) for piece in value))
               for label, value in facts)


# --- Can't Stop -----------------------------------------------------------------------------


def test_cant_stop_markers_stand_at_their_steps_with_the_runners_and_claims():
    saved = {0: {7: 3, 4: 2, 2: HEIGHTS[2]}, 1: {7: 5, 9: 4, 12: HEIGHTS[12]}, 2: {6: 6}}
    state = cant_stop_position(3, runners={7: 5, 4: 3}, saved=saved, claimed={2: 0, 12: 1})
    root = parse(cant_stop_web.board_svg(state, ["Ann", "Bob", "Cy"]))
    found = {(int(e.get("data-player")), int(e.get("data-column")), int(e.get("data-step"))) for e in marked(root, "player", "column", "step")}
    expected = {(p, c, state.saved_space(p, c)) for p in range(3) for c in COLUMNS if state.saved_space(p, c)}
    assert found == expected and (0, 2, 3) in found and (1, 12, 3) in found
    runners = {(int(e.get("data-runner")), int(e.get("data-step"))) for e in marked(root, "runner")}
    assert runners == {(7, 5), (4, 3)}
    claims = {int(e.get("data-column")): int(e.get("data-claimed-by")) for e in marked(root, "claimed-by")}
    assert claims == {2: 0, 12: 1}


def test_cant_stop_markers_are_higher_up_the_further_they_stand():
    state = cant_stop_position(2, saved={0: {7: 1, 8: 1, 6: 9}, 1: {5: 1}})
    root = parse(cant_stop_web.board_svg(state, ["Ann", "Bob"]))
    circles = {int(g.get("data-column")): float(g.find(f"{SVG}circle").get("cy")) for g in marked(root, "player") if g.get("data-player") == "0"}
    assert circles[7] == circles[8] > circles[6]


def test_cant_stop_facts_give_the_bust_odds_before_a_roll():
    state = cant_stop_position(2, runners={6: 2, 7: 3, 8: 1}, current=1)
    facts = dict(cant_stop_web.facts(state, ["Ann", "Bob"]))
    odds = bust_probability(state)
    assert facts["Bust odds"] == f"{float(odds) * 100:.1f}%" and odds > 0
    assert facts["Turn"] == "Bob (B)" and facts["Doing"] == "to roll or stop"
    assert facts["Runners"] == ["6: 2/11,", "7: 3/13,", "8: 1/11"]
    assert "Roll" not in facts


def test_cant_stop_facts_give_the_roll_its_pairs_and_choices():
    state = apply(cant_stop_position(2), Roll((1, 3, 4, 6)))
    facts = cant_stop_web.facts(state, ["Ann", "Bob"])
    assert facts[:3] == [("Turn", "Ann (A)"), ("Round", "1"), ("Doing", "choosing")]
    found = dict(facts)
    assert found["Roll"] == "1 3 4 6" and found["Pairs"] == ["4+10,", "5+9,", "7+7"]
    assert " ".join(found["Choices"]) == ", ".join(c.text() for c in choices(state, state.dice))
    assert "Bust odds" not in found


def test_cant_stop_finished_game_names_the_winner():
    state = apply(cant_stop_position(2, runners={2: 3, 3: 5, 4: 7}), STOP)
    facts = cant_stop_web.facts(state, ["Ann", "Bob"])
    assert facts[:2] == [("Winner", "Ann (A)"), ("Columns", "2 3 4")]
    root = parse(cant_stop_web.board_svg(state, ["Ann", "Bob"]))
    assert [e.get("data-seat") for e in root.iter() if e.get("data-pointer") == "winner"] == ["0"]
    assert "won" in root.attrib["aria-label"]


# --- Get Your Counters to the Top -----------------------------------------------------------


def counters_markers(root: ET.Element) -> set[tuple[int, str, int]]:
    return {(int(e.get("data-player")), e.get("data-column"), int(e.get("data-square"))) for e in marked(root, "player", "square")}


def test_counters_fresh_board_has_every_counter_on_the_bottom_row_and_the_board_s_specials():
    state = counters_new_game(3, CountersVariant(default_board()))
    root = parse(counters_web.board_svg(state, ["Ann", "Bob", "Cy"]))
    assert counters_markers(root) == {(p, name, 0) for p in range(3) for name in COLUMN_NAMES}
    titles = [t.text for t in root.iter(f"{SVG}title")]
    board = default_board().columns
    assert sum("rocket" in t for t in titles) == sum(len(c.rockets) for c in board)
    assert sum("blue star" in t for t in titles) == sum(len(c.blue_stars) for c in board)
    assert dict(counters_web.facts(state, ["Ann", "Bob", "Cy"]))["Doing"] == "moves the handicap: 1 counter up one square"


def test_counters_mid_game_counters_stand_on_their_squares_and_the_options_are_listed():
    state = counters_position(2, squares={0: {"1": 3, "S": 5}, 1: {"4": 10}}, current=1, dice=(2, 2, 4, 4, 6), throws=2)
    root = parse(counters_web.board_svg(state, ["Ann", "Bob"]))
    markers = counters_markers(root)
    assert {(0, "1", 3), (0, "S", 5), (1, "4", 10), (1, "1", 0)} <= markers and len(markers) == 14
    facts = dict(counters_web.facts(state, ["Ann", "Bob"]))
    assert facts["Turn"] == "Bob (B)" and facts["Throw"] == "2 of 3" and facts["Dice"] == "2 2 4 4 6"
    assert facts["Options"] == ["2P 2+4,", "pair 2,", "pair 4"]
    assert facts["In space"] == ["Ann 0/5,", "Bob 1/5"]


def test_counters_facts_before_a_throw_say_which_throw_and_the_dice_kept():
    state = counters_play(counters_position(2, dice=(1, 3, 3, 5, 6)), "keep 3-3")
    facts = dict(counters_web.facts(state, ["Ann", "Bob"]))
    assert facts["Doing"] == "to throw (2 of 3)" and facts["Kept"] == "3 3" and "Dice" not in facts


def test_counters_finished_game_names_the_winner():
    squares = {"1": 8, "2": 8, "3": 8, "4": 8, "5": 7, "6": 1, "S": 1}
    state = counters_play(counters_position(2, squares={0: squares}, dice=(1, 2, 3, 5, 5)), "take pair 5")
    assert state.winner == 0
    facts = counters_web.facts(state, ["Ann", "Bob"])
    assert facts[:2] == [("Winner", "Ann (A)"), ("In space", ["Ann 5/5,", "Bob 0/5"])]
    assert (0, "5", 8) in counters_markers(parse(counters_web.board_svg(state, ["Ann", "Bob"])))


# --- Columns --------------------------------------------------------------------------------


def test_columns_fresh_board_has_no_piece():
    root = parse(columns_web.board_svg(columns_position(to_move=1), ["Ann", "Bob"]))
    assert not marked(root, "piece")
    facts = dict(columns_web.facts(columns_position(to_move=1), ["Ann", "Bob"]))
    assert facts["Turn"] == "Ann (A)" and facts["Level 5"] == "A 0 v B 0"
    assert facts["Pieces left"] == ["Ann R12 S3 D3 L3;", "Bob R12 S3 D3 L3"]


def test_columns_pieces_are_drawn_in_their_player_s_look_and_the_last_one_marked():
    state = columns_play(columns_position("1: R 1", "2: D 2-3", "1: L 5-6 up", to_move=2), "S 6")  # on the row
    root = parse(columns_web.board_svg(state, ["Ann", "Bob"]))
    pieces = marked(root, "piece")
    assert [(e.get("data-player"), e.get("data-kind"), e.get("data-columns")) for e in pieces] == [
        ("0", "R", "1"), ("1", "D", "2 3"), ("0", "L", "5 6"), ("1", "S", "6")
    ]
    assert [e.get("data-piece") for e in pieces if e.get("data-last")] == ["3"]
    solid, hollow = pieces[0][1], pieces[1][1]  # A's roundel, B's double (after their titles)
    assert solid.get("fill") == SEAT_COLOURS[0] and "fill-opacity" not in solid.attrib
    assert hollow.get("stroke") == SEAT_COLOURS[1] and float(hollow.get("fill-opacity")) < 0.5
    facts = dict(columns_web.facts(state, ["Ann", "Bob"]))
    assert facts["Last placed"] == ["S 6", "by Bob (B)"] and facts["Turn"] == "Ann (A)"


def test_columns_grid_is_drawn_from_above_with_the_last_placement_s_stacks_from_the_side():
    state = columns_play(columns_position("1: R A1", "2: R B1", "1: D A1-B1", "2: S B2", "1: R C4", to_move=2),
                         "L B2-B1 down")
    root = parse(columns_web.board_svg(state, ["Ann", "Bob"]))
    pins = {e.get("data-pin"): e for e in marked(root, "pin")}
    assert len(pins) == 12 and pins["A2"].get("data-height") == "0"
    assert [(name, pins[name].get("data-height"), pins[name].get("data-top-player")) for name in ("A1", "B1", "B2", "C4")] == [
        ("A1", "2", "0"), ("B1", "3", "1"), ("B2", "3", "1"), ("C4", "1", "0")
    ]
    assert pins["B2"][0].text == "B2: 3 levels, L B2-B1 down by B on top"
    shown = [(e.get("data-kind"), e.get("data-columns")) for e in marked(root, "piece")]
    assert shown == [("R", "B1"), ("D", "A1 B1"), ("S", "B2"), ("L", "B2 B1")]  # in the last placement's pins
    assert [e.get("data-piece") for e in marked(root, "piece") if e.get("data-last")] == ["5"]


PHONE_BOARD_PX = 328  # the board's width on a phone held upright (360 px less the page's margins)


@pytest.mark.parametrize("layout", ["grid", "row"])
def test_columns_legend_and_pin_names_stay_legible_on_a_phone(layout):
    """At 12 SVG units the players' pieces left read at 9 px on a phone: too small to read."""
    moves = ("1: R A1", "2: R B1") if layout == "grid" else ("1: R 1", "2: R 2")
    state = columns_position(*moves, to_move=1)
    root = parse(columns_web.board_svg(state, ["Ann", "Bob"]))
    scale = PHONE_BOARD_PX / float(root.get("viewBox").split()[2])
    legend = root.find(f".//{SVG}g[@class='legend']")
    sizes = [float(e.get("font-size")) * scale for e in legend.iter(f"{SVG}text")]
    assert len(sizes) == 6 and min(sizes) >= 12, sizes
    if layout == "grid":
        above = root.find(f".//{SVG}g[@class='from-above']")
        names = [float(e.get("font-size")) * scale for e in above.iter(f"{SVG}text")]  # rows, pins, heights
        assert len(names) == 3 + 4 + 2 and min(names) >= 12, names


def test_columns_finished_game_gives_the_result():
    state = playout(lambda moves: moves[0], row_game())
    facts = columns_web.facts(state, ["Ann", "Bob"])
    label, value = facts[0]
    assert (label, value) in {("Winner", "Ann (A)"), ("Winner", "Bob (B)"), ("Result", "a draw: equal on every level")}
    assert ("Ended", f"{['Ann', 'Bob'][state.current]} cannot place") in facts
    root = parse(columns_web.board_svg(state, ["Ann", "Bob"]))
    assert len(marked(root, "piece")) == len(state.pieces)


# --- Tumblin' Dice --------------------------------------------------------------------------

READING = "red 4@3 red 2@1 green 6@4 green 1@0 blue 3@2*1 black 5@2*1"


def drawn_dice(root: ET.Element) -> set[tuple[str, int, int, int]]:
    return {(e.get("data-colour"), int(e.get("data-face")), int(e.get("data-level")), int(e.get("data-card") or 0))
            for e in marked(root, "face")}


def test_tumblin_fresh_board_has_no_dice_and_says_whose_flick():
    state = game(4)
    root = parse(tumblin_web.board_svg(state, ["Ann", "Bob", "Cy", "Di"]))
    assert not drawn_dice(root) and len(marked(root, "level")) == 5
    assert [e.get("data-left") for e in marked(root, "left")] == ["4"] * 4
    facts = tumblin_web.facts(state, ["Ann", "Bob", "Cy", "Di"])
    assert facts[:3] == [("Round", "1 of 4"), ("Turn", "Ann (red)"), ("Doing", "flicks die 1 of 4")]


def test_tumblin_between_rounds_the_counted_dice_lie_on_their_levels():
    state = rounds(game(4, multiplier_cards=1, zero="stays"), READING)  # a game letting dice lie on 0x
    root = parse(tumblin_web.board_svg(state, ["Ann", "Bob", "Cy", "Di"]))
    assert drawn_dice(root) == {("red", 4, 3, 0), ("red", 2, 1, 0), ("green", 6, 4, 0), ("green", 1, 0, 0),
                                ("blue", 3, 2, 1), ("black", 5, 2, 1)}
    for band in marked(root, "level"):
        assert {e.get("data-level") for e in marked(band, "face")} <= {band.get("data-level")}
    facts = dict(tumblin_web.facts(state, ["Ann", "Bob", "Cy", "Di"]))
    assert facts["Round"] == "2 of 4"
    assert facts["Last round"] == facts["Totals"] == ["Ann 14,", "Bob 24,", "Cy 12,", "Di 20"]


def test_tumblin_mid_round_the_board_is_empty_and_the_dice_left_counted():
    state = play(rounds(game(2), "red 4@3"), "flick", "flick stayed")
    root = parse(tumblin_web.board_svg(state, ["Ann", "Bob"]))
    assert not drawn_dice(root)
    assert [e.get("data-left") for e in marked(root, "left")] == ["3", "3"]
    facts = dict(tumblin_web.facts(state, ["Ann", "Bob"]))
    assert facts["Dice left"] == ["Ann 3,", "Bob 3"] and facts["Totals"] == ["Ann 12,", "Bob 0"]


def test_tumblin_after_the_last_flick_the_board_is_to_be_read():
    state = flick_all(game(2))
    assert tally_due(state)
    facts = dict(tumblin_web.facts(state, ["Ann", "Bob"]))
    assert facts["Doing"] == "every die is flicked: the board is to be read" and "Turn" not in facts


def test_tumblin_finished_team_game_names_the_winners():
    state = rounds(game(4, teams=True), "red 4@3 green 2@2", "blue 5@4 black 1@1", "red 6@4", "green 3@3")
    names = ["Ann", "Bob", "Cy", "Di"]
    facts = tumblin_web.facts(state, names)
    assert facts[0] == ("Winner", "Ann (red) and Cy (blue)")
    assert dict(facts)["Totals"] == ["Ann & Cy 56,", "Bob & Di 14"]
    root = parse(tumblin_web.board_svg(state, names))
    assert [e.get("data-seat") for e in root.iter() if e.get("data-pointer") == "winner"] == ["0", "2"]
    assert {e.get("data-team") for e in marked(root, "team")} == {"0 2", "1 3"}
    assert drawn_dice(root) == {("green", 3, 3, 0)}
