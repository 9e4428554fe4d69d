"""What the 128x64 OLED shows: the drawing kit every game's screens use, and the screens of the core.

Screens are values (frozen dataclasses) with a ``paint(canvas)`` method, so the flow can be
tested by comparing them and the pictures by golden PNGs, and a game adds its own screens
without touching this module. Text uses Pillow's built-in bitmap font (no file to ship):
crisp at one bit per pixel, where the scalable one draws 6 and 8 alike.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from PIL import Image, ImageDraw, ImageFont

from hardware.display import MODE, SIZE

WIDTH, HEIGHT = SIZE
FONT = ImageFont.load_default_imagefont()  # Pillow's built-in bitmap font: crisp at one bit, 6 px a character
CHAR_PX = 6
ROW_PX = 11  # a text row
TITLE_ROWS_PX = 12  # the inverse title bar
BODY_TOP_PX = 13
FOOTER_TOP_PX = HEIGHT - ROW_PX
BODY_ROWS = 3  # text rows between the title bar and the footer
CHOICE_LINES = 4  # choices visible at once under the title
SECOND_PERSON = "you"  # a player called "You" is spoken to: "You win!", not "You wins!"
PLAYER_MARKS = "ABCD"  # the letter of each seat, on every game's screens
Canvas = ImageDraw.ImageDraw


class Screen(Protocol):
    """Anything the OLED can show: a value that paints itself on the 128x64 canvas."""

    def paint(self, canvas: Canvas) -> None: ...


def draw(screen: Screen) -> Image.Image:
    """The 128x64 1-bit picture of ``screen``."""
    image = Image.new(MODE, SIZE, 0)
    screen.paint(ImageDraw.Draw(image))
    return image


# --- the kit --------------------------------------------------------------------------------


def player_mark(player: int) -> str:
    """The letter that stands for a seat (A for the first player)."""
    return PLAYER_MARKS[player]


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` (third person of a verb that adds -s: "wins") in agreement: "Ann wins", "You win"."""
    return f"{name} {verb[:-1] if name.casefold() == SECOND_PERSON else verb}"


def possessive(name: str) -> str:
    """"Ann's", "Your"."""
    return "Your" if name.casefold() == SECOND_PERSON else f"{name}'s"


def percent(odds: Fraction | float) -> str:
    """Odds as a percentage with one decimal, e.g. ``7.9%``."""
    return f"{float(odds) * 100:.1f}%"


def rows_of(text: str, rows: int = 2) -> tuple[str, ...]:
    """``text`` cut into up to ``rows`` rows of the panel's width, for a notice."""
    width = WIDTH // CHAR_PX
    return tuple(text[start:start + width] for start in range(0, width * rows, width))


def wrapped(text: str, rows: int = BODY_ROWS) -> tuple[str, ...]:
    """``text`` wrapped at spaces into up to ``rows`` rows of the panel's width (numbers of any length
    move to the next row whole, where :func:`rows_of` would cut them)."""
    return tuple(textwrap.wrap(text, WIDTH // CHAR_PX)[:rows])


def whose(names: Sequence[str], player: int, proxy: bool = False) -> str:
    """"Ann (A)", or "for Robo" when the people decide for a bot."""
    return f"for {names[player]}" if proxy else f"{names[player]} ({player_mark(player)})"


def text(canvas: Canvas, xy: tuple[int, int], words: str, fill: int = 1, right: bool = False) -> None:
    """Text at ``xy`` (its top left corner, or top right with ``right``), cut to what fits the panel."""
    x, y = xy
    words = words[: (x if right else WIDTH - x) // CHAR_PX]
    canvas.text((x - CHAR_PX * len(words) if right else x, y), words, font=FONT, fill=fill)


def big(canvas: Canvas, xy: tuple[int, int], words: str) -> None:
    """Text at twice the size, for the few words that must be read from across the table."""
    small = Image.new(MODE, (max(1, CHAR_PX * len(words)), ROW_PX), 0)
    ImageDraw.Draw(small).text((0, 0), words, font=FONT, fill=1)
    canvas.bitmap(xy, small.resize((small.width * 2, small.height * 2), Image.Resampling.NEAREST), fill=1)


def title(canvas: Canvas, words: str, right: str = "") -> None:
    """The title bar in inverse video, with an optional note on the right (never run together: the
    words are cut to leave a space before it)."""
    canvas.rectangle((0, 0, WIDTH - 1, TITLE_ROWS_PX - 1), fill=1)
    if right:
        words = words[: max(0, (WIDTH - 2) // CHAR_PX - len(right) - 1)]
    text(canvas, (1, 0), words, fill=0)
    if right:
        text(canvas, (WIDTH - 1, 0), right, fill=0, right=True)


def line(canvas: Canvas, row: int, words: str) -> None:
    """Body text on row ``row`` (0 is the first under the title)."""
    text(canvas, (1, BODY_TOP_PX + row * ROW_PX), words)


def footer(canvas: Canvas, left: str, right: str = "", rule: bool = True) -> None:
    """The bottom row: a status or what the buttons do now; ``rule`` draws the line above it
    (a picture that needs the rows above the text leaves it out)."""
    if rule:
        canvas.line((0, FOOTER_TOP_PX - 2, WIDTH - 1, FOOTER_TOP_PX - 2), fill=1)
    if right:  # never run together ("SELECT:startSTOP:back"): the left is cut to leave a space
        left = left[: max(0, WIDTH // CHAR_PX - len(right) - 1)]
    text(canvas, (0, FOOTER_TOP_PX), left)
    if right:
        text(canvas, (WIDTH, FOOTER_TOP_PX), right, right=True)


def window(cursor: int, count: int, rows: int) -> int:
    """The first of ``rows`` items to show so that the item at ``cursor`` is visible."""
    return min(max(0, cursor - rows + 1), max(0, count - rows))


def more_marks(first: int, count: int, rows: int) -> str:
    """"^" when items are hidden above the window, "v" when below."""
    return ("^" if first > 0 else " ") + ("v" if first + rows < count else " ")


def choice_list(
    canvas: Canvas, labels: Sequence[str], cursor: int, width_px: int, advice: int | None = None, advice_x: int = 0
) -> int:
    """Up to :data:`CHOICE_LINES` labels under the title, the one at ``cursor`` in inverse video and
    the advised one starred at ``advice_x``; returns the index of the first one shown."""
    first = window(cursor, len(labels), CHOICE_LINES)
    for row, label in enumerate(labels[first:first + CHOICE_LINES]):
        top = BODY_TOP_PX + row * ROW_PX
        chosen = first + row == cursor
        if chosen:
            canvas.rectangle((0, top, width_px, top + ROW_PX - 1), fill=1)
        text(canvas, (3, top), label, fill=0 if chosen else 1)
        if first + row == advice:
            text(canvas, (advice_x, top), "*", fill=0 if chosen else 1)  # the advisor's pick
    return first


def side_hints(canvas: Canvas, hints: Sequence[str]) -> None:
    """One hint per row down the right edge, beside a list of choices."""
    for row, hint in enumerate(hints):
        text(canvas, (WIDTH, BODY_TOP_PX + row * ROW_PX), hint, right=True)


def next_player(canvas: Canvas, names: Sequence[str], player: int, status: str, board: str = "board") -> None:
    """The bottom of a screen that ends a turn: who plays next, and ROLL (or the status); NEXT shows
    the ``board`` (a game calls it by its own word: Yacht's "card")."""
    line(canvas, 2, f"Next: {whose(names, player)}")
    footer(canvas, status or f"NEXT:{board}", "" if status else "ROLL")


def winner_title(canvas: Canvas, name: str) -> None:
    """"Ann wins!" at twice the size; a long name fills the line at twice the size, the verb beside it."""
    words = says(name, "wins") + "!"
    if len(words) * CHAR_PX * 2 <= WIDTH:
        big(canvas, (0, 0), words)
    else:
        big(canvas, (0, 0), name)
        text(canvas, (len(name) * CHAR_PX * 2 + 1, ROW_PX), words[len(name) + 1:])


# --- the core's screens ---------------------------------------------------------------------


@dataclass(frozen=True)
class SetupScreen:
    """Setting up a game: the game, the players, the game's options, one per row; NEXT changes
    the highlighted value (or does the row's own ``next_does``), SELECT moves on (on the last row:
    starts), STOP goes back."""

    rows: tuple[tuple[str, str], ...]  # (label, value shown) per field
    field: int  # the highlighted row; len(rows) is the start line
    next_does: str = "change"  # what NEXT does on the highlighted row ("learn" on the dice lesson's row)

    def paint(self, canvas: Canvas) -> None:
        first = window(min(self.field, len(self.rows) - 1), len(self.rows), BODY_ROWS)
        more = more_marks(first, len(self.rows), BODY_ROWS).replace(" ", "")
        title(canvas, "New game", f"more {more}" if more else "")  # the marks up here: each row keeps its whole line
        for row, (label, value) in enumerate(self.rows[first:first + BODY_ROWS]):
            top = BODY_TOP_PX + row * ROW_PX
            chosen = first + row == self.field
            if chosen:
                canvas.rectangle((0, top, WIDTH - 1, top + ROW_PX - 1), fill=1)
            text(canvas, (1, top), setup_row(label, value, (WIDTH - 1) // CHAR_PX), fill=0 if chosen else 1)
        if self.field == len(self.rows):
            footer(canvas, "SELECT:play", "STOP:back")
        else:
            footer(canvas, f"NEXT:{self.next_does}", "SELECT:ok")


def setup_row(label: str, value: str, room: int) -> str:
    """A set-up row in ``room`` characters, its label always kept ("Game: Counters"): a value too
    long loses words from its end (a dangling "to" with them), and is cut only if one word is left."""
    words = value.split()
    while len(words) > 1 and len(f"{label}: {' '.join(words)}") > room:
        words.pop()
        while len(words) > 1 and len(words[-1]) <= 2 and not words[-1].isdigit():  # "Counters to" -> "Counters"
            words.pop()
    return f"{label}: {' '.join(words)}"[:room]


@dataclass(frozen=True)
class BadReadScreen:
    """The camera did not see exactly the dice a throw needs: never guess, ask again."""

    seen: int
    values: tuple[int, ...]
    unreadable: int
    needed: int
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        if self.unreadable:
            title(canvas, f"{self.unreadable} of {self.seen} dice unclear")
        else:
            title(canvas, f"Saw {self.seen} dice, need {self.needed}")
        line(canvas, 0, "read: " + (" ".join(map(str, self.values)) or "nothing"))
        if self.unreadable:
            line(canvas, 1, "Cocked or hidden?")
            line(canvas, 2, "Fix it, press ROLL.")
        else:
            line(canvas, 1, "Throw all again, or")
            line(canvas, 2, "ROLL to read again.")
        footer(canvas, self.status or "No guessing.", "" if self.status else "ROLL")


@dataclass(frozen=True)
class ResumeScreen:
    """A game found unfinished at start, restored from the journal."""

    names: tuple[str, ...]
    round: int
    doing: str  # "Ann: to roll", from the game
    confirming: bool = False  # STOP was pressed once: STOP again abandons the game

    def paint(self, canvas: Canvas) -> None:
        title(canvas, "Game resumed", f"round {self.round}")
        players = textwrap.wrap(" v ".join(self.names), WIDTH // CHAR_PX)  # four names of eight take two rows
        for row, words in enumerate(players):
            line(canvas, row, words)
        if self.confirming:
            line(canvas, len(players), "Abandon it? STOP:yes")
            footer(canvas, "SELECT:no, play on")
            return
        line(canvas, len(players), self.doing)
        footer(canvas, "SELECT:play", "STOP:new")


@dataclass(frozen=True)
class ManualEntryScreen:
    """The dice entered with the buttons: NEXT changes the current die, SELECT moves on, STOP goes back."""

    player: str
    values: tuple[int, ...]
    index: int
    heading: str = "Dice by hand"  # "Check dice": the values read, to be confirmed or corrected

    def paint(self, canvas: Canvas) -> None:
        title(canvas, self.heading, self.player)
        step = 30 if len(self.values) <= 4 else 24
        for index, value in enumerate(self.values):
            x = 8 + index * step
            if index == self.index:
                canvas.rectangle((x - 3, BODY_TOP_PX + 2, x + 16, BODY_TOP_PX + 26), outline=1)
            big(canvas, (x, BODY_TOP_PX + 4), str(value))
        text(canvas, (1, BODY_TOP_PX + 27), f"die {self.index + 1} of {len(self.values)}")
        text(canvas, (WIDTH, BODY_TOP_PX + 27), "STOP:back", right=True)
        footer(canvas, "NEXT:+1", "SELECT:ok")


@dataclass(frozen=True)
class DiceLessonScreen:
    """``calibrate --dice``: the table's examples per face so far, and what to do next."""

    counts: tuple[int, ...]  # examples of faces 1-6
    status: str = ""
    wanted: int = 2  # examples of each face that are enough

    def paint(self, canvas: Canvas) -> None:
        title(canvas, "Learn dice", f"{sum(self.counts)} kept")
        line(canvas, 0, "  ".join(f"{face}:{n}" for face, n in zip((1, 2, 3), self.counts[:3])))
        line(canvas, 1, "  ".join(f"{face}:{n}" for face, n in zip((4, 5, 6), self.counts[3:])))
        enough = all(n >= self.wanted for n in self.counts)
        line(canvas, 2, f"Enough: each face {self.wanted}x" if enough else f"Throw: each face {self.wanted}x")
        footer(canvas, self.status or "ROLL:read", "STOP:done")


@dataclass(frozen=True)
class NoticeScreen:
    """Something the players must know before going on (SELECT dismisses it; with ``undoes``, UNDO
    dismisses it and takes the last move back, as the footer says)."""

    title: str
    lines: tuple[str, ...]
    footer: str = ""
    undoes: bool = False

    def paint(self, canvas: Canvas) -> None:
        title(canvas, self.title)
        for row, words in enumerate(self.lines[:BODY_ROWS]):
            line(canvas, row, words)
        footer(canvas, self.footer, "SELECT:ok")
