"""Tumblin' Dice at the table: the players tell each flick with the buttons, the camera reads the
board after the round's last flick, and the players check every die before the round counts.

During a round ROLL says the die landed and STOP that it did not get past the 0x level (a throw,
the die removed: "If a die does not drop off of the 0x level, it counts as a throw, but it is
removed and set off to the side"); NEXT walks the other things there are to say (the standing read from the board now,
a die landing on a breed card, a land mine going off, the scores of past rounds) and SELECT says
the one shown. After the last flick the camera reads the board once it is at rest (ROLL reads it
again; without a camera SELECT enters the dice by hand): every die's face, colour and level, each
unsure part shown as "?". NEXT and STOP walk the dice, SELECT opens one to correct it field by
field, the entry after the dice adds a die the camera missed, and the last one counts the round.
The companion warns once when dice that left the launch pad were not seen, and refuses to count
dice read on the 0x level until they are taken off (ROLL reads the board again) or the players say
they were (SELECT again).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeGuard

from engine.tumblin import (
    GAME,
    Breed,
    Flick,
    Mine,
    State,
    Tally,
    colour,
    landed,
    round_number,
    round_scores,
    tally_due,
    why_not,
)
from engine.tumblin.state import DICE
from firmware.calibration.board_file import load_levels
from firmware.core.table_game import (
    Action,
    AutoSeats,
    CameraUse,
    Cursor,
    Look,
    NewGame,
    Options,
    Play,
    Progress,
    Say,
    Scratch,
    ShowBoard,
    Sight,
    View,
)
from firmware.drawing.screens import Screen
from firmware.games.tumblin import setup
from firmware.games.tumblin.draft import (
    Draft,
    DraftDie,
    changed,
    draft_of,
    fields,
    in_screen_order,
    named,
    new_die,
    on_zero,
    unseen,
)
from firmware.games.tumblin.flicks import (
    LANDED,
    MINE,
    ROUNDS,
    STANDING,
    STAYED,
    UNSEEN_WARNING,
    ZERO_WARNING,
    entries,
    lying,
    toss,
)
from firmware.games.tumblin.screens import FlickScreen, ResultScreen, RoundsScreen, TallyScreen, WaitingScreen
from hardware.buttons import Press
from hardware.camera import Toss
from vision.board.board_levels import LevelMap, LevelMapError
from vision.board.board_reading import board_of

LOG = logging.getLogger("dice_companion")
NOT_CALIBRATED = "board not calibrated"


class TumblinTable:
    """Tumblin' Dice for 2 to 4 players, four dice each, the board read by the camera."""

    kind = GAME.name
    camera: CameraUse = "board"
    draws = False
    advised = False
    title = "Tumblin' Dice"
    engine = GAME
    players = range(2, 5)
    options = setup.OPTIONS

    def variant(self, options: Options) -> dict[str, Any]:
        return setup.variant_of(options)

    def summary(self, options: Options) -> str:
        return setup.summary(options)

    def progress(self, state: State) -> Progress:
        flicks = sum(isinstance(move, Flick) for move in state.log)
        return Progress(state.winner, max(1, flicks), state.previous is None)

    def round(self, state: State) -> int:
        return round_number(state)

    def undone_words(self, before: State, move: Breed | Flick | Mine | Tally) -> str:
        return "tally" if isinstance(move, Tally) else GAME.move_text(move)  # "flick stayed", "breed red"

    def doing(self, state: State, names: Sequence[str]) -> str:
        if state.over:
            return "over"
        if tally_due(state):
            return "board to count"
        return f"{names[state.current]}: flick {colour(state, state.current)} {state.flicked[state.current] + 1}/{DICE}"

    def tray_dice(self, state: State) -> int:
        return 0  # nothing is thrown into a tray: the board is read whole (board_due, looked)

    def throw_due(self, state: State) -> bool:
        return False

    def lying(self, state: State) -> tuple[Toss, ...]:
        return lying(state)

    def throw(self, state: State, view: View) -> Toss:
        if state.over or tally_due(state) or _standing_shown(_draft(state, view)):
            return Toss()  # ROLL on the standing only puts it away: a simulated board throws no die then
        return toss(state)

    def told(self, state: State, dice: tuple[int, ...]) -> tuple[Any, ...]:
        return ()  # never asked: tray_dice is 0

    def board_due(self, state: State) -> bool:
        return tally_due(state)

    def looked(self, state: State, sight: Sight, view: View) -> Action:
        levels, problem = _levels(sight.data_dir)
        palette = setup.palette_of(sight.options, state.variant.colours or ())
        try:
            reading = board_of(sight.frame, sight.reading, levels, palette, no_levels=problem)
        except LevelMapError as error:  # outlined on pictures of another shape
            LOG.error("%s", error)
            problem = "calibrate board again"
            reading = board_of(sight.frame, sight.reading, None, palette, no_levels=problem)
        before = view.scratch if isinstance(view.scratch, Draft) else None
        draft = draft_of(reading, tally_due(state), state.variant.colours or (), before)
        LOG.info("board read: %d dice on it, %d unsure, %d beside it", len(draft.dice), draft.unsure, len(draft.off_board))
        return Scratch(draft, 0, problem)

    def undone(self, state: State, move: Any) -> Draft | None:
        if not isinstance(move, Tally):
            return None
        dice = (DraftDie(d.colour, d.face, d.level, d.card, by_hand=True) for d in move.dice)
        return Draft(in_screen_order(state.variant.colours or (), dice))

    def screen(self, state: State, view: View) -> Screen:
        names = tuple(view.names)
        if state.over:
            return ResultScreen(state, names)
        draft = _draft(state, view)
        if isinstance(draft, Draft) and (draft.for_tally or not draft.seen):
            return TallyScreen(
                state, names, draft.dice, view.cursor, draft.editing, unseen(state, draft), draft.for_tally, view.status,
            )
        if tally_due(state):
            return WaitingScreen(state, names, view.status, view.camera)
        standing = round_scores(state.variant, draft.counted()) if isinstance(draft, Draft) else None
        return FlickScreen(state, names, entries(state, view.camera), view.cursor, standing, view.status)

    def press(self, state: State, press: Press, view: View) -> Action:
        if state.over:
            return ShowBoard() if press is Press.NEXT else NewGame() if press is Press.SELECT else None
        draft = _draft(state, view)
        if _standing_shown(draft):  # any press: looked at
            return Scratch(replace(draft, seen=True))
        if tally_due(state) and isinstance(draft, Draft):
            return tally_press(state, draft, view.cursor, press)
        if tally_due(state):
            by_hand = press is Press.SELECT or press is Press.ROLL and not view.camera
            return Scratch(Draft(())) if by_hand else Look() if press is Press.ROLL else (
                ShowBoard() if press is Press.NEXT else None)
        return _flick_press(state, press, view)

    def after_move(self, before: State, move: Any, after: State, names: Sequence[str]) -> Screen | None:
        return None  # the next screen shows what a move did: dice left, the new round's totals

    def board(self, state: State, names: Sequence[str]) -> Screen:
        return RoundsScreen(state, tuple(names))

    def bot_move(self, state: State) -> Any | None:
        return None  # a game of skill: every seat's dice are flicked by a person

    def bot_screen(self, shown: Screen | None, before: State, move: Any, after: State, names: Sequence[str]) -> None:
        return None

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        yield "Tumblin' Dice is a game of skill: there is no advisor to measure"

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> AutoSeats:
        from firmware.games.tumblin.autoplay import TumblinSeats

        return TumblinSeats.demo(seats, seed, table)


def _draft(state: State, view: View) -> Draft | None:
    """The reading being checked, if any; once the tally is due any reading of the board is the
    tally's to check (a standing read just before the last flick among them)."""
    draft = view.scratch
    if not isinstance(draft, Draft):
        return None
    return replace(draft, for_tally=True) if tally_due(state) and not draft.for_tally else draft


def _standing_shown(draft: Draft | None) -> TypeGuard[Draft]:
    """Whether the board read during the round is on the screen, not yet looked at."""
    return isinstance(draft, Draft) and not draft.for_tally and not draft.seen


def _flick_press(state: State, press: Press, view: View) -> Action:
    listed = entries(state, view.camera)
    if press is Press.ROLL:
        return Play(Flick())
    if press is Press.STOP:
        return Play(Flick(stayed=True))
    if press is Press.NEXT:
        return Cursor((view.cursor + 1) % len(listed))
    if press is not Press.SELECT:
        return None
    entry = listed[view.cursor % len(listed)]
    if entry == LANDED:  # its footer offers ROLL (which also throws on a simulated board) and STOP
        return None
    if entry == STAYED:
        return Play(Flick(stayed=True))
    if entry == STANDING:
        return Look()
    if entry == ROUNDS:
        return ShowBoard()
    if entry == MINE:
        return Play(Mine())
    return Play(Breed(entry.split()[1]))


def tally_press(state: State, draft: Draft, cursor: int, press: Press) -> Action:
    """What a press does on the board read after the round: walk the dice, correct one, add one, count."""
    if draft.editing is not None:
        return _edit_press(state, draft, cursor, press)
    add, count = len(draft.dice), len(draft.dice) + 1
    if press is Press.NEXT:
        return Cursor((cursor + 1) % (count + 1))
    if press is Press.STOP:
        return Cursor((cursor - 1) % (count + 1))
    if press is Press.ROLL:
        return Look()
    if press is not Press.SELECT:
        return None
    if cursor < add:
        return Scratch(replace(draft, editing=fields(state)[0]), cursor)
    if cursor == add:
        return Scratch(replace(draft, dice=(*draft.dice, new_die(state)), editing=fields(state)[0], adding=True), add)
    return _count(state, draft, cursor)


def _edit_press(state: State, draft: Draft, cursor: int, press: Press) -> Action:
    """NEXT changes the field, SELECT goes on to the next field (after the last: done), STOP back."""
    assert draft.editing is not None
    walk = fields(state)
    at = walk.index(draft.editing)
    if press is Press.NEXT:
        dice = list(draft.dice)
        dice[cursor] = changed(state, dice[cursor], draft.editing)
        return Scratch(replace(draft, dice=tuple(dice)), cursor)
    if press is Press.SELECT and at + 1 < len(walk):
        return Scratch(replace(draft, editing=walk[at + 1]), cursor)
    if press is Press.STOP and at == 0 and draft.adding:  # a die added by mistake: taken back
        return Scratch(replace(draft, dice=draft.dice[:cursor] + draft.dice[cursor + 1:], editing=None, adding=False), cursor)
    if press is Press.SELECT or (press is Press.STOP and at == 0):
        return _edit_done(state, draft, cursor)
    if press is Press.STOP:
        return Scratch(replace(draft, editing=walk[at - 1]), cursor)
    return None


def _edit_done(state: State, draft: Draft, cursor: int) -> Scratch:
    """The edit ends: a die set to "no die" is taken off, the dice are listed as the screen shows
    them (a die given another colour moves to its row), and the cursor goes on past the die."""
    edited = draft.dice[cursor]
    done = draft.settled()
    done = replace(done, dice=in_screen_order(state.variant.colours or (), done.dice))
    if edited in done.dice:
        return Scratch(done, done.dice.index(edited) + 1)  # on to the next die
    return Scratch(done, min(cursor, len(done.dice) + 1))


def _count(state: State, draft: Draft, cursor: int) -> Action:
    """Count the round: every die known whole, none on the 0x level (the players are told to take
    them off, then ROLL reads the board again, or SELECT says they were), no colour with more dice
    than left the launch pad (what the rules can check), missing dice warned of once."""
    if draft.unsure:
        return Say(f"{draft.unsure} unsure: fix ?s")
    zero = on_zero(state, draft.dice)
    if zero and not draft.zero_told:
        return Scratch(replace(draft, zero_told=True), cursor, f"Take {named(zero)} {ZERO_WARNING}")
    draft = draft.set_aside(zero)  # told, they say it was taken off
    for seat in range(state.players):
        name = colour(state, seat)
        count = sum(die.colour == name for die in draft.dice)
        if count > landed(state, seat):
            return Say(f"{count} {name}, {landed(state, seat)} landed")
    tally = Tally(draft.counted())
    reason = why_not(state, tally)
    if reason is not None:  # the checks above are all the rules make of a reading the buttons can give
        LOG.error("tally refused: %s", reason)
        return Say("refused: see the log")
    missing = unseen(state, draft)
    if missing and not draft.warned:
        what = ", ".join(f"{count} {name}" for name, count in missing) if len(missing) == 1 else (
            f"{sum(count for _, count in missing)} dice")
        return Scratch(replace(draft, warned=True), len(draft.dice) + 1, f"{what} {UNSEEN_WARNING}")
    return Play(tally)


def _levels(data_dir: Path | None) -> tuple[LevelMap | None, str]:
    """The board's calibrated levels (read at every look: calibrating again takes effect at
    once), or None with what the players should know."""
    try:
        levels = load_levels(data_dir) if data_dir is not None else None
    except LevelMapError as error:
        LOG.error("%s", error)
        return None, "levels file unusable"
    return (levels, "") if levels is not None else (None, NOT_CALIBRATED)


TABLE = TumblinTable()
