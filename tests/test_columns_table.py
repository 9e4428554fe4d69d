"""Columns at the table: chosen on the set-up screen for two players, placements told with the
buttons (NEXT, STOP, ROLL by kind, SELECT), the search bot's seat and hints, undo, resume, the end
(a win, a tie broken lower down, a draw) in the journal and the history, and the board screens
against their reference PNGs (tests/golden/columns-*.png)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from engine.columns import GAME, State, legal_moves
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import CHAR_PX, WIDTH, SetupScreen, draw
from firmware.drawing.tiny_font import tiny_width
from firmware.games.columns import screens as columns_screens
from firmware.games.columns import side_view
from firmware.games.columns.autoplay import walk
from firmware.games.columns.choices import advised, listed
from firmware.games.columns.screens import PLACE_KEYS, BoardScreen, PlaceScreen, ResultScreen
from firmware.games.columns.table import TABLE
from firmware.journal.history import history_lines
from firmware.journal.journal import FINISHED, Journal
from firmware.table.companion import Companion
from golden import assert_matches_golden, watch_for_cut_text
from hardware.buttons import Press
from hardware.display import dummy_display
from table_helpers import NAMES, press, recorded_demo

LONG_NAMES = ("Margaret", "Benedikt")
# Whole games recorded from seeded random play: one won on a tie on level 5 broken on level 4, one
# won on level 5 (3 v 2), one equal on every level (a draw).
TIE_BROKEN = ("L 2-1 up", "R 5", "D 8-9", "L 7-8 down", "R 1", "S 4", "L 5-4 up", "L 10-9 down", "S 8", "L 11-12 up",
              "S 2", "D 10-11", "R 6", "R 3", "S 10", "S 9", "L 3-4 down", "R 7", "R 4", "S 5", "R 1", "R 11", "D 8-9",
              "R 5", "R 11", "D 1-2", "R 10", "R 6", "R 6", "D 6-7", "R 8", "R 6", "R 3", "R 12", "R 9", "R 12", "R 12",
              "R 2", "D 3-4", "R 1", "R 12", "R 7")
WON_BY_BOB = ("L 11-12 up", "R 4", "R 6", "R 6", "S 12", "S 1", "S 9", "S 8", "S 4", "R 3", "L 10-9 down", "L 2-1 down",
              "R 9", "S 6", "L 7-8 down", "L 12-11 up", "R 5", "L 3-2 down", "R 8", "R 12", "R 7", "R 1", "R 1", "R 7",
              "D 8-9", "R 7", "R 8", "R 5", "R 10", "R 3", "R 4", "R 4", "R 5", "R 1", "R 5", "R 10", "R 5", "D 3-4",
              "D 9-10")
DRAWN = ("S 4", "L 6-5 up", "S 12", "R 3", "S 1", "S 9", "L 11-12 down", "L 8-7 up", "R 10", "L 10-11 down", "L 5-4 up",
         "S 4", "L 2-1 down", "R 8", "R 12", "R 7", "R 7", "R 8", "R 3", "R 8", "D 4-5", "R 11", "R 4", "S 9", "D 2-3",
         "R 6", "R 12", "D 6-7", "R 5", "R 6", "R 12", "R 9", "D 9-10", "D 10-11", "R 3", "R 7", "R 1", "R 3", "R 9",
         "D 1-2")


ROW_SETUP = GameSetup(NAMES, kind="columns", options={"layout": "row"})
"""Games journaled before the companion knew the 3x4 grid were played on a row of 12."""


def columns_state(*moves: str) -> State:
    """The game after ``moves``: on the grid, or on the row when the moves name pins by number."""
    state = GAME.new_game(2, board=GAME.parse_move(moves[0]).board.name if moves else "grid")
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state


def started(setup: GameSetup = GameSetup(NAMES, kind="columns"), journal: Journal | None = None) -> Companion:
    """A game of Columns started from the set-up screen (game, players, start)."""
    companion = Companion(dummy_display(), setup, journal=journal)
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT)
    assert isinstance(companion.screen, PlaceScreen)
    return companion


def place(companion: Companion, *moves: str) -> None:
    """Walk the cursor to each placement with the buttons, as a player would, and SELECT it."""
    for text in moves:
        screen = companion.screen
        assert isinstance(screen, PlaceScreen)
        target = screen.moves.index(GAME.parse_move(text))
        press(companion, *walk(screen.moves, screen.cursor, target), Press.SELECT)


def test_columns_is_for_two_players_on_the_set_up_screen():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob", "Cid"), kind="columns"))
    assert companion.screen == SetupScreen((("Game", "Columns"), ("Players", "2")), 0)
    press(companion, Press.SELECT, Press.NEXT)
    assert companion.screen.rows[1] == ("Players", "2"), "no other count to change to"
    press(companion, Press.SELECT, Press.SELECT)
    assert companion.setup.names == ("Ann", "Bob") and companion.state == GAME.new_game(2)


def test_next_stop_and_roll_walk_the_placements_by_kind_and_select_places_one():
    companion = started()
    screen = companion.screen
    assert screen.moves == legal_moves(GAME.new_game(2)) and screen.cursor == 0 and screen.moves[0].text() == "R A1"
    press(companion, Press.NEXT, Press.NEXT)
    assert companion.screen.moves[companion.screen.cursor].text() == "R A3"
    press(companion, Press.STOP)
    assert companion.screen.moves[companion.screen.cursor].text() == "R A2"
    kinds = []
    for _ in range(4):
        press(companion, Press.ROLL)
        kinds.append(companion.screen.moves[companion.screen.cursor].text())
    assert kinds == ["S A1", "D A1-A2", "L A1-A2 up", "R A1"], "ROLL: the first placement of the next kind, round again"
    place(companion, "D A2-B2")
    assert companion.journal.events(companion.game_id) == ["D A2-B2"]
    assert companion.state.current == 1
    assert companion.screen.cursor == 0, "the next player starts at the top of the list"


def test_a_roundel_on_the_opponents_blocker_is_never_offered():
    companion = started()
    place(companion, "S B3")
    assert GAME.parse_move("R B3") not in companion.screen.moves, "Bob may not put a roundel on Ann's blocker"
    place(companion, "R A1")
    assert GAME.parse_move("R B3") in companion.screen.moves, "Ann may put one on her own"


ROW_VIEW = side_view.SideView(tuple(range(12)))  # the row of 12 from the side


def cell_pixels(image, column: int, level: int, view: side_view.SideView = ROW_VIEW) -> list[int]:
    """The lit (1) and dark (0) pixels of a cell of a side view, row by row (level 0 is level 1)."""
    left, top, right, bottom = view.cell_box(column, level)
    return [int(lit) for lit in np.asarray(image.crop((left, top, right + 1, bottom + 1))).ravel()]


def test_a_free_level_is_a_tick_on_its_pins_rod_so_the_stacks_beside_the_grid_are_no_fifth_column_of_pins():
    screen = SCREENS["start"]  # R A1 offered on level 1 of A1, shown from the side right of the grid
    view = side_view.SideView(screen.moves[0].columns, columns_screens.SIDE_LEFT_PX, columns_screens.SIDE_CELL_W_PX)
    image = draw(screen)
    width, height = view.cell_w_px, side_view.CELL_H_PX
    for level in range(1, 5):
        cell = np.array(cell_pixels(image, 0, level, view)).reshape(height, width)
        rod, tick = (width - 1) // 2, (height - 1) // 2
        assert cell[:, rod].all(), f"level {level + 1}: the pin's rod runs through it"
        assert cell[tick, rod - 1:rod + 2].all() and cell.sum() == height + 2, f"level {level + 1}: one tick across it"


def test_the_placement_shown_is_checkered_on_the_board_and_the_last_one_dotted():
    state = columns_state("D 4-5")
    moves = listed(state, False)
    plain = draw(BoardScreen(state, NAMES))
    shown = draw(PlaceScreen(state, NAMES, moves, moves.index(GAME.parse_move("S 4"))))
    assert sum(cell_pixels(plain, 3, 1)) == side_view.CELL_H_PX + 2, "a free level: the pin's rod with a tick"
    lit = cell_pixels(shown, 3, 1)
    assert 8 <= sum(lit) < len(lit) // 2, "where S 4 would go: checkered, half the block lit"
    solid = cell_pixels(plain, 3, 0)
    centre = (side_view.CELL_H_PX // 2) * side_view.CELL_W_PX + side_view.CELL_W_PX // 2 - 1
    assert sum(solid) > 20 and solid[centre] == 0, "Ann's double, placed last: solid with a dark dot"
    assert sum(cell_pixels(draw(BoardScreen(columns_state("D 4-5", "S 1"), NAMES)), 3, 0)) == sum(solid) + 1


def test_undo_takes_a_placement_back():
    companion = started()
    place(companion, "L B3-C3 up", "S B3")
    press(companion, Press.UNDO)
    assert companion.state == columns_state("L B3-C3 up") and companion.screen.status == "undone: S B3"
    assert companion.journal.events(companion.game_id) == ["L B3-C3 up", "S B3", "undo"]


def test_the_search_bot_places_for_its_seat_and_the_player_sees_its_piece():
    companion = started(GameSetup(("Ann", "Robo"), bots=("Robo",), kind="columns"))
    place(companion, "R B2")
    assert len(companion.state.pieces) == 2 and companion.state.current == 0, "Robo placed at once"
    robo = companion.state.pieces[-1]
    assert robo.player == 1 and robo.placement == advised(columns_state("R B2"))
    assert isinstance(companion.screen, PlaceScreen) and companion.screen.state == companion.state


def test_after_an_undo_the_people_place_for_the_bot_until_a_person_places_for_themselves():
    companion = started(GameSetup(("Ann", "Robo"), bots=("Robo",), kind="columns"))
    place(companion, "R B2")
    press(companion, Press.UNDO)  # Robo's answer taken back: the people place for it
    assert companion.state.current == 1 and companion.screen.proxy
    place(companion, "S A2")
    assert companion.state.current == 0 and len(companion.state.pieces) == 2
    place(companion, "R A1")
    assert companion.state.current == 0 and len(companion.state.pieces) == 4, "Robo plays on by itself"
    assert companion.state.pieces[-1].player == 1


def test_a_camera_problem_does_not_concern_a_game_without_dice():
    from firmware.core.events import CameraFailed

    companion = started()
    companion.handle(CameraFailed("USB camera /dev/video0 gave no frame (unplugged?)"))
    assert companion.screen.status == ""
    press(companion, Press.SELECT)
    assert companion.journal.events(companion.game_id) == ["R A1"]


def test_hints_start_the_list_at_the_advisors_pick_starred():
    companion = started(GameSetup(NAMES, hints=True, kind="columns"))
    screen = companion.screen
    assert screen.moves[0] == advised(GAME.new_game(2)) and screen.advised
    assert sorted(screen.moves, key=lambda m: m.sort_key()) == list(legal_moves(GAME.new_game(2)))
    press(companion, Press.NEXT)
    assert not companion.screen.advised


def test_a_game_resumes_where_it_was(tmp_path):
    first = started(journal=Journal(tmp_path / "j.sqlite3"))
    place(first, "S A3", "D B1-B2")
    first.journal.close()
    second = Companion(dummy_display(), GameSetup(NAMES), journal=Journal(tmp_path / "j.sqlite3"))
    assert second.setup.kind == "columns" and second.state == columns_state("S A3", "D B1-B2")
    assert second.screen.doing == "Ann: to place" and second.screen.round == 2
    press(second, Press.SELECT)
    assert isinstance(second.screen, PlaceScreen)


@pytest.mark.parametrize(
    "moves, winner, line",
    [
        (TIE_BROKEN, 0, "game 1 .* finished  winner Ann  turns 42"),
        (WON_BY_BOB, 1, "game 1 .* finished  winner Bob  turns 39"),
        (DRAWN, None, "game 1 .* finished  draw  turns 40"),
    ],
    ids=["tie-broken", "won", "draw"],
)
def test_a_game_played_to_the_end_is_journaled_with_its_result(tmp_path, capsys, moves, winner, line):
    companion = started(ROW_SETUP, journal=Journal(tmp_path / "j.sqlite3"))
    place(companion, *moves)
    assert companion.state.over and companion.state.winner == winner
    assert companion.screen == ResultScreen(companion.state, NAMES)
    record = companion.journal.games()[0]
    assert record.status == FINISHED and record.winner == winner
    assert any(re.fullmatch(line + r"  took .*", text) for text in history_lines(companion.journal))
    press(companion, Press.NEXT)
    assert isinstance(companion.screen, BoardScreen)
    press(companion, Press.NEXT, Press.SELECT)
    assert isinstance(companion.screen, SetupScreen) and companion.screen.rows[0] == ("Game", "Columns")


def test_a_drawn_game_ends_the_table_as_a_draw_not_as_left_unfinished():
    from firmware.table.start import Outcome, _outcome

    companion = started(ROW_SETUP)
    place(companion, *DRAWN)
    assert TABLE.progress(companion.state).drawn
    assert _outcome(companion) == Outcome(None, 40, over=True, rounds=20)


MID_ON_ROW = columns_state("L 2-1 up", "R 5", "D 8-9", "L 7-8 down", "R 1", "S 4", "L 5-4 up", "L 10-9 down", "S 8")
MID = columns_state("L B3-C3 up", "R A1", "R B1", "D A1-B1", "D A2-A3", "S C1", "R A4", "S A3", "R C2")
# Search (A) against greedy (B) on the grid, seeded 1 and 2: A wins.
GRID_GAME = ("R A3", "R A3", "R B1", "R A3", "S A3", "R B1", "R A3", "R B1", "S B1", "R A4", "R B1", "R A4", "R C3",
             "R A4", "S A4", "R C3", "R A4", "R C3", "R B3", "R C3", "R C3", "R B3", "R B4", "R B3", "R B3", "S A1",
             "R B3", "L C4-B4 down", "D C1-C2", "S C1", "L A2-B2 up", "L C2-B2 up", "L A2-B2 up", "S A1", "R A2",
             "L C1-C2 down", "L B2-C2 down")


def offering(state: State, text: str) -> PlaceScreen:
    moves = listed(state, False)
    return PlaceScreen(state, NAMES, moves, moves.index(GAME.parse_move(text)))


SCREENS = {
    "start": PlaceScreen(GAME.new_game(2), NAMES, listed(GAME.new_game(2), False), 0),
    "place-triple": offering(MID, "L B2-C2 down"),
    "place-double-across": offering(MID, "D A3-B3"),
    "place-hint": PlaceScreen(MID, LONG_NAMES, listed(MID, True), 0, advised=True),
    "board": BoardScreen(columns_state(*GRID_GAME), NAMES),
    "row-place-triple": offering(MID_ON_ROW, "L 12-11 up"),
    "row-board": BoardScreen(columns_state(*TIE_BROKEN), NAMES),
    "won": ResultScreen(columns_state(*WON_BY_BOB), NAMES),
    "tie-broken": ResultScreen(columns_state(*TIE_BROKEN), NAMES),
    "draw": ResultScreen(columns_state(*DRAWN), NAMES),
}


@pytest.mark.parametrize("name", SCREENS)
def test_screen_matches_its_reference(name, update_golden):
    assert_matches_golden(draw(SCREENS[name]), f"columns-{name}", update_golden)


def test_names_of_eight_letters_fit_every_screen_and_no_footer_runs_its_hints_together(monkeypatch):
    cut = watch_for_cut_text(monkeypatch, columns_screens)
    for screen in SCREENS.values():
        draw(screen)
    finished = (columns_state(*TIE_BROKEN), columns_state(*WON_BY_BOB), columns_state(*DRAWN), columns_state(*GRID_GAME))
    for state in (MID, MID_ON_ROW, *finished):
        moves = listed(state, False) or (None,)
        for screen in (BoardScreen(state, LONG_NAMES), ResultScreen(state, LONG_NAMES)):
            draw(screen)
        if not state.over:
            draw(PlaceScreen(state, LONG_NAMES, moves, len(moves) - 1, True, "undone: L 10-11 down"))
    assert cut == []
    longest = max(len(move.text() + " *") for state in (GAME.new_game(2), MID) for move in listed(state, False))
    keys_px = max(tiny_width(key) for key in PLACE_KEYS)
    assert (longest + 1) * CHAR_PX <= WIDTH - keys_px, "on the grid: a placement's words, a space, the button hints"


def test_demo_auto_plays_a_whole_game_of_columns_headless(capsys, tmp_path):
    last, frames = recorded_demo("columns", 1, tmp_path, capsys)
    assert last == "Search wins in round 18 (36 turns)" and frames > 35, "every screen is printed"


def test_bench_advisor_prints_its_figures_and_the_contract_line():
    from firmware.bench.advisor import bench_lines

    lines = list(bench_lines(1, 3, "columns"))
    assert lines[1].startswith("  search vs greedy: search wins ") and lines[1].endswith(" drawn")
    assert re.fullmatch(r"best: search vs-greedy \d+\.\d% \+- \d+\.\d ms-per-decision \d+\.\d", lines[-1]), lines[-1]


def test_a_configuration_of_columns_for_three_says_it_is_for_two():
    from firmware.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match=r"^game.players: Columns is for 2 players, got 3$"):
        parse_config({"game": {"kind": "columns", "players": ["Ann", "Bob", "Cid"]}})
    assert parse_config({"game": {"kind": "columns", "players": ["Ann", "Bob"]}}).game.kind == "columns"


def test_the_demo_plays_the_game_asked_for_though_another_was_played_last(tmp_path):
    """On the device the set-up screen offers the game last played; ``demo --game columns`` must
    not start the Can't Stop game its data folder last held."""
    journal = Journal(tmp_path / "journal.sqlite3")
    journal.abandon(journal.start_game(GameSetup(NAMES)))
    asked = GameSetup(NAMES, kind="columns")
    assert Companion(dummy_display(), asked, journal=journal).screen.rows[0] == ("Game", "Can't Stop")
    shown = Companion(dummy_display(), asked, journal=journal, offer_last_played=False).screen
    assert shown.rows[0] == ("Game", "Columns")
    journal.close()


def test_a_game_journaled_on_the_row_before_the_grid_keeps_replaying_on_the_row(tmp_path):
    """Journals from before the grid have no board among a Columns game's options: the row."""
    import sqlite3

    first = started(ROW_SETUP, journal=Journal(tmp_path / "j.sqlite3"))
    place(first, "S 3", "D 4-5")
    first.journal.close()
    with sqlite3.connect(tmp_path / "j.sqlite3") as db:
        db.execute("UPDATE games SET options = '{}'")
    second = Companion(dummy_display(), GameSetup(NAMES), journal=Journal(tmp_path / "j.sqlite3"))
    assert second.state == columns_state("S 3", "D 4-5") and second.state.board.name == "row"
    assert second.setup.options == {"layout": "row"}
    press(second, Press.SELECT)
    place(second, "R 7")
    assert second.journal.events(second.game_id) == ["S 3", "D 4-5", "R 7"]


def test_a_new_game_is_on_the_grid_and_the_configuration_may_ask_for_the_row():
    from firmware.config import ConfigError, parse_config

    assert started().state.board.name == "grid" and TABLE.summary({}) == "3x4 grid"
    assert parse_config({"game": {"kind": "columns", "layout": "row"}}).game.options["layout"] == "row"
    with pytest.raises(ConfigError, match=r'^game.layout = \'hex\': allowed is "grid" or "row"$'):
        parse_config({"game": {"kind": "columns", "layout": "hex"}})
