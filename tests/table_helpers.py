"""Helpers for driving the companion in tests: a manual clock, frames from a simulated tray."""

from __future__ import annotations

from engine.cant_stop import GAME, State
from firmware.companion import Companion
from firmware.events import ButtonEvent, FrameEvent
from hardware.buttons import Press
from hardware.camera import SyntheticCamera

NAMES = ("Ann", "Bob")


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
    """Accept the set-up screen's defaults."""
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT, Press.SELECT)
    assert companion.state is not None


def play(companion: Companion, *moves: str) -> None:
    """Moves made at the table, journaled like any other (the companion must be in a game)."""
    for move in moves:
        assert companion.state is not None
        assert companion._apply(companion.state, GAME.parse_move(move))  # a test's shortcut to the table


def state_after(*moves: str, players: int = 2) -> State:
    state = GAME.new_game(players)
    for move in moves:
        state = GAME.apply(state, GAME.parse_move(move))
    return state
