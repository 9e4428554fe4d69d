"""A camera that leans too far from straight down over the tray, told to the players: past
:data:`TILT_WARNING` the reader misses more dice (it sees their side faces), so ``calibrate`` and
the start of ``run`` say how far it leans and to raise it over the middle of the tray."""

from __future__ import annotations

from firmware.drawing.screens import NoticeScreen
from vision.read.perspective import ASSUMED_FIELD_OF_VIEW
from vision.read.tray import TrayOutline

# degrees from straight down, as TrayOutline.tilt measures it: past this the reader's figures drop.
# From the README's "A camera that leans" (the shipped nets on 100 path-traced throws a tilt band):
# 0-30 degrees per photo 45-50 %, per die 75-80 %; 30-40 per photo 34 %, per die 70.6 %, silent 7 %
TILT_WARNING = 30.0
OLED_LINE = "RAISE CAMERA OVER TRAY'S MIDDLE"  # the tiny font's one line across the OLED (32 characters fit)


def leaning(tray: TrayOutline) -> float | None:
    """The camera's tilt over ``tray``, degrees, when it leans past :data:`TILT_WARNING`; else None
    (a tilt that the outline cannot tell included)."""
    tilt = tray.tilt()
    return tilt if tilt is not None and tilt > TILT_WARNING else None


def tilt_line(tray: TrayOutline) -> str:
    """What ``calibrate`` reports of the camera's tilt."""
    tilt = tray.tilt()
    if tilt is None:
        return "camera tilt: not measured (only a four-cornered tray's outline tells it)"
    return (f"camera tilt: {tilt:.0f} degrees from straight down (from the tray's corners, "
            f"taking the lens as {ASSUMED_FIELD_OF_VIEW:.0f} degrees across)")


def advice(tilt: float) -> str:
    """The log's line for a camera leaning ``tilt`` degrees."""
    return (f"the camera leans {tilt:.0f} degrees from straight down, past the {TILT_WARNING:.0f} where the reader "
            f"starts to miss dice: raise it higher, over the middle of the tray, and run dice-companion calibrate again")


def notice(tilt: float) -> NoticeScreen:
    """The OLED's notice at the start of ``run`` for a camera leaning ``tilt`` degrees."""
    return NoticeScreen(f"Camera leans {tilt:.0f} deg", ("Raise it over the", "middle of the tray,", "then calibrate again."))
