"""Tumblin' Dice on the OLED: whose flick it is with every player's dice left and totals, the board
as read while the players check it, the wait for the camera, the rounds' scores and the result.

Player rows use the 6-px font for names and totals (read across the table) and the 3x5 font for
what the players close by need: colours, single rounds' scores, points on the board. With teams,
teammates' rows are joined by a bracket with the team's total beside it (each player's own total
goes small); teams flick alternately, so the team that flicks first is on top, and within a team
the round's order is kept.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from engine.tumblin import (
    DICE,
    ROUNDS,
    Scoring,
    State,
    colour,
    dice_left,
    die_scores,
    round_number,
    side_scores,
    team_totals,
    totals,
    winners,
)
from firmware.drawing.screens import (
    CHAR_PX,
    ROW_PX,
    WIDTH,
    Canvas,
    big,
    footer,
    line,
    more_marks,
    text,
    title,
    window,
    winner_title,
)
from firmware.drawing.tiny_font import ADVANCE_PX, GLYPH_HEIGHT, tiny_text, tiny_width
from firmware.games.tumblin.draft import CARD, COLOUR, FACE, LEVEL, NO_DIE, DraftDie, fields, named, on_zero
from firmware.games.tumblin.flicks import STAYED

TITLE_CHARS = (WIDTH - 2) // CHAR_PX
LINE_CHARS = WIDTH // CHAR_PX
INK_TOP_PX = 2  # the 6-px font leaves two blank rows above its tallest glyphs
ROW_TOP_PX = 14  # the first body row's ink, a row clear of the title bar
PLUS = ((1, 1), (0, 2), (1, 2), (2, 2), (1, 3))  # "+" in the 3x5 font's grid, which has none

# Player rows (flicks, rounds)
PLAYER_ROW_PX = 10  # a name with room for its descenders
COLOUR_X_PX = 52  # after a name of eight letters
COLOUR_CHARS = 5  # "green", "black": longer colours are cut short in the 3x5 font
BOXES_X_PX = 75
BOX_W_PX, BOX_H_PX = 4, 5
TOTAL_RIGHT_PX = 114  # a total's right edge with the standing beside it
BRACKET_X_PX = 109  # teams: the bracket joining teammates, the team's total right of it
SEAT_TOTAL_RIGHT_PX = 106  # teams: a player's own total, in the 3x5 font, left of the bracket
SITS_OUT = "sits out"  # an overtime round, in place of the colour and the dice

# The board read (tally, standing)
TALLY_ROW_PX = 9  # dice and points have no descenders
CELLS_X_PX = 22  # a row's first die, after its colour
CELL_PX = 21
CELLS_A_ROW = 4  # a player's four dice on one row
BOARD_ROWS = 4  # rows under the title with a one-line footer (one fewer with two lines)
NOTE_TOP_PX = 42  # the first of two bottom lines (a doubt, a warning)
EDIT_TOP_PX = 14  # the edited die's fields: labels in the 3x5 font, values under them
FIELD_GAP_PX = 9
ABOUT_TOP_PX = 31  # under the fields: the die's doubt, or what it counts for
FIELD_LABELS = {FACE: "face", COLOUR: "colour", LEVEL: "level", CARD: "card"}

# Rounds and result
COLUMN_GAP_PX = 4
SUM_LABEL = "sum"
RESULT_TOP_PX = 24  # the first row under the winner's name at twice the size
RESULT_ROW_PX = 9
TEAM_WIN = "win!"  # beside a team's names at twice the size: "Ann+Cid win!" (they win; a "Team wins!")
HALF_PX = WIDTH // 2

BoardRow = tuple[str, tuple[int, ...], "int | None"]  # colour label, its dice (indices), points
Column = tuple[str, tuple["int | None", ...]]  # header, a score per seat (None: sat the round out)


# --- shared ---------------------------------------------------------------------------------


def round_tag(state: State, last_round: bool = False) -> str:
    """The round in a few letters: "R2", "last" (the last regular round), "OT" (overtime)."""
    return "OT" if state.overtime else "last" if last_round else f"R{round_number(state)}"


def _text_top(ink_top: int) -> int:
    """Where to draw 6-px text whose tallest glyphs start at ``ink_top``."""
    return ink_top - INK_TOP_PX


def _tiny_right(canvas: Canvas, right: int, top: int, words: str) -> None:
    """3x5 text whose last pixel column is ``right``."""
    tiny_text(canvas, (right - tiny_width(words) + 1, top), words)


def _signed(canvas: Canvas, right: int, top: int, points: int) -> None:
    """"+14" in the 3x5 font ending at ``right``: points on the board, not yet scored."""
    left = right - tiny_width(str(points)) - ADVANCE_PX + 1
    canvas.point([(left + x, top + y) for x, y in PLUS], fill=1)
    _tiny_right(canvas, right, top, str(points))


def _marked(canvas: Canvas, x: int, top: int, words: str, box: tuple[int, int] | None) -> None:
    """6-px text whose tallest glyphs start at ``top``; with ``box`` (its top and bottom rows), in
    inverse video: what the cursor is on, whose flick it is."""
    if box is not None:
        canvas.rectangle((x - 1, box[0], x + CHAR_PX * len(words) - 1, box[1]), fill=1)
    text(canvas, (x, _text_top(top)), words, fill=0 if box is not None else 1)


def _wrapped(words: str) -> tuple[str, ...]:
    """``words`` on one or two lines of the panel's width."""
    return tuple(textwrap.wrap(words, LINE_CHARS, max_lines=2, placeholder="..."))


def sides_in_order(state: State) -> tuple[tuple[int, ...], ...]:
    """The sides (teams, or single seats) in the round's order, each team's seats in that order too;
    seats sitting an overtime round out last, in seat order."""
    order = state.order
    rank = {seat: order.index(seat) if seat in order else len(order) + seat for seat in range(state.players)}
    ordered = (tuple(sorted(side, key=rank.__getitem__)) for side in state.variant.sides())
    return tuple(sorted(ordered, key=lambda side: rank[side[0]]))


def _team_column(canvas: Canvas, top: int, rows: int, total: int, standing: int | None) -> None:
    """A bracket beside ``rows`` player rows from ink row ``top``, the team's total right of it and
    under the total, the team's points on the board when the standing was read."""
    bottom = top + rows * PLAYER_ROW_PX - 3
    canvas.line((BRACKET_X_PX + 1, top, BRACKET_X_PX, top, BRACKET_X_PX, bottom, BRACKET_X_PX + 1, bottom), fill=1)
    total_top = (top + bottom) // 2 - (3 if standing is None else 6)
    text(canvas, (WIDTH, _text_top(total_top)), str(total), right=True)
    if standing is not None:
        _signed(canvas, WIDTH - 1, total_top + 9, standing)


def _player_rows(canvas: Canvas, state: State, standing: tuple[int, ...] | None = None) -> Iterator[tuple[int, int]]:
    """Each seat with the ink top of its row, the sides in order; with teams, each team's bracket,
    total and standing drawn beside its rows."""
    top, scores = ROW_TOP_PX, totals(state)
    for side in sides_in_order(state):
        if state.variant.teams is not None:
            on_board = None if standing is None else sum(standing[seat] for seat in side)
            _team_column(canvas, top, len(side), sum(scores[seat] for seat in side), on_board)
        for seat in side:
            yield seat, top
            top += PLAYER_ROW_PX


def _name(canvas: Canvas, top: int, name: str, marked: bool = False) -> None:
    _marked(canvas, 1, top, name, (top - 1, top + PLAYER_ROW_PX - 2) if marked else None)


def _fitted(choices: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The first title (words, right) of ``choices`` that fits the title bar, else the last."""
    return next((c for c in choices if len(c[0]) + len(c[1]) + 1 <= TITLE_CHARS), choices[-1])


# --- during a round -------------------------------------------------------------------------


def _boxes(canvas: Canvas, top: int, left: int) -> None:
    """Four boxes: filled for each die still to flick, hollow for those flicked."""
    for die in range(DICE):
        x = BOXES_X_PX + die * (BOX_W_PX + 1)
        canvas.rectangle((x, top, x + BOX_W_PX - 1, top + BOX_H_PX - 1), fill=1 if die < left else 0, outline=1)


def flick_title(state: State, names: Sequence[str], last_round: bool = False) -> tuple[str, str]:
    """"Ann: flick red" and "R2 3/4" (the round, die 3 of 4), shortened until it fits: the colour's
    dice left show in the player's row."""
    me = state.current
    name, dice = names[me], colour(state, me)
    tag = round_tag(state, last_round)
    die = f"{tag} {min(state.flicked[me] + 1, DICE)}/{DICE}"
    return _fitted(((f"{name}: flick {dice}", die), (f"{name}: {dice}", die), (f"{name}: {dice}", tag), (name, tag)))


@dataclass(frozen=True)
class FlickScreen:
    """During a round: whose flick it is and which of their dice, each player's colour, dice left
    and total (with the standing read: their points on the board; with teams the team's), and what
    ROLL and STOP say, or the entry NEXT came to."""

    state: State
    names: tuple[str, ...]
    entries: tuple[str, ...]
    cursor: int
    standing: tuple[int, ...] | None
    status: str = ""
    last_round: bool = False

    def paint(self, canvas: Canvas) -> None:
        state, me = self.state, self.state.current
        title(canvas, *flick_title(state, self.names, self.last_round))
        left, scores = dice_left(state), totals(state)
        for seat, top in _player_rows(canvas, state, self.standing):
            _name(canvas, top, self.names[seat], seat == me)
            if seat in state.order:
                tiny_text(canvas, (COLOUR_X_PX, top + 1), colour(state, seat)[:COLOUR_CHARS])
                _boxes(canvas, top + 1, left[seat])
            else:
                tiny_text(canvas, (COLOUR_X_PX, top + 1), SITS_OUT)
            if state.variant.teams is not None:
                _tiny_right(canvas, SEAT_TOTAL_RIGHT_PX, top + 1, str(scores[seat]))
            else:
                self._total(canvas, top, seat, scores[seat])
        stop = "STOP:0x" if state.variant.zero == "removed" else "STOP:stay"  # did not get past the 0x level
        entry = self.entries[self.cursor]
        said = {STAYED: "not past 0x" if state.variant.zero == "removed" else "stayed on pad"}.get(entry, entry)
        hint, right = ("ROLL:landed", stop) if self.cursor == 0 else (f"SELECT:{said}", "")
        left_words = self.status or hint
        footer(canvas, left_words, right if len(left_words) + len(right) < LINE_CHARS else "", rule=False)

    def _total(self, canvas: Canvas, top: int, seat: int, total: int) -> None:
        """A player's total, and beside it their points on the board as last read."""
        right = WIDTH
        if self.standing is not None:
            _signed(canvas, WIDTH - 1, top + 1, self.standing[seat])
            right = TOTAL_RIGHT_PX
        text(canvas, (right, _text_top(top)), str(total), right=True)


# --- the board read -------------------------------------------------------------------------


def _part(value: int | None) -> str:
    return "?" if value is None else str(value)


def cell_text(die: DraftDie, scoring: Scoring) -> str:
    """A die on its row: face x level ("4x3"), face + level when adding ("4+3"), "?" for an unknown part."""
    if die.face == NO_DIE:
        return "off"
    return f"{_part(die.face)}{'+' if scoring is Scoring.ADD else 'x'}{_part(die.level)}"


def die_points(state: State, dice: Sequence[DraftDie]) -> dict[int, int]:
    """The points of each die known whole, by its index (a multiplier card counts the known dice on it)."""
    known = [(index, die) for index, d in enumerate(dice) if (die := d.die()) is not None]
    return dict(zip((index for index, _ in known), die_scores(state.variant, (die for _, die in known))))


def board_rows(state: State, dice: Sequence[DraftDie]) -> list[BoardRow]:
    """A row per player's colour in seat order (four dice a row, more go on a second), then colours
    no player has and dice of unknown colour ("?"); points only for the players' colours."""
    colours = state.variant.colours or ()
    points = die_points(state, dice)
    others = sorted({d.colour for d in dice if d.colour is not None and d.colour not in colours})
    rows: list[BoardRow] = []
    for name in (*colours, *others, None):
        mine = tuple(index for index, d in enumerate(dice) if d.colour == name)
        if not mine and name not in colours:
            continue
        score = sum(points.get(index, 0) for index in mine) if name in colours else None
        for start in range(0, max(1, len(mine)), CELLS_A_ROW):
            label = ("?" if name is None else name[:COLOUR_CHARS]) if start == 0 else ""
            rows.append((label, mine[start:start + CELLS_A_ROW], score if start == 0 else None))
    return rows


def die_sentence(state: State, dice: Sequence[DraftDie], index: int) -> str:
    """What a die counts for: "red 4 on 3x = 12", "blue 2 on 1x*1 = 4" (on multiplier card 1)."""
    die = dice[index]
    if die.face == NO_DIE:
        return f"{die.colour or '?'}: no die"
    card = f"*{die.card}" if die.card else ""
    words = f"{die.colour or '?'} {_part(die.face)} on {_part(die.level)}x{card}"
    points = die_points(state, dice).get(index)
    return words if points is None else f"{words} = {points}"


def _field_value(die: DraftDie, field: str) -> str:
    if field == FACE:
        return "no die" if die.face == NO_DIE else _part(die.face)
    if field == COLOUR:
        return die.colour or "?"
    if field == LEVEL:
        return "?" if die.level is None else f"{die.level}x"
    return str(die.card) if die.card else "none"


def _bottom(canvas: Canvas, lines: tuple[str, ...]) -> None:
    """One line in the footer, or two: the first above it."""
    if len(lines) > 1:
        canvas.line((0, NOTE_TOP_PX - 1, WIDTH - 1, NOTE_TOP_PX - 1), fill=1)
        text(canvas, (0, NOTE_TOP_PX), lines[0])
    footer(canvas, lines[-1], rule=len(lines) == 1)


@dataclass(frozen=True)
class TallyScreen:
    """The board as read, checked by the players: each player's dice and points, the die under the
    cursor in inverse video and what it counts for (or why the camera was unsure of it), then
    "add a die" and "count it"; while a die is edited, its fields with the one NEXT changes."""

    state: State
    names: tuple[str, ...]
    dice: tuple[DraftDie, ...]
    cursor: int
    editing: str | None
    unseen: tuple[tuple[str, int], ...]
    for_tally: bool
    status: str = ""

    def paint(self, canvas: Canvas) -> None:
        if self.editing is not None and self.cursor < len(self.dice):
            self._edit(canvas)
            return
        rows = board_rows(self.state, self.dice)
        bottom = self._bottom_lines()
        shown, count = BOARD_ROWS + 1 - len(bottom), len(rows) + 1  # the entries are the last row
        first = window(next((k for k, row in enumerate(rows) if self.cursor in row[1]), len(rows)), count, shown)
        unsure = sum(d.die() is None for d in self.dice)
        right = f"{unsure} unsure" if unsure else f"{len(self.dice)} {'die' if len(self.dice) == 1 else 'dice'}"
        words = f"Tally {round_tag(self.state)}" if self.for_tally else "Standing"
        title(canvas, words, f"{right} {more_marks(first, count, shown).strip()}".strip())
        for at in range(first, min(count, first + shown)):
            top = ROW_TOP_PX + (at - first) * TALLY_ROW_PX
            if at < len(rows):
                self._dice_row(canvas, top, rows[at])
            else:
                self._entries(canvas, top)
        _bottom(canvas, bottom)

    def _box(self, top: int, index: int) -> tuple[int, int] | None:
        return (top - 1, top + TALLY_ROW_PX - 2) if index == self.cursor else None

    def _dice_row(self, canvas: Canvas, top: int, row: BoardRow) -> None:
        label, indices, points = row
        tiny_text(canvas, (0, top + 1), label)
        for slot, index in enumerate(indices):
            die, x = self.dice[index], CELLS_X_PX + slot * CELL_PX
            words = cell_text(die, self.state.variant.scoring)
            _marked(canvas, x, top, words, self._box(top, index))
            if die.card:  # on a multiplier card: underlined, solid for card 1, dotted for card 2
                under = [(px, top + TALLY_ROW_PX - 2) for px in range(x, x + CHAR_PX * len(words) - 1, die.card)]
                canvas.point(under, fill=0 if index == self.cursor else 1)
        if points is not None:
            text(canvas, (WIDTH, _text_top(top)), str(points), right=True)

    def _entries(self, canvas: Canvas, top: int) -> None:
        """The entries after the dice on one row: "add a die" at the left, "count it" at the right."""
        _marked(canvas, 1, top, "add a die", self._box(top, len(self.dice)))
        if self.for_tally:
            _marked(canvas, WIDTH - 1 - CHAR_PX * len("count it"), top, "count it", self._box(top, len(self.dice) + 1))

    def _bottom_lines(self) -> tuple[str, ...]:
        """About the thing under the cursor: the die's points or doubt, or the entry (on "count it",
        the warning of dice not seen); a status instead when there is one, and before anything the
        dice on the 0x level, to be taken off."""
        if self.status:
            return _wrapped(self.status)
        zero = on_zero(self.state, self.dice)
        if zero and not self.for_tally:  # a standing: what happens to them, true on a simulated board too
            return _wrapped(f"{named(zero)} on 0x: set aside at the count")
        if zero and self.cursor < len(self.dice) and len(about := self._about(self.dice[self.cursor])) == 1:
            return (*about, f"{named(zero)} off 0x!")  # the die's own line still given
        if zero:
            return _wrapped(f"{named(zero)} on 0x: take {'it' if len(zero) == 1 else 'them'} off!")
        if self.cursor < len(self.dice):
            return self._about(self.dice[self.cursor])
        if self.cursor == len(self.dice):
            return ("SELECT:add a die",)
        if self.unseen:
            return _wrapped(", ".join(f"{count} {name}" for name, count in self.unseen) + " not seen!")
        return ("SELECT:count it",)

    def _about(self, die: DraftDie) -> tuple[str, ...]:
        return _wrapped(die.doubt) if die.doubt else (die_sentence(self.state, self.dice, self.cursor),)

    def _edit(self, canvas: Canvas) -> None:
        """The die's fields side by side, labels over values, the one NEXT changes in inverse video;
        under them the die's doubt, or what it counts for."""
        die = self.dice[self.cursor]
        title(canvas, f"Check die {self.cursor + 1} of {len(self.dice)}")
        x = 2
        for field in fields(self.state):
            label, value = FIELD_LABELS[field], _field_value(die, field)
            width = max(tiny_width(label), CHAR_PX * len(value) - 1)
            ink = 0 if field == self.editing else 1
            if not ink:
                canvas.rectangle((x - 2, EDIT_TOP_PX - 1, x + width + 1, EDIT_TOP_PX + 16), fill=1)
            tiny_text(canvas, (x, EDIT_TOP_PX), label, fill=ink)
            text(canvas, (x, _text_top(EDIT_TOP_PX + GLYPH_HEIGHT + 2)), value, fill=ink)
            x += width + FIELD_GAP_PX
        for row, words in enumerate(self._about(die)):
            text(canvas, (1, ABOUT_TOP_PX + row * TALLY_ROW_PX), words)
        footer(canvas, self.status or "NEXT:change", "" if self.status else "SELECT:ok")


@dataclass(frozen=True)
class WaitingScreen:
    """Every die of the round is flicked: the camera reads the board once it is at rest."""

    state: State
    names: tuple[str, ...]
    status: str = ""
    camera: bool = True  # without one the players enter the dice

    def paint(self, canvas: Canvas) -> None:
        title(canvas, "All dice flicked", round_tag(self.state))
        line(canvas, 0, "Reading the board..." if self.camera else "No camera to read it:")
        line(canvas, 2, "SELECT: dice by hand")  # the footer has no room for it beside ROLL and NEXT
        footer(canvas, self.status or ("ROLL:read" if self.camera else "ROLL:hand"), "" if self.status else "NEXT:rounds")


# --- rounds and result ----------------------------------------------------------------------


def regular_rounds(state: State) -> int:
    """How many of the scored rounds were regular play, the rest overtime: four, or with a target
    score the rounds up to the first in which some side's total reached it."""
    if state.variant.target is None:
        return min(ROUNDS, len(state.history))
    for played in range(1, len(state.history) + 1):
        seats = tuple(map(sum, zip(*(r.scores for r in state.history[:played]))))
        if max(side_scores(state.variant, seats)) >= state.variant.target:
            return played
    return len(state.history)


def round_columns(state: State) -> list[Column]:
    """A column per scored round, headed by its number ("OT" for overtime)."""
    regular = regular_rounds(state)
    return [
        (str(n) if n <= regular else "OT", tuple(r.scores[s] if s in r.order else None for s in range(state.players)))
        for n, r in enumerate(state.history, 1)
    ]


def _score_text(score: int | None) -> str:
    return "-" if score is None else str(score)


def _column_px(column: Column) -> int:
    label, scores = column
    return max(CHAR_PX * len(label) - 1, *(tiny_width(_score_text(score)) for score in scores))


def fitted_columns(columns: list[Column], room_px: int) -> list[Column]:
    """``columns`` in ``room_px``: the earliest rounds summed into one ("1-3") when all do not fit."""
    shown = columns
    for fold in range(2, len(columns) + 1):
        if sum(_column_px(c) + COLUMN_GAP_PX for c in shown) <= room_px:
            break
        summed = tuple(sum(score or 0 for score in seat) for seat in zip(*(c[1] for c in columns[:fold])))
        shown = [(f"1-{fold}", summed), *columns[fold:]]
    return shown


@dataclass(frozen=True)
class RoundsScreen:
    """Every scored round's points per player ("-" for an overtime round sat out) and the totals;
    the rounds' numbers head the columns in the title bar."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        teams = state.variant.teams is not None
        scores = totals(state)
        title(canvas, "Rounds")
        sum_right = SEAT_TOTAL_RIGHT_PX if teams else WIDTH - 1
        sum_left = sum_right + 1 - max(CHAR_PX * len(str(total)) for total in (*scores, SUM_LABEL))
        names_px = max(CHAR_PX * len(words) for words in (*self.names, "Rounds"))
        placed, right = [], sum_left - COLUMN_GAP_PX
        for column in reversed(fitted_columns(round_columns(state), right - names_px)):
            placed.append((right, column))
            right -= _column_px(column) + COLUMN_GAP_PX
        for x, label in [(sum_right, SUM_LABEL), *((x, column[0]) for x, column in placed)]:
            text(canvas, (x + INK_TOP_PX, 0), label, fill=0, right=True)
        for seat, top in _player_rows(canvas, state):
            _name(canvas, top, self.names[seat])
            for x, (_, cells) in placed:
                _tiny_right(canvas, x, top + 1, _score_text(cells[seat]))
            if teams:
                _tiny_right(canvas, sum_right, top + 1, str(scores[seat]))
            else:
                text(canvas, (sum_right + INK_TOP_PX, _text_top(top)), str(scores[seat]), right=True)
        footer(canvas, "NEXT:back", f"{len(state.history)} played", rule=False)


@dataclass(frozen=True)
class ResultScreen:
    """The winner (with teams: both of the team, or "Team" when their names are too long, the team
    then on the first row), every player's total (names small, so that four fit on two rows),
    highest first or by team, the team totals and how many rounds were played."""

    state: State
    names: tuple[str, ...]

    def paint(self, canvas: Canvas) -> None:
        state = self.state
        won, scores = winners(state), totals(state)
        self._winners(canvas, won)
        played = f"in {len(state.history)} rounds"
        if state.variant.teams is None:
            ranked = sorted(range(state.players), key=lambda seat: (-scores[seat], seat))
            rows = [tuple(ranked[k:k + 2]) for k in range(0, len(ranked), 2)]
        else:
            rows = sorted(state.variant.sides(), key=lambda side: side != won)
            played = f"{' v '.join(map(str, sorted(team_totals(state), reverse=True)))} {played}"
        for row, seats in enumerate(rows):
            top = RESULT_TOP_PX + row * RESULT_ROW_PX
            for half, seat in enumerate(seats):
                x = half * HALF_PX + 1
                tiny_text(canvas, (x, top + 1), self.names[seat])
                text(canvas, (x + tiny_width(self.names[seat]) + 3, _text_top(top)), str(scores[seat]))
        text(canvas, (1, _text_top(RESULT_TOP_PX + len(rows) * RESULT_ROW_PX)), played)
        footer(canvas, "NEXT:score", "SELECT:new")  # "NEXT:rounds" would touch "SELECT:new"

    def _winners(self, canvas: Canvas, won: tuple[int, ...]) -> None:
        """The winner's name, or the team's ("Ann+Cid") at twice the size with "win!" beside it in
        the plural; "Team wins!" when the names and the verb do not fit the row."""
        team = "+".join(self.names[seat] for seat in won)
        team_px = len(team) * CHAR_PX * 2
        if len(won) == 1 or team_px + 1 + CHAR_PX * len(TEAM_WIN) > WIDTH:
            winner_title(canvas, team if len(won) == 1 else "Team")
            return
        big(canvas, (0, 0), team)
        text(canvas, (team_px + 1, ROW_PX), TEAM_WIN)
