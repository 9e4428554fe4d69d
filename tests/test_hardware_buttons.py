"""Buttons through gpiozero's MockFactory, and the keyboard: bounce, double press, long press."""

from __future__ import annotations

import io
import threading

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonsError, ButtonTiming, GpioButtons, Press
from hardware.keyboard import KeyboardButtons, press_for_key
from table_helpers import ManualClock
from waiting import HANG_S

PINS = {Press.ROLL: 17, Press.STOP: 27, Press.NEXT: 22, Press.SELECT: 23}


@pytest.fixture
def board():
    """Mock pins, a manual clock and the presses delivered, in order."""
    factory = MockFactory()
    clock = ManualClock()
    delivered: list[Press] = []
    buttons = GpioButtons(PINS, delivered.append, ButtonTiming(), pin_factory=factory, clock=clock)
    yield factory, clock, delivered
    buttons.close()


def hold(factory: MockFactory, clock: ManualClock, button: Press, seconds: float = 0.1) -> None:
    pin = factory.pin(PINS[button])
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()


def test_each_button_delivers_its_press(board):
    factory, clock, delivered = board
    for button in (Press.ROLL, Press.NEXT, Press.SELECT, Press.STOP):
        clock.advance(1)
        hold(factory, clock, button)
    assert delivered == [Press.ROLL, Press.NEXT, Press.SELECT, Press.STOP]


def test_a_bouncing_contact_is_one_press(board):
    factory, clock, delivered = board
    pin = factory.pin(PINS[Press.SELECT])
    for _ in range(4):  # the contact chatters for a few milliseconds
        pin.drive_low()
        clock.advance(0.002)
        pin.drive_high()
        clock.advance(0.002)
    pin.drive_low()
    clock.advance(0.15)
    pin.drive_high()
    clock.advance(0.004)
    pin.drive_low()  # and chatters again on release
    clock.advance(0.002)
    pin.drive_high()
    assert delivered == [Press.SELECT]


def test_a_double_press_is_applied_once_but_a_later_press_counts(board):
    factory, clock, delivered = board
    hold(factory, clock, Press.SELECT, 0.05)
    clock.advance(0.05)
    hold(factory, clock, Press.SELECT, 0.05)  # 0.1 s after the first: a double press
    assert delivered == [Press.SELECT]
    clock.advance(0.5)
    hold(factory, clock, Press.SELECT, 0.05)
    assert delivered == [Press.SELECT, Press.SELECT]


def test_a_long_press_of_stop_is_undo_and_a_short_one_is_stop(board):
    factory, clock, delivered = board
    hold(factory, clock, Press.STOP, 1.2)
    clock.advance(1)
    hold(factory, clock, Press.STOP, 0.3)
    assert delivered == [Press.UNDO, Press.STOP]


def test_a_bounce_while_stop_is_held_does_not_cut_the_long_press_short(board):
    factory, clock, delivered = board
    pin = factory.pin(PINS[Press.STOP])
    pin.drive_low()
    clock.advance(0.005)
    pin.drive_high()  # chatter right after closing
    clock.advance(0.005)
    pin.drive_low()
    clock.advance(1.5)
    pin.drive_high()
    assert delivered == [Press.UNDO]


def test_a_very_short_tap_is_finished_by_the_next_press(board):
    factory, clock, delivered = board
    hold(factory, clock, Press.STOP, 0.01)  # shorter than a bounce: undecided until the next edge
    clock.advance(2)
    hold(factory, clock, Press.STOP, 0.2)
    assert delivered == [Press.STOP, Press.STOP]


def test_a_pin_that_cannot_be_used_is_a_clear_error():
    factory = MockFactory()
    taken = GpioButtons({Press.ROLL: 17}, lambda press: None, pin_factory=factory)
    with pytest.raises(ButtonsError, match="cannot use GPIO17 for the ROLL button"):
        GpioButtons({Press.ROLL: 17}, lambda press: None, pin_factory=factory)
    taken.close()


def test_closing_releases_the_pins():
    factory = MockFactory()
    GpioButtons(PINS, lambda press: None, pin_factory=factory).close()
    again = GpioButtons(PINS, lambda press: None, pin_factory=factory)  # would fail if a pin were still taken
    again.close()


def test_keys_map_to_presses_and_the_end_of_input_quits():
    delivered: list[Press] = []
    done = threading.Event()

    def deliver(press: Press) -> None:
        delivered.append(press)
        if press is Press.QUIT:
            done.set()

    KeyboardButtons(deliver, io.StringIO("rNx s\nu"))
    assert done.wait(HANG_S)
    assert delivered == [Press.ROLL, Press.NEXT, Press.SELECT, Press.STOP, Press.SELECT, Press.UNDO, Press.QUIT]
    assert press_for_key("R") is Press.ROLL and press_for_key("?") is None


def test_a_terminal_that_hangs_up_quits_and_its_settings_are_left_alone():
    """nohup, tmux, a serial console: the terminal goes, reading it fails with EIO. The keyboard
    thread died on that without a word and the program ran for ever; restoring the terminal's
    settings printed a termios traceback on the way out."""
    import os
    import pty

    from hardware.keyboard import single_keys

    master, slave = pty.openpty()
    stream = os.fdopen(slave, "r", buffering=1)
    delivered: list[Press] = []
    rolled, done = threading.Event(), threading.Event()

    def deliver(press: Press) -> None:
        delivered.append(press)
        (done if press is Press.QUIT else rolled).set()

    with single_keys(stream):
        os.write(master, b"r")
        KeyboardButtons(deliver, stream)
        assert rolled.wait(HANG_S), "the key typed before the hang-up is read"
        os.close(master)  # the hang-up (it drops what was typed and not yet read)
        assert done.wait(HANG_S)
    assert delivered == [Press.ROLL, Press.QUIT]
    stream.close()
