"""Can't Stop's screens on the OLED: the roll with the bust odds, the choice of a split, busts,
claims, a bot's turn, the winner and the whole board in one picture."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from engine.cant_stop import COLUMNS, HEIGHTS, Advance, State
from firmware.drawing.screens import (
    BODY_TOP_PX,
    CHOICE_LINES,
    HEIGHT,
    ROW_PX,
    WIDTH,
    CHAR_PX,
    Canvas,
    big,
    choice_list,
    footer,
    line,
    more_marks,
    next_player,
    percent,
    possessive,
    says,
    side_hints,
    text,
    title,
    whose,
    winner_title,
)
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width


def round_of(state: State) -> int:
    """The round being played: every player has one turn a round (``state.turn`` counts all turns)."""
    return (state.turn - 1) // state.players + 1


def newly_claimed(state: State, after: State) -> tuple[int, ...]:
    """The columns the player to move in ``state`` claimed by the move that led to ``after``."""
    return tuple(c for c in after.claimed_by(state.current) if c not in state.claimed_by(state.current))


@dataclass(frozen=True)
class RollScreen:
    """A player is to roll (or, with runners out, to roll again or stop)."""

    state: State
    names: tuple[str, ...]
    bust_odds: Fraction
    status: str = ""  # "reading the dice...", a camera problem, a refused button
    advice: str = ""  # with hints on: "ROLL" or "STOP", the advisor's call
    proxy: bool = False  # a bot's seat after an UNDO: the people decide for it
    bot_decides: bool = False  # a bot's seat deciding by itself: ROLL throws its dice, STOP is its call

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        title(canvas, whose(self.names, state.current, self.proxy), f"round {round_of(state)}")
        odds = f"bust {percent(self.bust_odds)}"
        if state.runners:
            _runner_bars(canvas, state)
            buttons = "ROLL" if self.bot_decides else "ROLL/STOP"
            footer(canvas, self.status or odds, "" if self.status else f"tip:{self.advice}" if self.advice else buttons)
        else:
            line(canvas, 0, "Throw, press ROLL.")
            line(canvas, 1, "SELECT: dice by hand")
            line(canvas, 2, "NEXT: the board")
            footer(canvas, self.status or odds, "" if self.status else "ROLL")


def _runner_bars(canvas: Canvas, state: State) -> None:
    """A row per runner: its column, a bar of the spaces (saved part filled, this turn's outlined)."""
    for row, (column, space) in enumerate(state.runners):
        top = BODY_TOP_PX + row * ROW_PX
        saved = state.saved_space(state.current, column)
        text(canvas, (12, top), str(column), right=True)
        for step in range(1, HEIGHTS[column] + 1):
            x = 15 + (step - 1) * CHAR_PX
            box = (x, top + 1, x + CHAR_PX - 2, top + 8)
            if step <= saved:
                canvas.rectangle(box, fill=1)
            elif step <= space:
                canvas.rectangle(box, outline=1)
            else:
                canvas.point((x + 2, top + 5), fill=1)
        text(canvas, (WIDTH, top), f"{space}/{HEIGHTS[column]}", right=True)


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

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        dice = " ".join(str(d) for d in state.dice.dice) if state.dice else ""
        title(canvas, whose(self.names, state.current, self.proxy), dice)
        first = choice_list(canvas, [option.text() for option in self.options], self.cursor, 48, self.advice, 38)
        tip = "* = advice" if self.advice is not None else ""
        hints = (
            f"{self.cursor + 1} of {len(self.options)} {more_marks(first, len(self.options), CHOICE_LINES)}",
            "NEXT:move", "SELECT:take", self.status or tip,
        )
        side_hints(canvas, hints)


@dataclass(frozen=True)
class BustScreen:
    """The roll left no choice: the runners are lost and the dice pass on."""

    state: State  # after the bust: the next player is to roll
    names: tuple[str, ...]
    loser: int
    dice: tuple[int, ...]
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        big(canvas, (2, 0), "BUST!")
        text(canvas, (WIDTH, 6), " ".join(map(str, self.dice)), right=True)
        line(canvas, 1, f"{possessive(self.names[self.loser])} turn ends.")
        next_player(canvas, self.names, self.state.current, self.status)


def _columns_text(columns: tuple[int, ...]) -> str:
    return ("column " if len(columns) == 1 else "columns ") + " ".join(map(str, columns))


@dataclass(frozen=True)
class ClaimScreen:
    """A stop that claimed one or more columns."""

    state: State  # after the stop
    names: tuple[str, ...]
    player: int
    columns: tuple[int, ...]
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        title(canvas, says(self.names[self.player], "claims"))
        line(canvas, 0, _columns_text(self.columns) + "!")
        line(canvas, 1, "Won: " + " ".join(map(str, self.state.claimed_by(self.player))))
        next_player(canvas, self.names, self.state.current, self.status)


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

    def paint(self, canvas: Canvas) -> None:
        title(canvas, whose(self.names, self.bot), " ".join(map(str, self.dice)))
        if self.took:
            line(canvas, 0, f"took {self.took}")
        if not self.stopped:
            line(canvas, 1, "rolls again:")
            line(canvas, 2, "throw its dice.")
            footer(canvas, self.status or "NEXT:board", "" if self.status else "ROLL")
            return
        line(canvas, 1, "stops" + (f", claims {' '.join(map(str, self.columns))}!" if self.columns else "."))
        next_player(canvas, self.names, self.state.current, self.status)


@dataclass(frozen=True)
class WinnerScreen:
    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        assert state.winner is not None
        winner_title(canvas, self.names[state.winner])
        line(canvas, 1, "Columns " + " ".join(map(str, state.claimed_by(state.winner))))
        line(canvas, 2, f"in round {round_of(state)}")
        footer(canvas, "NEXT:board", "SELECT:new")


BOARD_LEFT_PX = 4
SLOT_PX = 11  # a column's width: 11 columns across the panel
SPACE_PX = 4  # a space's height: 13 spaces up the tallest column
BOARD_BASE_PX = 54  # the lowest pixel row of the first space
LABEL_TOP_PX = 58
LEGEND_ROW_PX = GLYPH_HEIGHT + 1


def lanes(players: int) -> tuple[tuple[int, int], ...]:
    """Each player's lane in a column: (offset from the column's left, width); the middle pixel
    is left for the track of dots that shows the column's height."""
    if players <= 2:
        return ((1, 3), (7, 3))[:players]
    return ((1, 2), (3, 2), (6, 2), (8, 2))[:players]


def _space_top(space: int) -> int:
    return BOARD_BASE_PX - SPACE_PX * space + 1


def _board_column(canvas: Canvas, state: State, index: int, column: int) -> None:
    """One column: a dot per space, each player's saved spaces filled in their lane, the
    runner boxed, the number underneath (in inverse video once the column is won)."""
    x = BOARD_LEFT_PX + index * SLOT_PX
    for space in range(1, HEIGHTS[column] + 1):
        canvas.point((x + SLOT_PX // 2, _space_top(space) + 1), fill=1)
    for player, (offset, width) in enumerate(lanes(state.players)):
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


def legend_entry(canvas: Canvas, players: int, current: int, name: str, player: int, xy: tuple[int, int], right: bool) -> None:
    """A player's lane drawn as in a column at ``xy``, the name beside it; ``>`` marks whose turn it is."""
    slot_x, top = xy
    offset, width = lanes(players)[player]
    canvas.rectangle((slot_x + offset, top, slot_x + offset + width - 1, top + GLYPH_HEIGHT - 1), fill=1)
    words = (">" if player == current else "") + name
    text_x = slot_x - 2 - tiny_width(words) if right else slot_x + SLOT_PX + 2
    tiny_text(canvas, (text_x, top), words)


@dataclass(frozen=True)
class BoardScreen:
    """The engine's whole board in one picture, to check against the physical one."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        for index, column in enumerate(COLUMNS):
            _board_column(canvas, state, index, column)
        right_slot = BOARD_LEFT_PX + (len(COLUMNS) - 1) * SLOT_PX
        for player, name in enumerate(self.names[:3]):  # the top left corner, above the short columns
            legend_entry(canvas, state.players, state.current, name, player, (BOARD_LEFT_PX, player * LEGEND_ROW_PX), False)
        for player, name in enumerate(self.names[3:], start=3):  # the top right corner
            legend_entry(canvas, state.players, state.current, name, player, (right_slot, LEGEND_ROW_PX), True)
        round_text = f"round {round_of(state)}"
        tiny_text(canvas, (WIDTH - tiny_width(round_text), 0), round_text)
