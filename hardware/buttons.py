"""The four buttons (ROLL, STOP, NEXT, SELECT) as presses delivered to a callback.

Contact bounce, double presses and the long press of STOP (UNDO) are handled here, at our
level, so every backend behaves alike: gpiozero's own ``bounce_time`` is not used (its mock
pins ignore it, and a test must see the same filtering as the table).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum


class Press(Enum):
    """What a player asked for."""

    ROLL = "roll"
    STOP = "stop"
    NEXT = "next"
    SELECT = "select"
    UNDO = "undo"  # a long press of STOP
    QUIT = "quit"  # the keyboard's q: leave the demo (the device has no such button)


class ButtonsError(OSError):
    """The buttons' GPIO pins could not be used (no GPIO on this machine, a pin already taken)."""


BUTTONS = (Press.ROLL, Press.STOP, Press.NEXT, Press.SELECT)
"""The physical buttons, in the order of the wiring table."""

Deliver = Callable[[Press], None]
Clock = Callable[[], float]


@dataclass(frozen=True)
class ButtonTiming:
    """How raw contact edges become presses (all in seconds)."""

    bounce_s: float = 0.03  # edges within this of the last accepted edge are contact bounce
    repeat_s: float = 0.2  # a press of the same button sooner than this after the last is a double press, dropped
    long_press_s: float = 1.0  # STOP held at least this long is UNDO


class PressFilter:
    """One button's edges in, clean presses out.

    Every button but STOP acts on the press (it feels immediate); STOP acts on the release,
    because only then is it known whether it was a short press (STOP) or a long one (UNDO).
    """

    def __init__(self, button: Press, deliver: Deliver, timing: ButtonTiming, clock: Clock = time.monotonic) -> None:
        self.button = button
        self._deliver = deliver
        self._timing = timing
        self._clock = clock
        self._down_since: float | None = None
        self._opened_at: float | None = None  # a release while down that may still be bounce
        self._last_press = float("-inf")
        self._last_release = float("-inf")
        self._swallowed = False

    def pressed(self) -> None:
        """The contact closed."""
        now = self._clock()
        if self._down_since is not None:
            if self._opened_at is None or now - self._opened_at < self._timing.bounce_s:
                self._opened_at = None
                return  # already down: a bounce of the press
            self._finish(self._opened_at)  # that release was a real (very short) tap after all
        if now - self._last_release < self._timing.bounce_s or now - self._last_press < self._timing.repeat_s:
            self._swallowed = True  # a bounce of the release, or a double press
            return
        self._down_since = self._last_press = now
        if self.button is not Press.STOP:
            self._deliver(self.button)

    def released(self) -> None:
        """The contact opened."""
        now = self._clock()
        if self._swallowed:
            self._swallowed = False
            return
        if self._down_since is None:
            return
        if now - self._down_since < self._timing.bounce_s:
            self._opened_at = now  # the contact may still be bouncing shut; decided at the next edge
            return
        self._finish(now)

    def _finish(self, released_at: float) -> None:
        held = released_at - (self._down_since or released_at)
        self._down_since = self._opened_at = None
        self._last_release = released_at
        if self.button is Press.STOP:
            self._deliver(Press.UNDO if held >= self._timing.long_press_s else Press.STOP)


class GpioButtons:
    """The buttons on GPIO pins through gpiozero, wired from the pin to ground (internal pull-up).

    ``pin_factory`` is gpiozero's: None picks the Pi's, tests pass a ``MockFactory``.
    """

    def __init__(
        self,
        pins: Mapping[Press, int],
        deliver: Deliver,
        timing: ButtonTiming = ButtonTiming(),
        pin_factory: object | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        from gpiozero import Button, GPIOZeroError  # imported here: only this backend needs it

        self.filters = {button: PressFilter(button, deliver, timing, clock) for button in pins}
        self._devices = []
        for button, pin in pins.items():
            try:
                device = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            except GPIOZeroError as error:
                self.close()
                raise ButtonsError(f"cannot use GPIO{pin} for the {button.value.upper()} button: {error}") from error
            device.when_pressed = self.filters[button].pressed
            device.when_released = self.filters[button].released
            self._devices.append(device)

    def close(self) -> None:
        """Release the pins."""
        for device in self._devices:
            device.close()
        self._devices = []
