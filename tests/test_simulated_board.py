"""The Tumblin' demo's memory of its simulated board (``simulated-board.json`` in the data folder,
written through ``.simulated-board.json.partial``): whatever stands in place of either file (a pipe,
a link, a folder, a device, deep or huge JSON, dice the board cannot have) costs one log line and the
dice are thrown anew; nothing waits, nothing is written through a link, no start stops."""

from __future__ import annotations

import json
import logging
import math
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from waiting import HANG_S

from firmware.core.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table.companion import Companion
from firmware.table.start import SIMULATED_BOARD, remember_board, restore_table
from hardware.board_camera import SyntheticBoardCamera, board_json
from hardware.camera import Toss
from hardware.display import dummy_display

PARTIAL = f".{SIMULATED_BOARD}.partial"
NO_BOARD = "no board"


@pytest.fixture
def resumed(tmp_path) -> Iterator[Companion]:
    """A companion resuming a Tumblin' round in ``tmp_path`` in which red's first die and green's landed."""
    setup = GameSetup(("Ann", "Bob"), kind="tumblin")
    journal = Journal(tmp_path / JOURNAL_NAME)
    game = journal.start_game(setup)
    state = setup.new_state()
    for move in ("flick", "flick"):
        state = setup.game.engine.apply(state, setup.game.engine.parse_move(move))
        journal.append(game, move, setup.game.progress(state))
    companion = Companion(dummy_display(), setup, journal=journal)
    yield companion
    journal.close()


def _landed_board():
    """The board as the resumed round left it: red's die and green's."""
    board = SyntheticBoardCamera(3)
    board.toss(Toss(1, colour="red", new_round=True))
    board.toss(Toss(1, colour="green"))
    return board.truth


def _finishes(work: Callable[[], None], unblock: Callable[[], None]) -> bool:
    """Whether ``work`` finishes on a thread of its own (a hang fails the test, never the suite:
    ``unblock`` then lets the stuck thread go)."""
    done = threading.Event()
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as error:  # noqa: BLE001 - handed to the test
            failed.append(error)
        finally:
            done.set()

    threading.Thread(target=run, daemon=True).start()
    finished = done.wait(HANG_S)
    if not finished:
        unblock()
    if failed:
        raise failed[0]
    return finished


def _open_other_end(path, flags: int) -> Callable[[], None]:
    """Open and close the pipe at ``path`` from the other side, releasing whoever waits on it."""
    def unblock() -> None:
        os.close(os.open(path, flags | os.O_NONBLOCK))
    return unblock


def _said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "dice_companion" and r.levelno >= logging.WARNING]


def _thrown_anew(companion: Companion, board: SyntheticBoardCamera, caplog) -> None:
    assert board.truth != _landed_board()
    assert Counter(d.colour for d in board.truth) == Counter({"red": 1, "green": 1})
    assert board.frame().shape == (600, 800, 3), "the board is drawn"
    said = _said(caplog)
    assert len(said) == 1 and NO_BOARD in said[0] and "thrown anew" in said[0], said


def test_the_remembered_board_is_laid_back(resumed, tmp_path, caplog):
    remember_board(tmp_path, 1, _landed_board())
    board = SyntheticBoardCamera(4)
    restore_table(resumed, board, tmp_path)
    assert board.truth == _landed_board() and _said(caplog) == []


def test_a_pipe_as_the_board_file_is_no_board_and_the_resume_does_not_wait(resumed, tmp_path, caplog):
    path = tmp_path / SIMULATED_BOARD
    os.mkfifo(path)
    board = SyntheticBoardCamera(4)
    assert _finishes(lambda: restore_table(resumed, board, tmp_path), _open_other_end(path, os.O_WRONLY))
    _thrown_anew(resumed, board, caplog)


def test_a_link_as_the_board_file_is_not_followed(resumed, tmp_path, caplog):
    """Not even to a board this game's own: a link is no board (a link to /dev/zero would fill the memory)."""
    remember_board(tmp_path, 1, _landed_board())
    os.rename(tmp_path / SIMULATED_BOARD, tmp_path / "elsewhere.json")
    (tmp_path / SIMULATED_BOARD).symlink_to(tmp_path / "elsewhere.json")
    board = SyntheticBoardCamera(4)
    restore_table(resumed, board, tmp_path)
    _thrown_anew(resumed, board, caplog)
    (tmp_path / SIMULATED_BOARD).unlink()
    (tmp_path / SIMULATED_BOARD).symlink_to("/dev/zero")
    caplog.clear()
    restore_table(resumed, board := SyntheticBoardCamera(4), tmp_path)
    _thrown_anew(resumed, board, caplog)


@pytest.mark.parametrize("text", [
    "[" * 5_000 + "]" * 5_000,  # nested past any sense: no RecursionError, nor "a path nests too deeply"
    json.dumps({"game": 1, "dice": json.loads(board_json(_landed_board()))}) + " " * 100_000,  # longer than a board
    "{damaged",
    '{"game": 1, "dice": 7}',
    '[1, 2]',
])
def test_a_file_that_is_no_board_is_said_once_and_the_dice_thrown_anew(resumed, tmp_path, caplog, text):
    (tmp_path / SIMULATED_BOARD).write_text(text)
    board = SyntheticBoardCamera(4)
    restore_table(resumed, board, tmp_path)
    _thrown_anew(resumed, board, caplog)


def _bad_dice():
    red, green = _landed_board()
    placed = red.placed
    yield "infinite size", (replace(red, placed=replace(placed, side=math.inf)), green)
    yield "a tiny die", (replace(red, placed=replace(placed, side=2.0)), green)
    yield "value 99", (replace(red, face=99, placed=replace(placed, value=99)), green)
    yield "face 0", (replace(red, face=0, placed=replace(placed, value=0)), green)
    yield "face apart from its value", (replace(red, face=6 if red.face != 6 else 5), green)
    yield "centre not a number", (replace(red, placed=replace(placed, centre=(math.nan, 300.0))), green)
    yield "centre beside the frame", (replace(red, placed=replace(placed, centre=(5000.0, 300.0))), green)
    yield "level 7", (replace(red, level=7), green)
    yield "infinite angle", (replace(red, placed=replace(placed, angle=math.inf)), green)
    yield "a lean past the die", (replace(red, placed=replace(placed, lean=(1e9, 0.0))), green)


@pytest.mark.parametrize("dice", [dice for _, dice in _bad_dice()], ids=[name for name, _ in _bad_dice()])
def test_a_die_the_board_cannot_have_is_no_board_and_the_dice_are_thrown_anew(resumed, tmp_path, caplog, dice):
    """It raised in the camera thread once (the frame drawn with it), and the game stalled."""
    remember_board(tmp_path, 1, dice)
    board = SyntheticBoardCamera(4)
    restore_table(resumed, board, tmp_path)
    _thrown_anew(resumed, board, caplog)


def test_a_pipe_as_the_partial_file_is_set_aside_and_the_board_kept(tmp_path, caplog):
    partial = tmp_path / PARTIAL
    os.mkfifo(partial)
    assert _finishes(lambda: remember_board(tmp_path, 1, _landed_board()), _open_other_end(partial, os.O_RDONLY))
    assert json.loads((tmp_path / SIMULATED_BOARD).read_text())["game"] == 1
    assert not partial.exists()
    said = _said(caplog)
    assert len(said) == 1 and "a pipe" in said[0] and str(partial) in said[0], said


def test_a_link_as_the_partial_file_is_set_aside_and_what_it_points_to_untouched(tmp_path, caplog):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me")
    partial = tmp_path / PARTIAL
    partial.symlink_to(victim)
    remember_board(tmp_path, 1, _landed_board())
    assert victim.read_text() == "keep me"
    assert json.loads((tmp_path / SIMULATED_BOARD).read_text())["game"] == 1
    assert not partial.is_symlink() and not partial.exists()
    said = _said(caplog)
    assert len(said) == 1 and "a symbolic link" in said[0], said


def test_a_folder_as_the_partial_file_is_moved_aside_and_every_start_goes_on(tmp_path, caplog):
    partial = tmp_path / PARTIAL
    partial.mkdir()
    (partial / "inside.txt").write_text("kept")
    remember_board(tmp_path, 1, _landed_board())
    assert json.loads((tmp_path / SIMULATED_BOARD).read_text())["game"] == 1
    aside = [path for path in tmp_path.iterdir() if path.name.startswith(f"{PARTIAL}.aside-")]
    assert len(aside) == 1 and (aside[0] / "inside.txt").read_text() == "kept", "moved aside, nothing lost"
    said = _said(caplog)
    assert len(said) == 1 and "a folder" in said[0] and aside[0].name in said[0], said
