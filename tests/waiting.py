"""How long a test waits for an event before calling it a hang, and a call made to wait so.

Never a speed: a test waits for what it waits for however busy the machine is (other jobs may share
the cores), and this bound only keeps a real hang from holding the suite for ever. Speeds are
measured by the benchmarks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

HANG_S = 600.0


def within_hang_s(call: Callable[[], T]) -> T:
    """What ``call`` returns, called on a thread: a hang fails the test rather than holding the suite."""
    done, result = threading.Event(), []

    def called() -> None:
        try:
            result.append(call())
        finally:
            done.set()

    threading.Thread(target=called, daemon=True).start()
    assert done.wait(HANG_S), "still running (a hang)"
    assert result, "it failed (the thread's exception is above)"
    return result[0]
