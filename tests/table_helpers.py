"""Helpers for driving the companion in tests: a manual clock, frames from a simulated tray."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from engine.cant_stop import GAME, State
from firmware.core.events import ButtonEvent, FrameEvent
from firmware.core.roll_watcher import Reader, RollWatcher, Seen
from firmware.core.table_game import Progress
from firmware.drawing.screens import ResumeScreen
from firmware.games.cant_stop.table import TABLE
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.tray import TrayOutline

NAMES = ("Ann", "Bob")
STILL_FRAME = np.full((480, 640, 3), 90, np.uint8)  # a tray at rest: the reader under test says what lies in it


class ManualClock:
    """A clock that moves only when told, so button timing is exact."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def press(companion: Companion, *presses: Press) -> None:
    for one in presses:
        companion.handle(ButtonEvent(one))


def show_frames(companion: Companion, tray: SyntheticCamera, frames: int = 10) -> None:
    """Let the camera watch the tray for ``frames`` frames (enough to settle and confirm)."""
    for _ in range(frames):
        companion.handle(FrameEvent(tray.frame()))


def start_game(companion: Companion) -> None:
    """Accept the set-up screen's defaults (SELECT down to the start line, and SELECT there)."""
    for _ in range(companion._menu.start_field + 1):
        press(companion, Press.SELECT)
    assert companion.state is not None


def play(companion: Companion, *moves: str) -> None:
    """Moves made at the table, journaled like any other (the companion must be in a game)."""
    for move in moves:
        assert companion.state is not None
        assert companion._apply(companion.state, GAME.parse_move(move))  # a test's shortcut to the table


def recorded_demo(kind: str, seed: int, folder: Path, capsys) -> tuple[str, int]:
    """``demo --game kind --auto --seed seed --record folder``: its last line and the screens it
    printed, each of which it must also have saved as a PNG in ``folder``."""
    from firmware.cli import main

    assert main(["demo", "--game", kind, "--auto", "--seed", str(seed), "--record", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    frames = sum(line == "+" + "-" * 128 + "+" for line in lines) // 2
    assert len(list(folder.glob("screen-*.png"))) == frames, "each screen shown is also saved"
    return lines[-1], frames


def progress(state: State) -> Progress:
    """What the journal records of a Can't Stop state."""
    return TABLE.progress(state)


def state_after(*moves: str, players: int = 2) -> State:
    state = GAME.new_game(players)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state


def resume_screen(state: State, names: tuple[str, ...], confirming: bool = False) -> ResumeScreen:
    """The resume screen of a Can't Stop game in ``state``."""
    return ResumeScreen(names, TABLE.round(state), TABLE.doing(state, names), confirming)


def first_seen(reader: Reader, tray: TrayOutline | None = None, expected: int | None = None,
               reader_params: ReaderParams = DEFAULT_PARAMS) -> Seen:
    """What a ``RollWatcher`` reading with ``reader`` (inside ``tray``; a throw of ``expected`` dice,
    when given, taken as ``reader_params`` say) confirms of ROLL pressed over still frames."""
    watcher = RollWatcher(reader, tray=tray, reader_params=reader_params)
    watcher.request()
    for _ in range(200):
        seen = watcher.frame(STILL_FRAME, roll_due=True, expected=expected)
        if seen is not None:
            return seen
    pytest.fail("no reading after 200 still frames")
