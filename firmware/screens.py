"""What the 128x64 OLED shows: one small value per screen, and ``draw(screen)`` to a 1-bit picture.

Screens are values (frozen dataclasses), so the flow can be tested by comparing them and the
pictures by golden PNGs. Text uses Pillow's built-in bitmap font (no file to ship): crisp at
one bit per pixel, where the scalable one draws 6 and 8 alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from PIL import Image, ImageDraw, ImageFont

from engine.cant_stop import COLUMNS, HEIGHTS, Advance, Phase, State
from firmware.board_text import player_mark
from hardware.display import MODE, SIZE

WIDTH, HEIGHT = SIZE
CHOICE_LINES = 4  # choices visible at once under the title
BOARD_PAGES = (COLUMNS[:6], COLUMNS[6:])  # six lines fit the panel


@dataclass(frozen=True)
class SetupScreen:
    """Setting up a game: NEXT changes the highlighted value, SELECT moves on, STOP goes back."""

    players: int
    columns_to_win: int
    rule: str
    field: int  # 0 players, 1 columns, 2 rule, 3 start


@dataclass(frozen=True)
class RollScreen:
    """A player is to roll (or, with runners out, to roll again or stop)."""

    state: State
    names: tuple[str, ...]
    bust_odds: Fraction
    status: str = ""  # "reading the dice...", a camera problem, a refused button
    advice: str = ""  # with hints on: "ROLL" or "STOP", the advisor's call


@dataclass(frozen=True)
class ChoiceScreen:
    """The legal uses of a roll; NEXT moves the cursor, SELECT applies."""

    state: State
    names: tuple[str, ...]
    options: tuple[Advance, ...]
    cursor: int = 0
    status: str = ""
    advice: int | None = None  # with hints on: the option the advisor would take


@dataclass(frozen=True)
class BadReadScreen:
    """The camera did not see exactly the dice a roll needs: never guess, ask again."""

    state: State
    names: tuple[str, ...]
    seen: int
    values: tuple[int, ...]
    unreadable: int
    needed: int
    status: str = ""


@dataclass(frozen=True)
class BustScreen:
    """The roll left no choice: the runners are lost and the dice pass on."""

    state: State  # after the bust: the next player is to roll
    names: tuple[str, ...]
    loser: int
    dice: tuple[int, ...]
    status: str = ""


@dataclass(frozen=True)
class ClaimScreen:
    """A stop that claimed one or more columns."""

    state: State  # after the stop
    names: tuple[str, ...]
    player: int
    columns: tuple[int, ...]
    status: str = ""


@dataclass(frozen=True)
class WinnerScreen:
    state: State
    names: tuple[str, ...]


@dataclass(frozen=True)
class BoardScreen:
    """The engine's board, a page at a time, to check against the physical one."""

    state: State
    names: tuple[str, ...]
    page: int


@dataclass(frozen=True)
class ResumeScreen:
    """A game found unfinished at start, restored from the journal."""

    state: State
    names: tuple[str, ...]
    confirming: bool = False  # STOP was pressed once: STOP again abandons the game


@dataclass(frozen=True)
class ManualEntryScreen:
    """The dice entered with the buttons: NEXT changes the current die, SELECT moves on, STOP goes back."""

    state: State
    names: tuple[str, ...]
    values: tuple[int, ...]
    index: int


@dataclass(frozen=True)
class NoticeScreen:
    """Something the players must know before going on (SELECT dismisses it)."""

    title: str
    lines: tuple[str, ...]
    footer: str = ""


Screen = Union[
    SetupScreen, RollScreen, ChoiceScreen, BadReadScreen, BustScreen, ClaimScreen, WinnerScreen, BoardScreen,
    ResumeScreen, ManualEntryScreen, NoticeScreen,
]


FONT = ImageFont.load_default_imagefont()  # Pillow's built-in bitmap font: crisp at one bit, 6 px a character
CHAR_PX = 6
ROW_PX = 11  # a text row
TITLE_ROWS_PX = 12  # the inverse title bar
BODY_TOP_PX = 13
FOOTER_TOP_PX = HEIGHT - ROW_PX
BOARD_ROW_PX = 10  # the board packs six columns to a page


def percent(odds: Fraction) -> str:
    """Odds as a percentage with one decimal, e.g. ``7.9%``."""
    return f"{float(odds) * 100:.1f}%"


def draw(screen: Screen) -> Image.Image:
    """The 128x64 1-bit picture of ``screen``."""
    image = Image.new(MODE, SIZE, 0)
    _DRAWERS[type(screen)](ImageDraw.Draw(image), screen)
    return image


def _text(canvas: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 1, right: bool = False) -> None:
    """Text at ``xy`` (its top left corner, or top right with ``right``), cut to what fits the panel."""
    x, y = xy
    text = text[: (x if right else WIDTH - x) // CHAR_PX]
    canvas.text((x - CHAR_PX * len(text) if right else x, y), text, font=FONT, fill=fill)


def rows_of(text: str, rows: int = 2) -> tuple[str, ...]:
    """``text`` cut into up to ``rows`` rows of the panel's width, for a notice."""
    width = WIDTH // CHAR_PX
    return tuple(text[start:start + width] for start in range(0, width * rows, width))


def _big(canvas: ImageDraw.ImageDraw, xy: tuple[int, int], text: str) -> None:
    """Text at twice the size, for the few words that must be read from across the table."""
    small = Image.new(MODE, (CHAR_PX * len(text), ROW_PX), 0)
    ImageDraw.Draw(small).text((0, 0), text, font=FONT, fill=1)
    canvas.bitmap(xy, small.resize((small.width * 2, small.height * 2), Image.Resampling.NEAREST), fill=1)


def _title(canvas: ImageDraw.ImageDraw, text: str, right: str = "") -> None:
    """The title bar in inverse video, with an optional note on the right."""
    canvas.rectangle((0, 0, WIDTH - 1, TITLE_ROWS_PX - 1), fill=1)
    _text(canvas, (1, 0), text, fill=0)
    if right:
        _text(canvas, (WIDTH - 1, 0), right, fill=0, right=True)


def _line(canvas: ImageDraw.ImageDraw, row: int, text: str) -> None:
    """Body text on row ``row`` (0 is the first under the title)."""
    _text(canvas, (1, BODY_TOP_PX + row * ROW_PX), text)


def _footer(canvas: ImageDraw.ImageDraw, left: str, right: str = "") -> None:
    """The bottom row: a status or what the buttons do now."""
    canvas.line((0, FOOTER_TOP_PX - 2, WIDTH - 1, FOOTER_TOP_PX - 2), fill=1)
    _text(canvas, (0, FOOTER_TOP_PX), left)
    if right:
        _text(canvas, (WIDTH, FOOTER_TOP_PX), right, right=True)


def _whose(names: tuple[str, ...], player: int) -> str:
    return f"{names[player]} ({player_mark(player)})"


def _setup(canvas: ImageDraw.ImageDraw, screen: SetupScreen) -> None:
    _title(canvas, "New game")
    rows = (f"Players: {screen.players}", f"Columns to win: {screen.columns_to_win}", f"Rules: {screen.rule}")
    for row, text in enumerate(rows):
        _line(canvas, row, (">" if row == screen.field else " ") + text)
    if screen.field == 3:
        _footer(canvas, "SELECT:start", "STOP:back")
    else:
        _footer(canvas, "NEXT:change", "SELECT:ok")


def _runner_bars(canvas: ImageDraw.ImageDraw, state: State) -> None:
    """A row per runner: its column, a bar of the spaces (saved part filled, this turn's outlined)."""
    for row, (column, space) in enumerate(state.runners):
        top = BODY_TOP_PX + row * ROW_PX
        saved = state.saved_space(state.current, column)
        _text(canvas, (12, top), str(column), right=True)
        for step in range(1, HEIGHTS[column] + 1):
            x = 15 + (step - 1) * CHAR_PX
            box = (x, top + 1, x + CHAR_PX - 2, top + 8)
            if step <= saved:
                canvas.rectangle(box, fill=1)
            elif step <= space:
                canvas.rectangle(box, outline=1)
            else:
                canvas.point((x + 2, top + 5), fill=1)
        _text(canvas, (WIDTH, top), f"{space}/{HEIGHTS[column]}", right=True)


def _roll(canvas: ImageDraw.ImageDraw, screen: RollScreen) -> None:
    state = screen.state
    _title(canvas, _whose(screen.names, state.current), f"turn {state.turn}")
    odds = f"bust {percent(screen.bust_odds)}"
    if state.runners:
        _runner_bars(canvas, state)
        _footer(canvas, screen.status or odds, "" if screen.status else f"tip:{screen.advice}" if screen.advice else "ROLL/STOP")
    else:
        _line(canvas, 0, "Throw, press ROLL.")
        _line(canvas, 1, "SELECT: dice by hand")
        _line(canvas, 2, "NEXT: the board")
        _footer(canvas, screen.status or odds, "" if screen.status else "ROLL")


def _choice(canvas: ImageDraw.ImageDraw, screen: ChoiceScreen) -> None:
    state = screen.state
    dice = " ".join(str(d) for d in state.dice.dice) if state.dice else ""
    _title(canvas, f"Rolled {dice}", screen.names[state.current])
    first = min(max(0, screen.cursor - CHOICE_LINES + 1), max(0, len(screen.options) - CHOICE_LINES))
    for row, option in enumerate(screen.options[first:first + CHOICE_LINES]):
        top = BODY_TOP_PX + row * ROW_PX
        chosen = first + row == screen.cursor
        if chosen:
            canvas.rectangle((0, top, 48, top + ROW_PX - 1), fill=1)
        _text(canvas, (3, top), option.text(), fill=0 if chosen else 1)
        if first + row == screen.advice:
            _text(canvas, (38, top), "*", fill=0 if chosen else 1)  # the advisor's pick
    more = ("^" if first > 0 else " ") + ("v" if first + CHOICE_LINES < len(screen.options) else " ")
    tip = "* = advice" if screen.advice is not None else ""
    hints = (f"{screen.cursor + 1} of {len(screen.options)} {more}", "NEXT:move", "SELECT:take", screen.status or tip)
    for row, hint in enumerate(hints):
        _text(canvas, (WIDTH, BODY_TOP_PX + row * ROW_PX), hint, right=True)


def _bad_read(canvas: ImageDraw.ImageDraw, screen: BadReadScreen) -> None:
    if screen.unreadable:
        _title(canvas, f"{screen.unreadable} of {screen.seen} dice unclear")
    else:
        _title(canvas, f"Saw {screen.seen} dice, need {screen.needed}")
    _line(canvas, 0, "read: " + (" ".join(map(str, screen.values)) or "nothing"))
    if screen.unreadable:
        _line(canvas, 1, "Cocked or hidden?")
        _line(canvas, 2, "Fix it, press ROLL.")
    else:
        _line(canvas, 1, "Throw all again, or")
        _line(canvas, 2, "ROLL to read again.")
    _footer(canvas, screen.status or "No guessing.", "" if screen.status else "ROLL")


def _after_turn(canvas: ImageDraw.ImageDraw, state: State, names: tuple[str, ...], status: str) -> None:
    """The bottom of the bust and claim screens: who rolls next."""
    _line(canvas, 2, f"Next: {_whose(names, state.current)}")
    _footer(canvas, status or "NEXT:board", "" if status else "ROLL")


def _bust(canvas: ImageDraw.ImageDraw, screen: BustScreen) -> None:
    _big(canvas, (2, 0), "BUST!")
    _text(canvas, (WIDTH, 6), " ".join(map(str, screen.dice)), right=True)
    _line(canvas, 1, f"{screen.names[screen.loser]} loses runners")
    _after_turn(canvas, screen.state, screen.names, screen.status)


def _claim(canvas: ImageDraw.ImageDraw, screen: ClaimScreen) -> None:
    _title(canvas, f"{screen.names[screen.player]} claims " + " ".join(map(str, screen.columns)) + "!")
    _line(canvas, 0, "Columns won:")
    _line(canvas, 1, "  " + " ".join(map(str, screen.state.claimed_by(screen.player))))
    _after_turn(canvas, screen.state, screen.names, screen.status)


def _winner(canvas: ImageDraw.ImageDraw, screen: WinnerScreen) -> None:
    state = screen.state
    assert state.winner is not None
    _big(canvas, (2, 0), f"{screen.names[state.winner]} wins!"[:10])
    _line(canvas, 1, "Columns " + " ".join(map(str, state.claimed_by(state.winner))))
    _line(canvas, 2, f"in {state.turn} turns")
    _footer(canvas, "NEXT:board", "SELECT:new")


def board_line(state: State, column: int) -> str:
    """One column of the board: ``7/13 A5 B3 ^6``, or ``7/13 won by A``."""
    owner = state.owner(column)
    if owner is not None:
        return f"{column:>2}/{HEIGHTS[column]:<2} won by {player_mark(owner)}"
    marks = [f"{player_mark(p)}{state.saved_space(p, column)}" for p in range(state.players) if state.saved_space(p, column)]
    runner = state.runner_space(column)
    if runner is not None:
        marks.append(f"^{runner}")
    return f"{column:>2}/{HEIGHTS[column]:<2} " + " ".join(marks)


def _board(canvas: ImageDraw.ImageDraw, screen: BoardScreen) -> None:
    columns = BOARD_PAGES[screen.page]
    for row, column in enumerate(columns):
        _text(canvas, (0, row * BOARD_ROW_PX), board_line(screen.state, column))
    if len(columns) < len(BOARD_PAGES[0]):
        legend = " ".join(f"{player_mark(p)}={n}" for p, n in enumerate(screen.names))
        _text(canvas, (0, HEIGHT - ROW_PX), legend)
    _text(canvas, (WIDTH, 0), f"{screen.page + 1}/{len(BOARD_PAGES)}", right=True)


def _resume(canvas: ImageDraw.ImageDraw, screen: ResumeScreen) -> None:
    state = screen.state
    _title(canvas, "Game resumed")
    _line(canvas, 0, " v ".join(screen.names))
    _line(canvas, 1, f"turn {state.turn}: {_whose(screen.names, state.current)}")
    if screen.confirming:
        _line(canvas, 2, "Abandon it? STOP:yes")
        _footer(canvas, "SELECT:no, play on")
        return
    _line(canvas, 2, "choosing" if state.phase is Phase.CHOOSE else "runners out" if state.runners else "to roll")
    _footer(canvas, "SELECT:play", "STOP:new")


def _manual_entry(canvas: ImageDraw.ImageDraw, screen: ManualEntryScreen) -> None:
    _title(canvas, "Dice by hand", screen.names[screen.state.current])
    for index, value in enumerate(screen.values):
        x = 8 + index * 30
        if index == screen.index:
            canvas.rectangle((x - 3, BODY_TOP_PX + 2, x + 16, BODY_TOP_PX + 26), outline=1)
        _big(canvas, (x, BODY_TOP_PX + 4), str(value))
    _text(canvas, (1, BODY_TOP_PX + 27), f"die {screen.index + 1} of {len(screen.values)}")
    _text(canvas, (WIDTH, BODY_TOP_PX + 27), "STOP:back", right=True)
    _footer(canvas, "NEXT:+1", "SELECT:ok")


def _notice(canvas: ImageDraw.ImageDraw, screen: NoticeScreen) -> None:
    _title(canvas, screen.title)
    for row, line in enumerate(screen.lines[:3]):
        _line(canvas, row, line)
    _footer(canvas, screen.footer, "SELECT:ok")


_DRAWERS = {
    SetupScreen: _setup,
    RollScreen: _roll,
    ChoiceScreen: _choice,
    BadReadScreen: _bad_read,
    BustScreen: _bust,
    ClaimScreen: _claim,
    WinnerScreen: _winner,
    BoardScreen: _board,
    ResumeScreen: _resume,
    ManualEntryScreen: _manual_entry,
    NoticeScreen: _notice,
}
