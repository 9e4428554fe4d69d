"""What the five-dice games at the table (Get Your Counters to the Top, Yacht) share: the tray's
dice read after a throw (the dice set aside stay in the tray and make the keep), the dice as the
screens write them, and the demo's line-up of bots."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.errors import IllegalMoveError
from engine.dice import Roll
from engine.keeps import DICE, rethrown, thrown_after_keep
from firmware.core.table_game import TrayRefused, View, roll_words
from firmware.drawing.screens import Canvas, footer, line, title
from hardware.camera import Toss

DEMO_NAMES = ("Advisor", "Greedy", "Random", "Advisor2")


class FiveDiceState(Protocol):
    kept: tuple[int, ...]  # set aside before the throw that is due
    dice: tuple[int, ...]  # on the table after the last throw


def dice_text(dice: Sequence[int]) -> str:
    """Dice as the screens write them: ``2 3 3 5``."""
    return " ".join(map(str, dice))


def paint_throw_due(canvas: Canvas, heading: str, round_no: int, kept: Sequence[int], verb: str, board: str,
                    coming: str, status: str) -> None:
    """The screen while dice are to be thrown (``verb``: "Roll" or "Throw"; ``board``: what NEXT
    shows): whose turn and the round; the dice kept and how many to throw, or all five, by hand or
    the board; and the throw ``coming`` ("roll 2/3"), or the status, beside ROLL."""
    title(canvas, heading, f"round {round_no}")
    if kept:
        rows = (f"Kept: {dice_text(kept)}", f"{verb} the other {DICE - len(kept)},", "press ROLL.")
    else:
        rows = (f"{verb} {DICE} dice, ROLL.", "SELECT: dice by hand", f"NEXT: the {board}")
    for row, words in enumerate(rows):
        line(canvas, row, words)
    footer(canvas, status or coming, "" if status else "ROLL")


class FiveDiceTray:
    """The tray of a five-dice game: a throw due rolls the dice not kept; after a throw, while
    throws are left, the whole tray may be thrown again, and the faces still lying make the keep.
    A table game mixes it in beside its ``throw_due`` and ``tray_dice``."""

    def throw_due(self, state: Any) -> bool: ...

    def tray_dice(self, state: Any) -> int: ...

    def lying(self, state: FiveDiceState) -> tuple[Toss, ...]:
        return ()  # the next throw says every die it leaves in the tray

    def throw(self, state: FiveDiceState, view: View) -> Toss:
        if self.throw_due(state):
            return Toss(DICE - len(state.kept), state.kept)
        return Toss(DICE) if self.tray_dice(state) else Toss()

    def undone_words(self, before: Any, move: Any) -> str:
        """A roll as "roll 23566"; the game's own choices in its list's words (:meth:`choice_words`)."""
        return roll_words(move.dice) if isinstance(move, Roll) else self.choice_words(before, move)

    def choice_words(self, before: Any, move: Any) -> str: ...

    def told(self, state: FiveDiceState, dice: tuple[int, ...]) -> tuple[Any, ...]:
        """The moves the five dice read in the tray make: the roll after the keep, or the keep and roll of a rethrow."""
        if self.throw_due(state):
            try:
                return (thrown_after_keep(state.kept, dice),)
            except IllegalMoveError as error:
                raise TrayRefused(str(error)) from None
        return rethrown(state.dice, dice)


def demo_line_up(
    seats: int, seed: int, advisor: Callable[[], Any], greedy: Callable[[], Any], random_bot: Callable[[random.Random], Any],
) -> tuple[tuple[Any, ...], tuple[str, ...]]:
    """The demo's bots and their names: the advisor, then the greedy bot, a random one, a second advisor."""
    bots = (advisor(), greedy(), random_bot(random.Random(seed)), advisor())[:seats]
    return bots, DEMO_NAMES[:seats]
