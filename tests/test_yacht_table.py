"""Yacht at the table: the game chosen on the set-up screen, five dice read after every roll (the
dice set aside stay in the tray and make the keep), a box scored before the third roll, a misread
corrected, undo, dice by hand, resume, the advisor's pick on screen and at a bot's seat, a whole
demo game headless, and the advisor's table kept with its digest (a damaged one recomputed)."""

from __future__ import annotations

import logging
import re

import numpy as np
import pytest

from engine.yacht import Box, Keep, Phase, Score
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import BadReadScreen, ManualEntryScreen, NoticeScreen, draw
from firmware.games.yacht import advisor_table as stored
from firmware.games.yacht.choices import advised, expected, listed
from firmware.games.yacht.screens import BotTurnScreen, ChoicesScreen, DiceScreen, RollScreen, ScoredScreen
from firmware.journal.journal import Journal
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from golden import assert_matches_golden
from table_helpers import NAMES, press, recorded_demo, show_frames


def started(journal: Journal | None = None, hints: bool = False, camera: bool = True) -> Companion:
    """A two-player game of Yacht chosen on the set-up screen."""
    companion = Companion(dummy_display(), GameSetup(NAMES, hints=hints, kind="yacht"), journal=journal, has_camera=camera)
    if companion.state is None:
        press(companion, Press.SELECT, Press.SELECT, Press.SELECT)  # the game, its players, start
    assert companion.state is not None and companion.setup.kind == "yacht"
    return companion


def rolled(companion: Companion, tray: SyntheticCamera, dice: tuple[int, ...]) -> None:
    tray.place(dice)
    press(companion, Press.ROLL)
    show_frames(companion, tray)


@pytest.fixture
def tray() -> SyntheticCamera:
    return SyntheticCamera(seed=5)


def test_the_set_up_screen_offers_yacht_and_a_game_starts_with_five_dice_to_roll():
    companion = Companion(dummy_display(), GameSetup(NAMES, kind="yacht"))
    assert ("Game", "Yacht") in companion.screen.rows
    companion = started()
    assert isinstance(companion.screen, RollScreen) and companion.journal.games()[0].setup.kind == "yacht"


def test_five_dice_read_after_a_reroll_make_the_keep_of_the_dice_left_lying(tray):
    companion = started()
    rolled(companion, tray, (2, 3, 3, 5, 6))
    assert isinstance(companion.screen, DiceScreen) and companion.state.rolls == 1
    rolled(companion, tray, (3, 3, 5, 4, 4))  # 3 3 5 left lying, two dice rolled: 4 4
    assert companion.journal.events(1)[-2:] == ["keep 3-3-5", "roll 4-4"]
    assert companion.state.dice == (3, 3, 4, 4, 5) and companion.state.rolls == 2
    rolled(companion, tray, (1, 1, 1, 1, 1))  # all five rolled again
    assert companion.journal.events(1)[-2:] == ["keep none", "roll 1-1-1-1-1"] and companion.state.rolls == 3
    press(companion, Press.ROLL)
    assert companion.screen.status == "3 rolls: SELECT" and companion.state.rolls == 3


def test_a_keep_chosen_from_the_list_needs_those_dice_in_the_tray(tray, update_golden):
    companion = started()
    rolled(companion, tray, (3, 3, 3, 5, 6))
    keep = listed(companion.state).index(Keep((3, 3, 3)))
    press(companion, Press.SELECT, *(Press.NEXT,) * keep, Press.SELECT)
    assert isinstance(companion.screen, RollScreen) and companion.state.kept == (3, 3, 3)
    tray.place((1, 2, 3, 4, 6))  # a kept 3 was rolled too
    show_frames(companion, tray)
    assert isinstance(companion.screen, NoticeScreen) and companion.screen.title == "Dice do not fit"
    assert companion.screen.lines == ("the kept 3 3 3 are", "not all in the tray", "(1 2 3 4 6)"), "whole words, every die"
    assert_matches_golden(draw(companion.screen), "dice-do-not-fit", update_golden)
    press(companion, Press.SELECT)
    rolled(companion, tray, (3, 3, 3, 3, 1))
    assert companion.state.dice == (1, 3, 3, 3, 3) and companion.journal.events(1)[-1] == "roll 1-3"


def test_undo_on_dice_that_do_not_fit_takes_the_keep_back(tray):
    companion = started()
    rolled(companion, tray, (3, 3, 3, 5, 6))
    keep = listed(companion.state).index(Keep((3, 3, 3)))
    press(companion, Press.SELECT, *(Press.NEXT,) * keep, Press.SELECT)
    tray.place((1, 2, 3, 4, 6))
    show_frames(companion, tray)
    assert companion.screen.footer == "UNDO:unkeep"
    press(companion, Press.UNDO)
    assert not isinstance(companion.screen, NoticeScreen) and companion.state.kept == ()


def test_a_box_is_scored_after_the_first_roll_and_the_turn_passes(tray):
    companion = started()
    rolled(companion, tray, (2, 2, 4, 4, 4))
    press(companion, Press.SELECT)
    screen = companion.screen
    assert isinstance(screen, ChoicesScreen) and screen.moves[0] == Score(Box.FULL_HOUSE)  # 25: the most points
    press(companion, Press.STOP)
    assert isinstance(companion.screen, DiceScreen)
    press(companion, Press.SELECT, Press.SELECT)
    assert companion.state.cards[0][Box.FULL_HOUSE.index] == 25 and companion.state.current == 1
    assert isinstance(companion.screen, ScoredScreen) and companion.screen.points == 25
    assert companion.journal.events(1) == ["roll 2-2-4-4-4", "score full-house"]


def test_a_misread_is_refused_and_a_wrong_roll_is_undone_and_read_again(tray):
    companion = started()
    tray.place((2, 3, 5, 6))  # a die fell out of the tray: four read
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert isinstance(companion.screen, BadReadScreen) and companion.state.phase is Phase.ROLL
    tray.place((2, 3, 5, 6, 6))  # rolled again: read on its own once settled
    show_frames(companion, tray)
    assert companion.state.dice == (2, 3, 5, 6, 6)
    press(companion, Press.UNDO)  # "that is not what we rolled"
    assert companion.state.phase is Phase.ROLL and companion.screen.status == "undone: roll 23566"
    rolled(companion, tray, (2, 3, 5, 6, 6))  # the same dice may be read again
    assert companion.state.dice == (2, 3, 5, 6, 6) and companion.journal.events(1)[-2:] == ["undo", "roll 2-3-5-6-6"]


def test_undo_steps_back_across_the_derived_keep_and_a_score(tray):
    companion = started()
    rolled(companion, tray, (2, 2, 4, 4, 6))
    rolled(companion, tray, (2, 2, 4, 4, 4))
    press(companion, Press.SELECT, Press.SELECT)  # full house
    assert companion.state.current == 1
    press(companion, Press.UNDO)
    assert companion.state.current == 0 and companion.state.dice == (2, 2, 4, 4, 4)
    press(companion, Press.UNDO)
    assert companion.state.phase is Phase.ROLL and companion.state.kept == (2, 2, 4, 4)
    press(companion, Press.UNDO)
    assert companion.state.dice == (2, 2, 4, 4, 6) and companion.state.rolls == 1


def test_five_dice_by_hand():
    companion = started(camera=False)
    press(companion, Press.ROLL)
    assert companion.screen == ManualEntryScreen("Ann", (1, 1, 1, 1, 1), 0)
    for value in (6, 6, 5, 5, 5):
        press(companion, *(Press.NEXT,) * (value - 1), Press.SELECT)
    assert companion.state.dice == (5, 5, 5, 6, 6)


def test_a_game_resumes_where_it_was(tmp_path, tray):
    first = started(Journal(tmp_path / "j.sqlite3"))
    rolled(first, tray, (1, 1, 5, 5, 5))
    first.journal.close()
    second = Companion(dummy_display(), GameSetup(NAMES), journal=Journal(tmp_path / "j.sqlite3"))
    assert second.setup.kind == "yacht" and second.state == first.state
    assert second.screen.doing == "Ann: after roll 1"
    press(second, Press.SELECT)
    assert isinstance(second.screen, DiceScreen)


def test_with_hints_the_dice_show_the_advisors_pick_with_its_expected_final_score(tray):
    companion = started(hints=True)
    rolled(companion, tray, (2, 3, 3, 3, 5))
    screen, state = companion.screen, companion.state
    pick = advised(state)
    assert pick == Keep((3, 3, 3)) and isinstance(screen, DiceScreen)
    assert screen.tip == "keep 3 3 3" and screen.expected == pytest.approx(expected(state, pick))
    assert 240 < screen.expected < 260  # the game's worth is 254.59 before a die is rolled
    press(companion, Press.SELECT)  # the list opens on the pick, every choice with its expected score
    screen = companion.screen
    assert isinstance(screen, ChoicesScreen) and screen.moves == listed(state), "boxes by points, then keeps"
    assert screen.moves[screen.cursor] == pick and screen.advice == screen.cursor > 0, "opened on the pick, starred"
    assert screen.expected[screen.cursor] == max(screen.expected) and len(screen.expected) == len(screen.moves)
    press(companion, *(Press.NEXT,) * (len(screen.moves) - screen.cursor))
    assert companion.screen.cursor == 0, "NEXT wraps round to the first box"


def test_the_advisor_decides_for_its_seat_and_the_people_roll_its_dice(tray):
    companion = Companion(dummy_display(), GameSetup(("You", "Advisor"), bots=("Advisor",), kind="yacht"))
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT)
    rolled(companion, tray, (6, 6, 6, 6, 6))
    press(companion, Press.SELECT, Press.SELECT)  # yours: the Yacht, 50
    assert companion.state.cards[0][Box.YACHT.index] == 50 and companion.state.current == 1
    rolled(companion, tray, (1, 2, 3, 4, 5))  # the advisor's large straight, scored at once
    assert companion.state.cards[1][Box.LARGE_STRAIGHT.index] == 40
    assert isinstance(companion.screen, BotTurnScreen) and companion.screen.did == ("LS 40",) and companion.screen.rolls == 1


def test_demo_auto_plays_a_whole_game_of_yacht_headless(capsys, tmp_path):
    last, frames = recorded_demo("yacht", 2, tmp_path, capsys)
    assert last == "Advisor wins in round 13 (26 turns)" and frames > 100, "every screen is printed"


# --- the advisor's table ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def table() -> np.ndarray:
    return stored.advisor_table()


def test_the_table_is_computed_once_kept_and_read_back_checked(tmp_path, table):
    computed: list[int] = []

    def compute() -> np.ndarray:
        computed.append(1)
        return table

    assert stored.load_table(tmp_path, compute) is table and computed == [1]
    again = stored.load_table(tmp_path, compute)
    assert computed == [1] and np.array_equal(again, table, equal_nan=True)
    assert stored.load_table(None, compute) is table and computed == [1, 1], "no folder: in memory"


@pytest.mark.parametrize("where", ["digest", "table"])
def test_a_damaged_table_is_recomputed_never_trusted_and_the_log_says_so(tmp_path, table, caplog, where):
    stored.write_table(tmp_path / stored.TABLE_NAME, table)
    path = tmp_path / stored.TABLE_NAME
    data = bytearray(path.read_bytes())
    at = 10 if where == "digest" else len(data) // 2
    data[at] ^= 0x01  # one bit flipped
    path.write_bytes(bytes(data))
    computed: list[int] = []

    def compute() -> np.ndarray:
        computed.append(1)
        return table

    with caplog.at_level(logging.INFO, logger="dice_companion"):
        assert stored.load_table(tmp_path, compute) is table
    assert computed == [1]
    assert any("damaged" in r.message and "digest does not match" in r.message and "recomputed" in r.message
               for r in caplog.records)
    assert stored.read_table(path) is not None, "rewritten whole"


def _cache_holds(kind: str, path, table: np.ndarray) -> None:
    """Put ``kind`` where the per-user cache's table is read."""
    import os

    if kind == "pipe":
        os.mkfifo(path)
    elif kind == "8 GB sparse file":
        with open(path, "wb") as sparse:
            sparse.truncate(8 << 30)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "random table with its own digest":
        garbage = np.abs(np.random.default_rng(7).normal(120, 30, table.shape))
        garbage[np.isnan(table)] = np.nan
        garbage[-1] = table[-1]  # full cards as a table has them: only the advisor's own reckoning tells
        path.write_bytes(stored.stored(garbage))
    elif kind == "table damaged only at the empty card, with its own digest":
        damaged = table.copy()
        damaged[0, 0, 0] += 1.0  # the first decision of every game, one position in 8,191 a spot check draws
        path.write_bytes(stored.stored(damaged))


@pytest.mark.parametrize("kind", ["pipe", "8 GB sparse file", "link to /dev/zero", "random table with its own digest",
                                  "table damaged only at the empty card, with its own digest"])
def test_what_stands_in_the_cache_is_never_trusted_nor_waited_on(tmp_path, table, caplog, kind):
    """Issue 43: a FIFO hung the start, a huge file or /dev/zero gave a MemoryError at every start, and
    a table of random values carrying its own digest was used without a word; issue 51: so was one
    damaged only at the empty card (the spot checks drew it once in 8,191), which is now always checked."""
    import threading

    from waiting import HANG_S

    _cache_holds(kind, tmp_path / stored.TABLE_NAME, table)
    got: list[np.ndarray] = []
    with caplog.at_level(logging.WARNING, logger="dice_companion"):
        loader = threading.Thread(target=lambda: got.append(stored.load_table(tmp_path, lambda: table)), daemon=True)
        loader.start()
        loader.join(HANG_S)
    assert got and got[0] is table, "recomputed (here: the true table handed in)"
    assert sum("recomputed" in r.message for r in caplog.records) == 1


def test_a_cache_folder_that_cannot_be_read_means_a_table_computed_not_a_traceback(tmp_path, table, monkeypatch):
    def refused(*_args, **_kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(stored.os, "open", refused)
    assert stored.load_table(tmp_path, lambda: table) is table


def test_a_true_table_agrees_with_the_advisor_reckoning_everywhere_checked(table):
    assert stored.disagreements(table, np.random.default_rng(3)) == 0


def test_a_table_that_cannot_be_kept_is_kept_in_memory(tmp_path, table, caplog):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with caplog.at_level(logging.WARNING, logger="dice_companion"):
        assert stored.load_table(blocked, lambda: table) is table
    assert any("kept in memory" in r.message for r in caplog.records)


@pytest.mark.parametrize("damage", ["flip", "missing", "not xz"])
def test_a_shipped_table_that_does_not_check_out_is_never_used(tmp_path, table, caplog, monkeypatch, damage):
    """The shipped file damaged, missing or swapped: the table comes from the per-user cache
    (here one kept before, so nothing is computed), and the log says why."""
    shipped = tmp_path / "advisor-table.bin.xz"
    data = bytearray(stored.SHIPPED.read_bytes())
    data[len(data) // 2] ^= 0x01
    if damage == "flip":
        shipped.write_bytes(bytes(data))
    elif damage == "not xz":
        shipped.write_bytes(b"a table, honestly")
    with pytest.raises((stored.StateFormatError, OSError)):
        stored.shipped_table(shipped)
    cache = tmp_path / "cache"
    stored.write_table(cache / "dice-companion" / stored.TABLE_NAME, table)
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setattr(stored, "SHIPPED", shipped)
    stored.advisor_table.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger="dice_companion"):
            assert np.array_equal(stored.advisor_table(), table, equal_nan=True)
    finally:
        stored.advisor_table.cache_clear()
    assert any("shipped table" in r.message and "not usable" in r.message for r in caplog.records)


def test_bench_advisor_prints_its_figures_and_the_contract_line(capsys):
    from firmware.cli import main

    assert main(["bench-advisor", "--game", "yacht", "--games", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(re.fullmatch(r"a decision: median \d+\.\d\d ms, slowest \d+\.\d\d ms \(\d+ decisions of 20 games, "
                            r"one thread, each planned afresh\)", line) for line in lines)
    assert re.fullmatch(r"yacht: optimal mean \d{3}\.\d sd \d{2}\.\d games 4; greedy mean \d{3}\.\d; "
                        r"optimal vs greedy \d{2,3}\.\d%", lines[-1])


@pytest.mark.parametrize("hints", [False, True])
def test_bots_at_the_buttons_score_the_box_they_chose_with_or_without_hints(tray, hints):
    """A game journaled with hints (the keyboard demo: you with hints against advisors) and resumed
    by ``demo --auto`` has bots at the buttons of the hinted seat, where the list opens on the pick."""
    from firmware.games.yacht.autoplay import YachtSeats

    companion = started(hints=hints)
    for dice in ((1, 2, 3, 4, 6), (2, 3, 4, 5, 6), (6, 6, 6, 6, 5)):
        rolled(companion, tray, dice)
    state = companion.state
    assert state.rolls == 3
    seats = YachtSeats.demo(2, seed=0)
    chosen = seats.bots[0].choose(state)
    assert isinstance(chosen, Score) and chosen != listed(state)[0]  # not the list's first box: the order matters
    press(companion, *seats.presses_for(companion.screen).presses)
    assert companion.journal.events(1)[-1] == str(chosen)


def test_the_five_dice_games_share_their_tray_their_dice_words_and_their_demo_line_up():
    from firmware.games import five_dice
    from firmware.games.counters import labels as counters_labels
    from firmware.games.counters.autoplay import CountersSeats
    from firmware.games.counters.table import CountersTable
    from firmware.games.yacht import screens as yacht_screens
    from firmware.games.yacht.autoplay import YachtSeats
    from firmware.games.yacht.table import YachtTable

    for method in ("lying", "throw", "told"):
        assert getattr(YachtTable, method) is getattr(CountersTable, method) is getattr(five_dice.FiveDiceTray, method)
    assert yacht_screens.dice_text is counters_labels.dice_text is five_dice.dice_text
    assert YachtSeats.demo(4, 1).names == CountersSeats.demo(4, 1).names == five_dice.DEMO_NAMES
