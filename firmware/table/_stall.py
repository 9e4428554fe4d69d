"""A stop for bots' play that stalls: a screen on which nothing happens for a minute of play ends it.

Bots at the buttons that wait for something nobody will do (a press the table refuses, a screen
their game does not know) would keep the loop busy with camera frames for ever. The minute is
counted in the camera's frames, at the pace of a simulated camera when people play (one frame a
tenth of a second): a slow or busy machine sees the same frames, so it is never cut short.
"""

from __future__ import annotations

from firmware.core.events import Event, FrameEvent
from firmware.drawing.screens import Screen
from firmware.table.companion import Companion

STALL_FRAMES = 600  # a minute of play, at the simulated camera's 0.1 s a frame (start.SIMULATED_FRAME_INTERVAL_S)


class StallGuard:
    """Drives ``companion`` for the loop; finished as it is, or once its screen stayed the same
    over ``frames`` camera frames (:attr:`stalled`, then, says where in a line)."""

    def __init__(self, companion: Companion, frames: int = STALL_FRAMES) -> None:
        self.companion = companion
        self.finished = companion.finished
        self.stalled: str | None = None
        self._frames = frames
        self._unchanged = 0
        self._screen: Screen = companion.screen

    def handle(self, event: Event) -> None:
        """Let the companion handle ``event``; count the frames its screen stays unchanged."""
        self.companion.handle(event)
        if self.companion.screen != self._screen:
            self._screen, self._unchanged = self.companion.screen, 0
        elif isinstance(event, FrameEvent):
            self._unchanged += 1
            if self._unchanged >= self._frames:
                self.stalled = where(self.companion)
        self.finished = self.companion.finished or self.stalled is not None


def where(companion: Companion) -> str:
    """The line said when the bots' play stalled: the game, where it stood, and the screen's footer."""
    state, status = companion.state, getattr(companion.screen, "status", "")
    at = "on the set-up screen" if state is None else (
        f"in {companion.game.title}, round {companion.game.round(state)}, {companion.game.doing(state, companion.names)}")
    said = f" (the screen says: {status})" if status else ""
    return f"stopped: nothing happened for a minute of play {at}{said}"
