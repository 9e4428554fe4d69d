"""The 128x64 monochrome OLED, and stand-ins that draw the same pictures elsewhere.

The whole contract is luma's: ``show(image)`` with a 1-bit Pillow image of ``SIZE``. Real
panels (SSD1306, SH1106 over I2C) and luma's ``dummy`` device go through :class:`LumaDisplay`;
:class:`TerminalDisplay` draws the picture with block characters; :class:`RecordingDisplay`
saves every picture as a PNG and passes it on.
"""

from __future__ import annotations

import logging
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TextIO

from PIL import Image

SIZE = (128, 64)
MODE = "1"
PANELS = ("ssd1306", "sh1106")


class DisplayError(OSError):
    """The display could not be opened or written (for example an I2C error)."""


class Display(Protocol):
    """Anything that shows a 128x64 1-bit picture."""

    def show(self, image: Image.Image) -> None:
        """Show ``image``; raises DisplayError if the display cannot be written."""
        ...

    def close(self) -> None:
        """Release the display."""
        ...


class LumaDisplay:
    """A luma.core device: a real OLED panel, or luma's ``dummy`` that keeps the last picture.
    With ``persist`` the last picture stays lit after :meth:`close` (and after the process ends)."""

    def __init__(self, device: object, persist: bool = False) -> None:
        from luma.core.error import Error as LumaError

        self.device = device
        device.persist = persist  # type: ignore[attr-defined]  # luma's cleanup then leaves the panel on
        self._failures: tuple[type[BaseException], ...] = (OSError, LumaError)

    def show(self, image: Image.Image) -> None:
        try:
            self.device.display(image)  # type: ignore[attr-defined]
        except self._failures as error:  # smbus2's I2C errors, or luma's "device not found"
            raise DisplayError(f"display write failed: {error}") from error

    def close(self) -> None:
        self.device.cleanup()  # type: ignore[attr-defined]


def open_oled(panel: str, port: int, address: int, rotate: int = 0, persist: bool = False) -> LumaDisplay:
    """An SSD1306 or SH1106 128x64 panel on I2C bus ``port`` at ``address`` (usually 0x3C); see
    :class:`LumaDisplay` for ``persist``."""
    from luma.core.error import DeviceAddressError, DeviceNotFoundError, DevicePermissionError  # only this backend needs luma's I2C
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    if panel not in PANELS:
        raise DisplayError(f"unknown panel {panel!r}; known: {', '.join(PANELS)}")
    device_class = ssd1306 if panel == "ssd1306" else sh1106
    try:
        serial = i2c(port=port, address=address)
        return LumaDisplay(device_class(serial, width=SIZE[0], height=SIZE[1], rotate=rotate), persist)
    except (DeviceNotFoundError, DevicePermissionError, DeviceAddressError, OSError) as error:
        raise DisplayError(f"no {panel} display on I2C bus {port} at address {address:#04x}: {error}") from error


class ReopeningDisplay:
    """A display opened again after it failed: an OLED that lost power forgets its start-up
    commands, so writing to the old device would "work" on a dark panel. Opened once at once,
    so a display missing at start is reported there."""

    def __init__(self, opener: Callable[[], Display]) -> None:
        self._opener = opener
        self._display: Display | None = opener()

    def show(self, image: Image.Image) -> None:
        if self._display is None:
            self._display = self._opener()  # DisplayError while it is still gone
        try:
            self._display.show(image)
        except DisplayError:
            self.close()
            raise

    def close(self) -> None:
        display, self._display = self._display, None
        if display is None:
            return
        try:
            display.close()
        except Exception as error:  # a panel that just failed may refuse its clean-up commands too
            logging.getLogger("dice_companion").warning("closing the display: %s", error)


def dummy_display(persist: bool = False) -> LumaDisplay:
    """luma's ``dummy`` device: ``display.device.image`` is exactly what the OLED would show."""
    from luma.core.device import dummy

    return LumaDisplay(dummy(width=SIZE[0], height=SIZE[1], mode=MODE), persist)


HALF_BLOCKS = " ▀▄█"  # index: 1 if the top pixel is lit, + 2 if the bottom one is


def as_blocks(image: Image.Image) -> str:
    """The picture as lines of half-block characters, a pixel wide and two high (128x32 for the OLED).

    Full horizontal resolution keeps the 6-pixel font legible; a terminal 130 columns wide shows it whole.
    """
    picture = image.convert(MODE)
    width, height = picture.size
    lit = picture.load()
    lines = []
    for y in range(0, height, 2):
        line = "".join(
            HALF_BLOCKS[bool(lit[x, y]) + 2 * bool(y + 1 < height and lit[x, y + 1])] for x in range(width)
        )
        lines.append(line.rstrip())
    return "\n".join(lines)


class TerminalDisplay:
    """Draws each picture in the terminal, framed; redraws in place on an interactive terminal.

    On a terminal too small for the picture, wrapped lines would turn it into garbage: it is
    refused at once with a DisplayError that says the size needed.
    """

    def __init__(self, stream: TextIO | None = None, in_place: bool | None = None, footer: str = "") -> None:
        self._stream = stream or sys.stdout
        self._in_place = self._stream.isatty() if in_place is None else in_place
        self._footer = footer
        self._note = ""
        self._last: tuple[bytes, str] | None = None
        if self._stream.isatty():
            self._check_size()

    def _check_size(self) -> None:
        """Columns for the framed picture; rows too when it is redrawn in place (frame, footer, cursor)."""
        columns = SIZE[0] + 2
        rows = SIZE[1] // 2 + 2 + bool(self._footer) + 1 if self._in_place else 0
        have = shutil.get_terminal_size()
        if have.columns < columns or have.lines < rows:
            need = f"{columns}x{rows}" if rows else f"{columns} columns"
            raise DisplayError(
                f"the terminal is {have.columns}x{have.lines} characters; the OLED picture needs {need}: "
                "make the window larger (or the font smaller) and start again"
            )

    def tell(self, words: str) -> None:
        """Say ``words`` after the footer from the next picture on: what the OLED does not show, such
        as where a flick landed on a simulated board (its players cannot look at it)."""
        self._note = words

    def show(self, image: Image.Image) -> None:
        shown = image.convert(MODE).tobytes(), self._note
        if shown == self._last:
            return  # the same picture again: nothing to draw
        self._last = shown
        edge = "+" + "-" * image.width + "+"
        rows = [f"|{line:<{image.width}}|" for line in as_blocks(image).split("\n")]
        below = "   ".join(words for words in (self._footer, self._note) if words)
        text = "\n".join([edge, *rows, edge] + ([below] if below else []))
        self._stream.write(("\x1b[H\x1b[2J" if self._in_place else "") + text + "\n")
        self._stream.flush()

    def close(self) -> None:
        self._stream.flush()


class RecordingDisplay:
    """Saves every picture as ``screen-NNNN.png`` in ``folder``, then shows it on ``inner`` (if any).

    A folder that already holds screens is refused: a second run would overwrite the first
    one's screens and leave the rest of them mixed in with its own.
    """

    def __init__(self, folder: Path, inner: Display | None = None) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            recorded = sorted(folder.glob("screen-*.png"))
        except FileExistsError:
            raise DisplayError(f"cannot record screens in {folder}: it is a file, not a folder") from None
        except OSError as error:
            raise DisplayError(f"cannot record screens in {folder}: {error.strerror or error}") from error
        if recorded:
            raise DisplayError(
                f"{folder} already holds the screens of an earlier recording ({len(recorded)} of them): "
                "record into a new or empty folder"
            )
        self.folder = folder
        self.inner = inner
        self.count = 0

    def show(self, image: Image.Image) -> None:
        self.count += 1
        try:
            image.save(self.folder / f"screen-{self.count:04d}.png")
        except OSError as error:
            raise DisplayError(f"cannot record screen {self.count} in {self.folder}: {error}") from error
        if self.inner is not None:
            self.inner.show(image)

    def close(self) -> None:
        if self.inner is not None:
            self.inner.close()
