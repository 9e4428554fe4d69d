"""What the 128x64 OLED shows: one small value per screen, and ``draw(screen)`` to a 1-bit picture.

Screens are values (frozen dataclasses), so the flow can be tested by comparing them and the
pictures by golden PNGs. Text uses Pillow's built-in bitmap font (no file to ship): crisp at
one bit per pixel, where the scalable one draws 6 and 8 alike.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import Union

from PIL import Image, ImageDraw, ImageFont

from engine.cant_stop import COLUMNS, HEIGHTS, Advance, Phase, State
from firmware.board_text import player_mark
from firmware.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width
from hardware.display import MODE, SIZE

WIDTH, HEIGHT = SIZE
CHOICE_LINES = 4  # choices visible at once under the title


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
    proxy: bool = False  # a bot's seat after an UNDO: the people decide for it


@dataclass(frozen=True)
class ChoiceScreen:
    """The legal uses of a roll; NEXT moves the cursor, SELECT applies."""

    state: State
    names: tuple[str, ...]
    options: tuple[Advance, ...]
    cursor: int = 0
    status: str = ""
    advice: int | None = None  # with hints on: the option the advisor would take
    proxy: bool = False  # a bot's seat after an UNDO: the people decide for it


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
class BotTurnScreen:
    """What a bot seat decided (its split, rolling on or stopping): shown until the next roll is read,
    so the people at the table see every decision before they throw again."""

    state: State  # after the decisions
    names: tuple[str, ...]
    bot: int
    dice: tuple[int, ...] = ()  # the roll it chose from; empty when it only stopped
    took: str = ""  # the split it took
    columns: tuple[int, ...] = ()  # the columns its stop claimed
    status: str = ""

    @property
    def stopped(self) -> bool:
        return self.state.current != self.bot


@dataclass(frozen=True)
class WinnerScreen:
    state: State
    names: tuple[str, ...]


@dataclass(frozen=True)
class BoardScreen:
    """The engine's whole board in one picture, to check against the physical one."""

    state: State
    names: tuple[str, ...]


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
    SetupScreen, RollScreen, ChoiceScreen, BadReadScreen, BustScreen, ClaimScreen, BotTurnScreen, WinnerScreen,
    BoardScreen, ResumeScreen, ManualEntryScreen, NoticeScreen,
]


FONT = ImageFont.load_default_imagefont()  # Pillow's built-in bitmap font: crisp at one bit, 6 px a character
CHAR_PX = 6
ROW_PX = 11  # a text row
TITLE_ROWS_PX = 12  # the inverse title bar
BODY_TOP_PX = 13
FOOTER_TOP_PX = HEIGHT - ROW_PX
SECOND_PERSON = "you"  # a player called "You" is spoken to: "You win!", not "You wins!"


def round_of(state: State) -> int:
    """The round being played: every player has one turn a round (``state.turn`` counts all turns)."""
    return (state.turn - 1) // state.players + 1


def says(name: str, verb: str) -> str:
    """``name`` and ``verb`` (third person of a verb that adds -s: "wins") in agreement: "Ann wins", "You win"."""
    return f"{name} {verb[:-1] if name.casefold() == SECOND_PERSON else verb}"


def possessive(name: str) -> str:
    """"Ann's", "Your"."""
    return "Your" if name.casefold() == SECOND_PERSON else f"{name}'s"


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


def _whose(names: tuple[str, ...], player: int, proxy: bool = False) -> str:
    """"Ann (A)", or "for Robo" when the people decide for a bot."""
    return f"for {names[player]}" if proxy else f"{names[player]} ({player_mark(player)})"


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
    _title(canvas, _whose(screen.names, state.current, screen.proxy), f"round {round_of(state)}")
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
    _title(canvas, _whose(screen.names, state.current, screen.proxy), dice)
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
    _line(canvas, 1, f"{possessive(screen.names[screen.loser])} turn ends.")
    _after_turn(canvas, screen.state, screen.names, screen.status)


def _claim(canvas: ImageDraw.ImageDraw, screen: ClaimScreen) -> None:
    _title(canvas, says(screen.names[screen.player], "claims"))
    _line(canvas, 0, _columns_text(screen.columns) + "!")
    _line(canvas, 1, "Won: " + " ".join(map(str, screen.state.claimed_by(screen.player))))
    _after_turn(canvas, screen.state, screen.names, screen.status)


def _columns_text(columns: tuple[int, ...]) -> str:
    return ("column " if len(columns) == 1 else "columns ") + " ".join(map(str, columns))


def _bot_turn(canvas: ImageDraw.ImageDraw, screen: BotTurnScreen) -> None:
    _title(canvas, _whose(screen.names, screen.bot), " ".join(map(str, screen.dice)))
    if screen.took:
        _line(canvas, 0, f"took {screen.took}")
    if not screen.stopped:
        _line(canvas, 1, "rolls again:")
        _line(canvas, 2, "throw its dice.")
        _footer(canvas, screen.status or "NEXT:board", "" if screen.status else "ROLL")
        return
    _line(canvas, 1, "stops" + (f", claims {' '.join(map(str, screen.columns))}!" if screen.columns else "."))
    _after_turn(canvas, screen.state, screen.names, screen.status)


def _winner(canvas: ImageDraw.ImageDraw, screen: WinnerScreen) -> None:
    state = screen.state
    assert state.winner is not None
    name = screen.names[state.winner]
    title = says(name, "wins") + "!"
    if len(title) * CHAR_PX * 2 <= WIDTH:
        _big(canvas, (0, 0), title)
    else:  # a long name fills the line at twice the size, the verb beside it
        _big(canvas, (0, 0), name)
        _text(canvas, (len(name) * CHAR_PX * 2 + 1, ROW_PX), title[len(name) + 1:])
    _line(canvas, 1, "Columns " + " ".join(map(str, state.claimed_by(state.winner))))
    _line(canvas, 2, f"in round {round_of(state)}")
    _footer(canvas, "NEXT:board", "SELECT:new")


BOARD_LEFT_PX = 4
SLOT_PX = 11  # a column's width: 11 columns across the panel
SPACE_PX = 4  # a space's height: 13 spaces up the tallest column
BOARD_BASE_PX = 54  # the lowest pixel row of the first space
LABEL_TOP_PX = 58
LEGEND_ROW_PX = GLYPH_HEIGHT + 1


def _lanes(players: int) -> tuple[tuple[int, int], ...]:
    """Each player's lane in a column: (offset from the column's left, width); the middle pixel
    is left for the track of dots that shows the column's height."""
    if players <= 2:
        return ((1, 3), (7, 3))[:players]
    return ((1, 2), (3, 2), (6, 2), (8, 2))[:players]


def _space_top(space: int) -> int:
    return BOARD_BASE_PX - SPACE_PX * space + 1


def _board_column(canvas: ImageDraw.ImageDraw, state: State, index: int, column: int) -> None:
    """One column: a dot per space, each player's saved spaces filled in their lane, the
    runner boxed, the number underneath (in inverse video once the column is won)."""
    x = BOARD_LEFT_PX + index * SLOT_PX
    lanes = _lanes(state.players)
    for space in range(1, HEIGHTS[column] + 1):
        canvas.point((x + SLOT_PX // 2, _space_top(space) + 1), fill=1)
    for player, (offset, width) in enumerate(lanes):
        saved = HEIGHTS[column] if state.owner(column) == player else state.saved_space(player, column)
        for space in range(1, saved + 1):
            top = _space_top(space)
            canvas.rectangle((x + offset, top, x + offset + width - 1, top + 2), fill=1)
    runner = state.runner_space(column)
    if runner is not None:
        top = _space_top(runner)
        canvas.rectangle((x, top - 1, x + SLOT_PX - 1, top + 3), outline=1)
    label = str(column)
    label_x = x + (SLOT_PX - tiny_width(label)) // 2
    won = state.owner(column) is not None
    if won:
        canvas.rectangle((x, LABEL_TOP_PX - 1, x + SLOT_PX - 2, HEIGHT - 1), fill=1)
    tiny_text(canvas, (label_x, LABEL_TOP_PX), label, fill=0 if won else 1)


def _legend_entry(canvas: ImageDraw.ImageDraw, state: State, name: str, player: int, row: int, right: bool) -> None:
    """A player's lane drawn as in a column, with the name beside it; ``>`` marks whose turn it is."""
    lanes = _lanes(state.players)
    top = row * LEGEND_ROW_PX
    slot_x = BOARD_LEFT_PX + (len(COLUMNS) - 1) * SLOT_PX if right else BOARD_LEFT_PX
    offset, width = lanes[player]
    canvas.rectangle((slot_x + offset, top, slot_x + offset + width - 1, top + GLYPH_HEIGHT - 1), fill=1)
    text = (">" if player == state.current else "") + name
    text_x = slot_x - 2 - tiny_width(text) if right else slot_x + SLOT_PX + 2
    tiny_text(canvas, (text_x, top), text)


def _board(canvas: ImageDraw.ImageDraw, screen: BoardScreen) -> None:
    state = screen.state
    for index, column in enumerate(COLUMNS):
        _board_column(canvas, state, index, column)
    for player, name in enumerate(screen.names[:3]):  # the top left corner, above the short columns
        _legend_entry(canvas, state, name, player, player, right=False)
    for player, name in enumerate(screen.names[3:], start=3):  # the top right corner
        _legend_entry(canvas, state, name, player, 1, right=True)
    round_text = f"round {round_of(state)}"
    tiny_text(canvas, (WIDTH - tiny_width(round_text), 0), round_text)


def _resume(canvas: ImageDraw.ImageDraw, screen: ResumeScreen) -> None:
    state = screen.state
    _title(canvas, "Game resumed", f"round {round_of(state)}")
    players = textwrap.wrap(" v ".join(screen.names), WIDTH // CHAR_PX)  # four names of eight take two rows
    for row, text in enumerate(players):
        _line(canvas, row, text)
    if screen.confirming:
        _line(canvas, len(players), "Abandon it? STOP:yes")
        _footer(canvas, "SELECT:no, play on")
        return
    doing = "choosing" if state.phase is Phase.CHOOSE else "runners out" if state.runners else "to roll"
    _line(canvas, len(players), f"{screen.names[state.current]}: {doing}")
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
    BotTurnScreen: _bot_turn,
    WinnerScreen: _winner,
    BoardScreen: _board,
    ResumeScreen: _resume,
    ManualEntryScreen: _manual_entry,
    NoticeScreen: _notice,
}
