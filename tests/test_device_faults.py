"""A device thread that fails on something it was handed (a simulated board that cannot take a
throw) must not die: the failure reaches the loop as a fault the companion shows, and the thread
goes on (so the end of input still quits)."""

from __future__ import annotations

import io
import threading

from firmware.core.events import ButtonEvent, DeviceFault
from firmware.core.game_setup import GameSetup
from firmware.devices import throwing_dice
from firmware.table._loop import EventQueue
from firmware.table.companion import Companion
from hardware.board_camera import SyntheticBoardCamera
from hardware.buttons import Press
from hardware.camera import Toss
from hardware.display import dummy_display
from hardware.keyboard import KeyboardButtons
from table_helpers import press
from waiting import HANG_S


def drained(inbox: EventQueue, until: Press = Press.QUIT) -> list:
    events = []
    while not events or events[-1] != ButtonEvent(until):
        events.append(inbox.get())
    return events


def test_a_throw_the_simulated_board_refuses_is_a_fault_and_the_keyboard_reads_on():
    inbox = EventQueue()
    board = SyntheticBoardCamera(1)
    plans = iter([Toss(1, colour=""), Toss(1, colour="red")])
    deliver = inbox.guarded(throwing_dice(inbox.press, board, lambda: next(plans)), "sim table")
    KeyboardButtons(deliver, io.StringIO("rnr"))
    events = drained(inbox)
    assert events == [DeviceFault("sim table", "no '' dice on the simulated board: its dice are red, green, blue, black"),
                      ButtonEvent(Press.NEXT), ButtonEvent(Press.ROLL), ButtonEvent(Press.QUIT)]
    assert len(board.truth) == 1, "the refused throw threw nothing; the next one did"


def test_the_companion_shows_a_device_fault_and_goes_on():
    companion = Companion(dummy_display(), GameSetup(kind="columns"))
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT)  # the game, its players, start
    companion.handle(DeviceFault("sim table", "no room for another die (50 lying)"))
    assert companion.screen.status == "sim table: see log"
    companion.handle(ButtonEvent(Press.NEXT))
    assert companion.screen.status == ""


def test_bots_at_the_buttons_try_again_after_the_journal_refused_a_move(tmp_path):
    """They waited forever on a "NOT SAVED: try again" screen with the cursor moved."""
    import sqlite3

    from firmware.core.catalogue import table_game
    from firmware.journal.journal import Journal
    from firmware.table.start import play_with_bots, simulated_table

    journal = Journal(tmp_path / "journal.sqlite3")
    appended = journal.append
    calls = []

    def refuse_the_fifth(*args, **named):
        calls.append(args)
        if len(calls) == 5:
            raise sqlite3.OperationalError("disk I/O error")
        return appended(*args, **named)

    journal.append = refuse_the_fifth  # type: ignore[method-assign]
    game = table_game("columns")
    tray = simulated_table(game, 1, tmp_path)
    seats = game.autoplayer(2, 1, tray)
    companion = Companion(dummy_display(), GameSetup(seats.names, kind="columns"), journal=journal)
    playing = threading.Thread(target=play_with_bots, args=(companion, seats, tray), daemon=True)
    playing.start()
    playing.join(timeout=HANG_S)  # waiting forever was the fault
    assert not playing.is_alive() and companion.state.over and len(calls) == len(companion.state.pieces) + 1, "the refused move made again"
