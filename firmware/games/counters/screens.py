"""The game's screens on the OLED: the dice on the table with the throw count and the best use
now, the list of choices (handicap, options and keeps, rocket squares), the end of a turn, a bot's
turn, the bots' handicap, the winner, and the seven columns of every player in one picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.counters import COLUMN_NAMES, Phase, State, counters_in_space
from engine.counters.rules import MAX_THROWS
from engine.counters.state import IN_SPACE_TO_WIN
from firmware.drawing.screens import (
    BODY_ROWS,
    BODY_TOP_PX,
    CHAR_PX,
    CHOICE_LINES,
    HEIGHT,
    ROW_PX,
    WIDTH,
    Canvas,
    big,
    choice_list,
    footer,
    line,
    more_marks,
    next_player,
    says,
    side_hints,
    text,
    title,
    whose,
    winner_title,
)
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width
from firmware.games.counters.labels import LABEL_CHARS, dice_text, move_label, plain_words
from firmware.games.five_dice import paint_throw_due

TIP_TOP_PX = 35  # the advisor's tip, in the small font under the dice
NOW_TOP_PX = 41
BODY_CHARS = (WIDTH - 1) // CHAR_PX  # a body row's text (it starts a pixel in)


def round_of(state: State) -> int:
    """The round being played (the handicap is round 1's prelude)."""
    return max(0, state.turn - 1) // state.players + 1


def _throws(state: State) -> str:
    return f"{state.throws} of {MAX_THROWS}"


@dataclass(frozen=True)
class ThrowScreen:
    """Dice are to be thrown: all five at a turn's start, or the ones not kept."""

    state: State
    names: tuple[str, ...]
    status: str = ""
    proxy: bool = False

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        paint_throw_due(canvas, whose(self.names, state.current, self.proxy), round_of(state), state.kept, "Throw",
                        "board", f"throw {state.throws + 1}/{MAX_THROWS}", self.status)


def tip_line(tip: str, chances: Sequence[tuple[str, float]]) -> str:
    """"tip keep 22 odds 3K 32% 4K 21%": the tip, then the odds of the options it leads to, as many
    as fit whole on the line ("odds" parts them from the kept dice; a take has none to give)."""
    odds = ""
    for name, share in chances:
        more = f"{odds} {name} {share:.0%}"
        if tiny_width(f"tip {tip} odds{more}") > WIDTH - 1:
            break
        odds = more
    return f"tip {tip}" + (f" odds{odds}" if odds else "")


@dataclass(frozen=True)
class DiceScreen:
    """The five dice after a throw: the best use now, and with hints the advisor's tip and the
    chances of the best options within reach (without, the line says the best use's wild card in
    words); ROLL throws again, SELECT lists the choices."""

    state: State
    names: tuple[str, ...]
    best_now: str  # the best-scoring option now, "" when the dice form none
    tip: str = ""  # with hints: "keep 4 4", "take FH 2+4"
    chances: tuple[tuple[str, float], ...] = ()  # with hints: the best options within reach
    status: str = ""
    proxy: bool = False
    wild: str = ""  # the best use's wild card in words: "wild 2>1: 2s to column 1"

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        title(canvas, whose(self.names, state.current, self.proxy), _throws(state))
        big(canvas, (4, BODY_TOP_PX - 1), dice_text(state.dice))
        text(canvas, (1, NOW_TOP_PX), f"now: {self.best_now}" if self.best_now else "no option yet")
        tiny_text(canvas, (1, TIP_TOP_PX), tip_line(self.tip, self.chances) if self.tip else self.wild)
        again = state.throws < MAX_THROWS
        footer(canvas, self.status or ("ROLL:again" if again else "last throw"), "" if self.status else "SELECT:use")


LABEL_LEFT_PX = 3  # where the drawing kit starts a label of the list
STAR_LEFT_PX = LABEL_LEFT_PX + LABEL_CHARS * CHAR_PX  # the advisor's star, in a place of its own after the label
LIST_PX = STAR_LEFT_PX + CHAR_PX - 1  # the highlighted row's bar ends here (inclusive)
PLAIN_TOP_PX = BODY_TOP_PX + CHOICE_LINES * ROW_PX + 1  # the highlighted choice in words, under the list
HINT_CHARS = (WIDTH - LIST_PX - 2) // CHAR_PX  # a side hint, right-aligned, keeps blank pixels from the bar


def count_hint(cursor: int, count: int, first: int) -> str:
    """"3/20 ^v": the highlighted entry, the entries, and the marks of those out of view, in
    :data:`HINT_CHARS` (a list of a hundred or more, with wild cards, loses the gap)."""
    place, marks = f"{cursor + 1}/{count}", more_marks(first, count, CHOICE_LINES)
    return f"{place} {marks}" if len(place) + 1 + len(marks) <= HINT_CHARS else place + marks


@dataclass(frozen=True)
class MovesScreen:
    """A list of decisions (handicap counters, options and keeps, rocket squares): NEXT moves the
    cursor, SELECT takes it; STOP goes back to the dice where there are dice. Under the list, the
    highlighted one in plain words. A status takes the title's place: beside the list only the
    short hints have room."""

    state: State
    names: tuple[str, ...]
    moves: tuple[object, ...]
    cursor: int = 0
    advice: int | None = None  # with hints: the advisor's pick
    status: str = ""
    proxy: bool = False

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        what = {Phase.HANDICAP: "handicap", Phase.ROCKET: "rocket!"}.get(state.phase, "".join(map(str, state.dice)))
        title(canvas, self.status or whose(self.names, state.current, self.proxy), "" if self.status else what)
        labels = [move_label(move, state.phase) for move in self.moves]
        first = choice_list(canvas, labels, self.cursor, LIST_PX, self.advice, STAR_LEFT_PX)
        back = "STOP:back" if state.phase is Phase.CHOOSE else ("*:advice" if self.advice is not None else "")
        side_hints(canvas, (count_hint(self.cursor, len(self.moves), first), "NEXT:move", "SELECT:ok", back))
        tiny_text(canvas, (1, PLAIN_TOP_PX), plain_words(self.moves[self.cursor], state))


@dataclass(frozen=True)
class TurnOverScreen:
    """What the turn did (the option taken, the counters cooled down), until the next throw."""

    state: State  # after the turn
    names: tuple[str, ...]
    player: int
    took: str  # "FH 2+4", or "" for a pass
    cooled: tuple[int, ...] = ()  # columns where others were sent down
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        name = self.names[self.player]
        title(canvas, says(name, "takes") if self.took else says(name, "passes"))
        cooled = f", cool {' '.join(COLUMN_NAMES[c] for c in self.cooled)}!" if self.cooled else ""
        line(canvas, 0, (self.took or "no option") + cooled)
        line(canvas, 1, f"In space: {counters_in_space(self.state, self.player)}/{IN_SPACE_TO_WIN[self.state.players]}")
        next_player(canvas, self.names, self.state.current, self.status)


def whole_rows(entries: Sequence[str], rows: int) -> list[str]:
    """``entries`` joined by commas into at most ``rows`` body rows, none cut: an entry that does
    not fit a row starts the next; when they fill more, the earliest rows give way."""
    filled = [""]
    for entry in entries:
        joined = f"{filled[-1]}, {entry}" if filled[-1] else entry
        if len(joined) <= BODY_CHARS:
            filled[-1] = joined
        else:
            filled.append(entry)
    return filled[-rows:]


@dataclass(frozen=True)
class BotTurnScreen:
    """What a bot seat decided, shown until its next throw is read: its decisions whole (a full
    house and two rockets take two rows once its turn is over)."""

    state: State  # after its decisions
    names: tuple[str, ...]
    bot: int
    dice: tuple[int, ...] = ()
    did: tuple[str, ...] = ()  # its decisions in order: "keep 44", "FH 2+4", "rocket S"
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        title(canvas, whose(self.names, self.bot), "".join(map(str, self.dice)))  # "12245": room for a long name
        throws = self.state.current == self.bot
        for row, words in enumerate(whole_rows(self.did, 1 if throws else 2)):
            line(canvas, row, words)
        if throws and self.state.phase is Phase.THROW and self.state.kept:
            line(canvas, 1, f"throw the other {5 - len(self.state.kept)}.")
            footer(canvas, self.status or "NEXT:board", "" if self.status else "ROLL")
        elif throws:
            line(canvas, 1, "throw its dice.")
            footer(canvas, self.status or "NEXT:board", "" if self.status else "ROLL")
        else:
            next_player(canvas, self.names, self.state.current, self.status)


@dataclass(frozen=True)
class BotHandicapScreen:
    """The handicap the bot seats moved one after another before anyone threw, one line a bot under
    its own name, until the first throw."""

    state: State  # after their handicap
    names: tuple[str, ...]
    moved: tuple[tuple[int, str], ...] = ()  # (bot, "cols 1 5") in the order they moved
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        title(canvas, "Handicap", "1 square up")
        for row, (bot, columns) in enumerate(self.moved):
            line(canvas, row, f"{self.names[bot]}: {columns}")
        if len(self.moved) < BODY_ROWS:
            next_player(canvas, self.names, self.state.current, self.status)
        else:  # three bots fill the rows: the footer names who throws
            footer(canvas, self.status or f"Next: {self.names[self.state.current]}", "" if self.status else "ROLL")


@dataclass(frozen=True)
class WinnerScreen:
    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        assert state.winner is not None
        winner_title(canvas, self.names[state.winner])
        line(canvas, 1, f"{counters_in_space(state, state.winner)} counters in space")
        line(canvas, 2, f"in round {round_of(state)}")
        footer(canvas, "NEXT:board", "SELECT:new")


BOARD_LEFT_PX = 1
SLOT_PX = 12  # a column's width: seven columns, then the legend
SQUARE_PX = 4
BOARD_BASE_PX = 54  # the lowest pixel row of the bottom square
LABEL_TOP_PX = 58
LEGEND_LEFT_PX = BOARD_LEFT_PX + 7 * SLOT_PX + 2


def _lanes(players: int) -> tuple[tuple[int, int], ...]:
    """Each player's lane in a column: (offset, width); the middle is the column's track."""
    if players <= 2:
        return ((1, 4), (7, 4))[:players]
    return ((1, 2), (3, 2), (7, 2), (9, 2))[:players]


def _square_top(square: int) -> int:
    return BOARD_BASE_PX - SQUARE_PX * square


def _column(canvas: Canvas, state: State, column: int) -> None:
    """A dot per square on the track (a cross on a star, a bar on a rocket), a dashed line under
    space, each player's counter as a block in their lane, the column's name underneath."""
    spec = state.board[column]
    x = BOARD_LEFT_PX + column * SLOT_PX
    middle = x + SLOT_PX // 2 - 1
    for square in range(spec.top + 1):
        y = _square_top(square) + 1
        if spec.is_star(square):
            canvas.point([(middle, y - 1), (middle - 1, y), (middle, y), (middle + 1, y), (middle, y + 1)], fill=1)
        elif square in spec.rockets:
            canvas.line((middle, y - 1, middle, y + 1), fill=1)
        else:
            canvas.point((middle, y), fill=1)
    space_y = _square_top(spec.space_from) + SQUARE_PX - 1
    for dash in range(x, x + SLOT_PX - 1, 2):
        canvas.point((dash, space_y), fill=1)
    for player, (offset, width) in enumerate(_lanes(state.players)):
        top = _square_top(state.square(player, column))
        canvas.rectangle((x + offset, top, x + offset + width - 1, top + SQUARE_PX - 2), fill=1)
    label = COLUMN_NAMES[column]
    tiny_text(canvas, (x + (SLOT_PX - tiny_width(label)) // 2, LABEL_TOP_PX), label)


@dataclass(frozen=True)
class BoardScreen:
    """Every player's seven columns in one picture, to check against the boards on the table; the
    legend gives each player's lane, name and counters in space."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        for column in range(len(state.board.columns)):
            _column(canvas, state, column)
        needed = IN_SPACE_TO_WIN[state.players]
        for player, name in enumerate(self.names):
            top = player * 2 * (GLYPH_HEIGHT + 1)
            offset, width = _lanes(state.players)[player]
            canvas.rectangle((LEGEND_LEFT_PX, top, LEGEND_LEFT_PX + width - 1, top + GLYPH_HEIGHT - 1), fill=1)
            tiny_text(canvas, (LEGEND_LEFT_PX + 6, top), (">" if player == state.current else "") + name)
            tiny_text(canvas, (LEGEND_LEFT_PX + 6, top + GLYPH_HEIGHT + 1), f"{counters_in_space(state, player)}/{needed} UP")
        round_text = f"R{round_of(state)}"
        tiny_text(canvas, (WIDTH - tiny_width(round_text), HEIGHT - GLYPH_HEIGHT), round_text)
