"""The companion put together: ``demo`` on simulated hardware, and ``run`` on the device.

Both run the same code: the companion, the event loop, the camera feed and the real reader;
only the devices differ.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

from engine.cant_stop import COLUMNS
from engine.cant_stop.bots import OddsBot, SteadyBot
from firmware.autoplay import AutoPlayers
from firmware.companion import Companion
from firmware.config import Config
from firmware.devices import camera_opener, open_buttons, open_display, throwing_dice
from firmware.game_setup import GameSetup
from firmware.loop import CameraFeed, EventQueue, run
from firmware.screens import board_line
from hardware.camera import SyntheticCamera
from hardware.display import Display, TerminalDisplay
from hardware.keyboard import HELP, KeyboardButtons, single_keys

INTERACTIVE_FRAME_INTERVAL_S = 0.1  # the simulated camera's pace when a person plays


@dataclass(frozen=True)
class Outcome:
    """How a game at the table ended (None: left before anyone won)."""

    winner: str | None
    turns: int
    board: str


def _outcome(companion: Companion) -> Outcome:
    state = companion.state
    if state is None:
        return Outcome(None, 0, "")
    board = "\n".join(board_line(state, column) for column in COLUMNS)
    winner = companion.names[state.winner] if state.winner is not None else None
    return Outcome(winner, state.turn, board)


def play_demo(
    setup: GameSetup,
    seed: int,
    auto: bool,
    out: TextIO | None = None,
    keys: TextIO | None = None,
    display: Display | None = None,
) -> Outcome:
    """A whole game on simulated hardware: the synthetic camera read by the real reader, the
    terminal as the OLED, and either bots or the keyboard as the players."""
    out = out or sys.stdout
    tray = SyntheticCamera(seed)
    inbox = EventQueue()
    display = display or TerminalDisplay(out, in_place=False if auto else None, footer="" if auto else HELP)
    companion = Companion(display, setup)
    if auto:
        players = AutoPlayers((SteadyBot(), OddsBot(), SteadyBot(target=7), OddsBot(limit=Fraction(3, 10))), inbox.press, tray.throw)
        companion.listeners.append(players.on_screen)
        players.on_screen(companion.screen)
        run(companion, inbox, CameraFeed(lambda: tray, inbox))
    else:
        keys = keys or sys.stdin
        with single_keys(keys):
            KeyboardButtons(throwing_dice(inbox.press, tray), keys)
            run(companion, inbox, CameraFeed(lambda: tray, inbox, INTERACTIVE_FRAME_INTERVAL_S))
    return _outcome(companion)


def run_device(config: Config) -> Outcome:
    """The companion on the configured devices, until QUIT (keyboard) or the process is stopped."""
    display = open_display(config.display)
    inbox = EventQueue()
    opener = camera_opener(config.camera)
    deliver = inbox.press
    if config.camera.backend == "synthetic":
        deliver = throwing_dice(deliver, opener())  # type: ignore[arg-type]  # the synthetic opener hands out its tray
    buttons = open_buttons(config.buttons, deliver)
    companion = Companion(display, config.game, snapshots=config.data_dir / "refused-reads")
    logging.getLogger("dice_companion").info("started: %s display, %s camera", config.display.type, config.camera.backend)
    try:
        run(companion, inbox, CameraFeed(opener, inbox))
    finally:
        buttons.close()
        display.close()
    return _outcome(companion)

