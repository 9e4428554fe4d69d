"""Whole games at a simulated table: the real event loop, camera feed, reader, buttons and OLED code."""

from __future__ import annotations

import io
import sys

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image

from engine.cant_stop.bots import OddsBot, SteadyBot
from firmware.cli import main
from firmware.config import parse_config
from firmware.core.autoplay import AutoPlayers
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import Screen
from firmware.games.cant_stop.autoplay import CantStopSeats
from firmware.games.cant_stop.board_text import board_text
from firmware.games.cant_stop.screens import ChoiceScreen, WinnerScreen
from firmware.table._loop import CameraFeed, EventQueue, run
from firmware.table.companion import Companion
from firmware.table.start import run_device
from golden import assert_matches_golden, assert_matches_golden_text
from hardware.buttons import ButtonTiming, GpioButtons, Press
from hardware.camera import CameraError, SyntheticCamera
from hardware.display import dummy_display
from table_helpers import NAMES, ManualClock

MAX_PRESSES = 5000  # a whole game takes a few hundred presses
PINS = {Press.ROLL: 17, Press.STOP: 27, Press.NEXT: 22, Press.SELECT: 23}


class MockTable:
    """Bots pressing gpiozero mock pins, a simulated tray, the dummy OLED, and every screen kept."""

    def __init__(self, seed: int, tray: SyntheticCamera | None = None) -> None:
        self.factory = MockFactory()
        self.clock = ManualClock()
        self.inbox = EventQueue()
        self.buttons = GpioButtons(PINS, self.inbox.press, ButtonTiming(), self.factory, self.clock)
        self.tray = tray or SyntheticCamera(seed)
        self.display = dummy_display()
        self.companion = Companion(self.display, GameSetup(NAMES))
        self.screens: list[tuple[Screen, Image.Image]] = []
        self.presses = 0
        self.companion.listeners.append(lambda screen: self.screens.append((screen, self.display.device.image.copy())))
        players = AutoPlayers(CantStopSeats((SteadyBot(), OddsBot()), NAMES), self.press_button, self.tray.toss)
        self.companion.listeners.append(players.on_screen)
        players.on_screen(self.companion.screen)

    def press_button(self, press: Press) -> None:
        self.presses += 1
        if self.presses > MAX_PRESSES:  # a game the bots cannot end: stop it, and the test says so
            press = Press.QUIT
        if press not in PINS:  # QUIT: the device has no such button
            self.inbox.press(press)
            return
        pin = self.factory.pin(PINS[press])
        self.clock.advance(1.0)
        pin.drive_low()
        self.clock.advance(0.1)
        pin.drive_high()

    def play(self, camera=None) -> None:
        """Play until the game ends, on this thread: however slow the machine, the test waits for the
        end (a game the bots could not end is stopped after MAX_PRESSES, never after some seconds)."""
        camera = camera or self.tray
        try:
            run(self.companion, self.inbox, CameraFeed(lambda: camera, self.inbox, retry_s=0))
        finally:
            self.buttons.close()
        assert self.presses <= MAX_PRESSES, "the game did not finish"


@pytest.fixture(scope="module")
def whole_game() -> MockTable:
    table = MockTable(seed=11)
    table.play()
    return table


def test_a_whole_game_ends_with_a_winner_and_the_recorded_board(whole_game, update_golden):
    state = whole_game.companion.state
    assert state is not None and state.winner is not None
    assert len(state.claimed_by(state.winner)) == 3
    board = board_text(state) + f"\nwinner {NAMES[state.winner]} turn {state.turn}\n"
    assert_matches_golden_text(board, "whole-game-board.txt", update_golden)


def test_a_whole_game_shows_the_first_choice_and_the_winner_as_recorded(whole_game, update_golden):
    first_choice = next(image for screen, image in whole_game.screens if isinstance(screen, ChoiceScreen))
    last_screen, last_image = whole_game.screens[-1]
    assert isinstance(last_screen, WinnerScreen)
    assert last_image.tobytes() == whole_game.display.device.image.tobytes(), "the OLED shows the last screen"
    assert_matches_golden(first_choice, "whole-game-first-choice", update_golden)
    assert_matches_golden(last_image, "whole-game-winner", update_golden)


class CameraThatFails:
    """A tray whose camera stops giving frames for a while, mid-game, then comes back."""

    def __init__(self, tray: SyntheticCamera, fail_from: int, failures: int) -> None:
        self.tray = tray
        self.fail_from = fail_from
        self.failures = failures
        self.frames = 0

    def frame(self):
        self.frames += 1
        if self.frames == self.fail_from:
            raise RuntimeError("libcamera: dequeue timeout")  # a library's own error type
        if self.fail_from < self.frames < self.fail_from + self.failures:
            raise CameraError("USB camera /dev/video0 gave no frame (unplugged?)")
        return self.tray.frame()

    def close(self) -> None:
        pass


def test_a_camera_that_fails_mid_game_is_reported_and_the_game_goes_on(caplog):
    table = MockTable(seed=4)
    camera = CameraThatFails(table.tray, fail_from=40, failures=5)
    table.play(camera)
    warnings = [record.getMessage() for record in caplog.records if record.levelname == "WARNING"]
    assert "camera: libcamera: dequeue timeout" in warnings
    assert "camera: USB camera /dev/video0 gave no frame (unplugged?)" in warnings
    assert table.companion.state is not None and table.companion.state.winner is not None


def test_demo_auto_plays_a_whole_game_the_same_way_twice(capsys, tmp_path):
    assert main(["demo", "--auto", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Advisor wins in round 8 (15 turns)", "rounds, as the screens count them"
    frames = out.count("+" + "-" * 128 + "+") // 2
    assert frames > 20, "the screens are printed"
    assert main(["demo", "--auto", "--seed", "3", "--record", str(tmp_path)]) == 0
    assert capsys.readouterr().out == out
    assert len(list(tmp_path.glob("screen-*.png"))) == frames, "each screen shown is also saved"


def test_demo_refuses_a_bad_variant(capsys):
    assert main(["demo", "--auto", "--columns", "7"]) == 2
    assert "columns_to_win 7: allowed is a whole number from 3 to 5" in capsys.readouterr().err


def test_run_on_a_keyboard_config_starts_and_quits(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "stdin", io.StringIO("nnq"))
    config = parse_config(
        {"buttons": {"source": "keyboard"}, "display": {"type": "dummy"}, "camera": {"backend": "synthetic"},
         "data": {"dir": str(tmp_path)}}
    )
    outcome = run_device(config)
    assert outcome.winner is None
