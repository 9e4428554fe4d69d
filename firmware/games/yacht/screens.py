"""The game's screens on the OLED: the dice to roll, the dice rolled with every open box's points
now (and with hints the advisor's pick and its expected final score), the list of choices, a box
scored, a bot's turn, the winner, and every player's scorecard in one picture."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.yacht import BOXES, EXTRA_YACHT_BONUS, MAX_ROLLS, UPPER, UPPER_BONUS, UPPER_BONUS_FROM, Box, Phase, Score, State
from engine.yacht import allowed_boxes, points_for, round_number, total, upper_total, winners
from engine.keeps import DICE
from engine.yacht.boxes import earns_extra_yacht
from engine.yacht.moves import Move
from firmware.drawing.screens import (
    BODY_TOP_PX,
    CHAR_PX,
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
    player_mark,
    says,
    text,
    title,
    whose,
    winner_title,
)
from firmware.drawing.tiny_font import GLYPH_HEIGHT, tiny_text, tiny_width
from firmware.games.five_dice import dice_text, paint_throw_due

NAMES = {  # a box as the list and the page name it
    Box.ONES: "Ones", Box.TWOS: "Twos", Box.THREES: "Threes", Box.FOURS: "Fours", Box.FIVES: "Fives",
    Box.SIXES: "Sixes", Box.THREE_OF_A_KIND: "Three of a kind", Box.FOUR_OF_A_KIND: "Four of a kind",
    Box.FULL_HOUSE: "Full house", Box.SMALL_STRAIGHT: "Small straight", Box.LARGE_STRAIGHT: "Large straight",
    Box.YACHT: "Yacht", Box.CHANCE: "Chance",
}
EXTRA_SHORT = "YB"  # the extra-Yacht bonuses' row of the card ("Yacht bonuses" on the page)
SHORT = {  # a box in two letters, for the small font's grids
    Box.ONES: "1S", Box.TWOS: "2S", Box.THREES: "3S", Box.FOURS: "4S", Box.FIVES: "5S", Box.SIXES: "6S",
    Box.THREE_OF_A_KIND: "3K", Box.FOUR_OF_A_KIND: "4K", Box.FULL_HOUSE: "FH", Box.SMALL_STRAIGHT: "SS",
    Box.LARGE_STRAIGHT: "LS", Box.YACHT: "YA", Box.CHANCE: "CH",
}
LIST_NAMES = {**NAMES, Box.THREE_OF_A_KIND: "3 of a kind", Box.FOUR_OF_A_KIND: "4 of a kind",
              Box.SMALL_STRAIGHT: "Sm straight", Box.LARGE_STRAIGHT: "Lg straight"}  # 11 letters at most
TINY_ROW_PX = GLYPH_HEIGHT + 1
TIP_LEFT_PX = 60  # the advisor's tip, beside the dice
GRID_TOP_PX = 26  # the open boxes, four to a row, under the dice
GRID_COLUMN_PX = 32
LIST_ROWS = 3  # choices shown at once above the footer
VALUE_TEXT = "888.8"  # an expected final score's room at the end of a choice's row
CARD = "card"  # what NEXT shows, as every screen calls it


def move_label(state: State, move: Move) -> str:
    """A decision as the list shows it: "Full house 25", "keep 3 3 5", "roll all 5"; a box that
    earns an extra-Yacht bonus says so: "Sixes 30+100"."""
    if isinstance(move, Score):
        return f"{LIST_NAMES[move.box]} {points_for(state.card, move.box, state.dice)}{_joker(state, '+')}"
    return f"keep {dice_text(move.dice)}" if move.dice else f"roll all {DICE}"


def tip_label(state: State, move: Move) -> str:
    """The advisor's pick in a few small letters: "KEEP 3 3 5", "FH 25", "6S 30 YB 100" (the small
    font has no plus: YB is the card's row of extra-Yacht bonuses)."""
    if isinstance(move, Score):
        return f"{SHORT[move.box]} {points_for(state.card, move.box, state.dice)}{_joker(state, f' {EXTRA_SHORT} ')}"
    return move_label(state, move)


def _joker(state: State, joined: str) -> str:
    """"+100" (``joined`` before the 100) when the dice are a Yacht beside a Yacht box holding 50:
    any box scored earns it."""
    return f"{joined}{EXTRA_YACHT_BONUS}" if earns_extra_yacht(state.card, state.dice) else ""


def rolls_of(state: State) -> str:
    return f"roll {state.rolls}/{MAX_ROLLS}"


@dataclass(frozen=True)
class RollScreen:
    """Dice are to be rolled: all five at a turn's start, or the ones not kept."""

    state: State
    names: tuple[str, ...]
    status: str = ""
    proxy: bool = False

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        paint_throw_due(canvas, whose(self.names, state.current, self.proxy), round_number(state), state.kept, "Roll",
                        "card", f"roll {state.rolls + 1}/{MAX_ROLLS}", self.status)


@dataclass(frozen=True)
class DiceScreen:
    """The five dice after a roll and what each box the dice may go in would score now; with
    hints, the advisor's pick and its expected final score. ROLL rolls again (the dice left lying
    are kept), SELECT lists the choices."""

    state: State
    names: tuple[str, ...]
    tip: str = ""  # with hints: "KEEP 3 3 5", "FH 25"
    expected: float | None = None  # with hints: the expected final score of the tip
    advised: Box | None = None  # with hints: the box the advisor would score now, marked in the grid
    status: str = ""
    proxy: bool = False

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        title(canvas, whose(self.names, state.current, self.proxy), rolls_of(state))
        text(canvas, (1, BODY_TOP_PX), dice_text(state.dice))
        if self.tip:
            tiny_text(canvas, (TIP_LEFT_PX, BODY_TOP_PX), f"TIP {self.tip}")
        if self.expected is not None:
            tiny_text(canvas, (TIP_LEFT_PX, BODY_TOP_PX + TINY_ROW_PX), f"EXPECT {self.expected:.1f}")
        for place, box in enumerate(allowed_boxes(state.card, state.dice)):  # card order: a box keeps its place
            x, y = 1 + place % 4 * GRID_COLUMN_PX, GRID_TOP_PX + place // 4 * TINY_ROW_PX
            mark = ">" if box is self.advised else ""
            tiny_text(canvas, (x, y), f"{mark}{SHORT[box]} {points_for(state.card, box, state.dice)}")
        again = state.rolls < MAX_ROLLS
        footer(canvas, self.status or ("ROLL:again" if again else "last roll"), "" if self.status else "SELECT:use")


@dataclass(frozen=True)
class ChoicesScreen:
    """The decisions (boxes with their points, keeps): NEXT moves the cursor, SELECT takes it, STOP
    goes back to the dice; with hints, the advisor's pick starred and each choice's expected final score."""

    state: State
    names: tuple[str, ...]
    moves: tuple[Move, ...]
    cursor: int = 0
    advice: int | None = None  # with hints: the advisor's pick
    expected: tuple[float, ...] = ()  # with hints: each choice's expected final score
    status: str = ""
    proxy: bool = False

    def paint(self, canvas: Canvas) -> None:
        state, count = self.state, len(self.moves)
        first = max(0, min(self.cursor - LIST_ROWS + 1, count - LIST_ROWS))
        marks = more_marks(first, count, LIST_ROWS).strip()
        title(canvas, whose(self.names, state.current, self.proxy), f"{self.cursor + 1}/{count} {marks}".rstrip())
        shown = self.moves[first:first + LIST_ROWS]
        advice = None if self.advice is None else self.advice - first
        star = WIDTH - 1 - CHAR_PX * (len(VALUE_TEXT) + 1)  # left of the expected scores
        choice_list(canvas, [move_label(state, move) for move in shown], self.cursor - first, WIDTH - 1, advice, star)
        for row, value in enumerate(self.expected[first:first + LIST_ROWS]):
            chosen = first + row == self.cursor
            text(canvas, (WIDTH - 1, BODY_TOP_PX + row * ROW_PX), f"{value:.1f}", fill=0 if chosen else 1, right=True)
        footer(canvas, self.status or "SELECT:ok", "" if self.status else "STOP:back")


@dataclass(frozen=True)
class ScoredScreen:
    """A box scored: its points and the player's total (a bonus earned said), until the next roll."""

    state: State  # after the score
    names: tuple[str, ...]
    player: int
    box: Box
    points: int
    extra: bool = False  # the score earned an extra-Yacht bonus
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        title(canvas, says(self.names[self.player], "scores"))
        line(canvas, 0, f"{self.points} in {LIST_NAMES[self.box]}")
        line(canvas, 1, f"Total {total(self.state, self.player)}{_bonus_note(self.state, self.player, self.box, self.extra)}")
        next_player(canvas, self.names, self.state.current, self.status, CARD)


def _bonus_note(state: State, player: int, box: Box, extra: bool) -> str:
    """The bonuses the score earned: ", +35!", ", +100!", or both (", +35 +100!": a Yacht joker
    in an upper box can complete the upper bonus too)."""
    card = state.cards[player]
    upper = upper_total(card)
    completed = box in UPPER and upper >= UPPER_BONUS_FROM > upper - (card[box.index] or 0)
    bonuses = [f"+{UPPER_BONUS}"] * completed + [f"+{EXTRA_YACHT_BONUS}"] * extra
    return f", {' '.join(bonuses)}!" if bonuses else ""


def latest(did: Sequence[str]) -> str:
    """The last decisions that fit a line whole, in order: "keep 1 1 1, 3K 14"."""
    shown = ""
    for words in reversed(did):
        longer = f"{words}, {shown}" if shown else words
        if len(longer) > (WIDTH - 1) // CHAR_PX:
            break
        shown = longer
    return shown


@dataclass(frozen=True)
class BotTurnScreen:
    """What a bot seat decided, shown until its next roll is read: the roll (in the title), the
    dice it decided on, its decisions, and what the people do next."""

    state: State  # after its decisions
    names: tuple[str, ...]
    bot: int
    dice: tuple[int, ...] = ()  # the dice it decided on
    did: tuple[str, ...] = ()  # its decisions in order: "keep 3 3", "FH 25"
    rolls: int = 0  # the roll those dice came from (of MAX_ROLLS)
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        title(canvas, whose(self.names, self.bot), f"roll {self.rolls}/{MAX_ROLLS}" if self.rolls else "")
        line(canvas, 0, dice_text(self.dice))
        line(canvas, 1, latest(self.did))
        if self.state.current == self.bot and self.state.phase is Phase.ROLL and self.state.kept:
            line(canvas, 2, f"roll the other {DICE - len(self.state.kept)}.")
            footer(canvas, self.status or f"NEXT:{CARD}", "" if self.status else "ROLL")
        elif self.state.current == self.bot and self.state.phase is Phase.ROLL:
            line(canvas, 2, "roll its dice.")
            footer(canvas, self.status or f"NEXT:{CARD}", "" if self.status else "ROLL")
        else:
            next_player(canvas, self.names, self.state.current, self.status, CARD)


@dataclass(frozen=True)
class WinnerScreen:
    """The highest total wins; equal totals share the win; alone, the score is what is said.
    ``last``: the game's last scoring ("B FH 25"), shown when the game ends at the table."""

    state: State
    names: tuple[str, ...]
    last: str = ""

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        best = winners(state)
        points = total(state, best[0])
        if len(state.cards) == 1:  # solitaire: nobody to beat, a score to beat next time
            big(canvas, (0, 0), str(points))
            text(canvas, (len(str(points)) * CHAR_PX * 2 + 1, ROW_PX), "points")  # beside: "1275 points" is too wide big
            line(canvas, 1, f"{self.names[0]}: card full")
        elif len(best) == 1:
            winner_title(canvas, self.names[best[0]])
            line(canvas, 1, f"with {points} points")
        else:
            big(canvas, (0, 0), "Shared")
            text(canvas, (len("Shared") * CHAR_PX * 2 + 1, ROW_PX), "win!")
            line(canvas, 1, "&".join(player_mark(p) for p in best) + f": {points} each")
        line(canvas, 2, f"last: {self.last}" if self.last else f"after {len(BOXES)} rounds")
        footer(canvas, "NEXT:card", "SELECT:new")


LABEL_PX = 9  # a row's two letters in the scorecard picture, and a space
HALF_PX = WIDTH // 2
GAP_PX = tiny_width(" ")  # the least room between neighbouring cells: the small font's space
ROOMY_PLAYERS = 2  # up to two players, the bonuses have rows of their own
ROOMY_COLUMN_PX = tiny_width("8888") + GAP_PX + 1
COMPACT_COLUMN_PX = tiny_width("888") + GAP_PX  # the upper sum's three digits at most (105)


def _cell(points: int | None) -> str:
    return "-" if points is None else str(points)


def _rows(state: State, player: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The left block's rows (upper boxes, their sum, the bonus) and the right block's (lower boxes,
    the extra-Yacht bonuses); with more than two players the bonus rows are left out (a row more
    needs 6 pixels the screen lacks): the total by the name holds them."""
    card = state.cards[player]
    upper_full = all(card[box.index] is not None for box in UPPER)
    earned = upper_total(card) >= UPPER_BONUS_FROM
    bonus = str(UPPER_BONUS) if earned else "0" if upper_full else "-"
    roomy = state.players <= ROOMY_PLAYERS
    left = [(SHORT[box], _cell(card[box.index])) for box in UPPER] + [("UP", str(upper_total(card)))]
    right = [(SHORT[box], _cell(card[box.index])) for box in BOXES[len(UPPER):]]
    if roomy:
        left.append(("BN", bonus))
        right.append((EXTRA_SHORT, str(EXTRA_YACHT_BONUS * state.extra_yachts[player])))
    return left, right


def _columns(players: int) -> tuple[tuple[int, list[int]], tuple[int, list[int]]]:
    """Each block's label x and its columns' right edges (the cells are right-aligned on them)."""
    if players <= ROOMY_PLAYERS:
        return tuple((x0, [x0 + LABEL_PX - 2 + (p + 1) * ROOMY_COLUMN_PX for p in range(players)])  # type: ignore[return-value]
                     for x0 in (0, HALF_PX))
    left = [LABEL_PX - 3 + (p + 1) * COMPACT_COLUMN_PX for p in range(players)]
    right_x = left[-1] + GAP_PX + 1 if players == 4 else HALF_PX
    pitch = (WIDTH - 4 - right_x - LABEL_PX) // players
    return (0, left), (right_x, [right_x + LABEL_PX - 2 + (p + 1) * pitch for p in range(players)])


@dataclass(frozen=True)
class CardScreen:
    """Every player's scorecard in one picture, in the small font: the upper boxes with their sum
    (and, for one or two players, the bonus) on the left, the lower boxes (and, for one or two
    players, the extra-Yacht bonuses) on the right, a column per player (its letter on top); the
    names with their letters underneath, the player to move marked, each one's total beside the
    name (every bonus in it)."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        bottom = 0
        for half, (x0, rights) in enumerate(_columns(state.players)):
            for player, right in enumerate(rights):
                tiny_text(canvas, (right - tiny_width(player_mark(player)) + 1, 0), player_mark(player))
                for row, (label, value) in enumerate(_rows(state, player)[half]):
                    y = (row + 1) * TINY_ROW_PX
                    bottom = max(bottom, y + GLYPH_HEIGHT)
                    if player == 0:
                        tiny_text(canvas, (x0, y), label)
                    tiny_text(canvas, (right - tiny_width(value) + 1, y), value)
        over = state.phase is Phase.OVER
        names_top = max(bottom + 2, HEIGHT - 2 * TINY_ROW_PX)  # two rows of names, clear of the grid
        for player, name in enumerate(self.names[: state.players]):
            pointer = ">" if not over and player == state.current else ""
            x = 0 if player % 2 == 0 else HALF_PX
            y = names_top + player // 2 * TINY_ROW_PX
            tiny_text(canvas, (x, y), f"{pointer}{player_mark(player)} {name}")
            points = str(total(state, player))
            tiny_text(canvas, (x + HALF_PX - GAP_PX - 1 - tiny_width(points), y), points)
