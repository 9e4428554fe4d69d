"""The buttons on a computer keyboard, for the demo and for playing without a Pi.

r = ROLL, s = STOP, n = NEXT, space or enter = SELECT, u = UNDO (the long press of STOP),
q = leave. Keys are read one at a time; on a terminal without waiting for enter.
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Iterator
from typing import TextIO

from hardware.buttons import Deliver, Press

KEYS = {"r": Press.ROLL, "s": Press.STOP, "n": Press.NEXT, " ": Press.SELECT, "\n": Press.SELECT,
        "\r": Press.SELECT, "u": Press.UNDO, "q": Press.QUIT}
HELP = "keys: r roll, s stop, n next, space select, u undo, q quit"


def press_for_key(key: str) -> Press | None:
    """The press a key stands for (upper case too), or None for other keys."""
    return KEYS.get(key.lower() if key.isalpha() else key)


@contextlib.contextmanager
def single_keys(stream: TextIO) -> Iterator[None]:
    """Let ``stream`` deliver keys as they are typed, without echo, if it is a terminal."""
    if not stream.isatty():
        yield
        return
    import termios
    import tty

    descriptor = stream.fileno()
    saved = termios.tcgetattr(descriptor)
    try:
        tty.setcbreak(descriptor)
        yield
    finally:
        with contextlib.suppress(termios.error, OSError):  # a terminal hung up has nothing left to restore
            termios.tcsetattr(descriptor, termios.TCSADRAIN, saved)


class KeyboardButtons:
    """Reads keys from ``stream`` on a background thread; the end of the stream is QUIT.

    Wrap the program in :func:`single_keys` so a terminal hands over each key at once (and is
    restored on the way out, which a background thread could not promise).
    """

    def __init__(self, deliver: Deliver, stream: TextIO | None = None) -> None:
        self._deliver = deliver
        self._stream = stream or sys.stdin
        self._thread = threading.Thread(target=self._read, name="keyboard", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        """Keys until QUIT or the end of the stream; a terminal that hung up (nohup, tmux, a serial
        console: reading it fails) is an end too, so the program quits instead of running for ever."""
        try:
            while key := self._stream.read(1):
                press = press_for_key(key)
                if press is not None:
                    self._deliver(press)
                if press is Press.QUIT:
                    return
        except (OSError, ValueError):  # EIO from a hung-up terminal; ValueError: the stream was closed
            pass
        self._deliver(Press.QUIT)

    def close(self) -> None:
        """Nothing to release: the reading thread is a daemon and ends with the program."""
