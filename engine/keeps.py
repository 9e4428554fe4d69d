"""Setting dice aside between throws, as the five-dice games do (Get Your Counters to the Top, Yacht).

``keep 3-3-5`` sets those dice aside and throws the others again; ``keep none`` throws all five.
Keeping all five throws nothing, so it is no keep: the player ends the throwing another way.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from engine.dice import FACES, Roll
from engine.errors import IllegalMoveError, StateFormatError

DICE = 5
"""Dice thrown at a turn's start; a keep sets aside 0 to DICE - 1 of them."""

_DICE_TEXT = re.compile(r"[1-6](?:-[1-6])*")


def dice_text(dice: tuple[int, ...]) -> str:
    """Dice as the moves write them: ``3-3-5``."""
    return "-".join(map(str, dice))


@dataclass(frozen=True)
class Keep:
    """Set these dice aside and throw the others again (``keep none`` throws all five)."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        dice = tuple(self.dice)
        if not all(type(d) is int and d in FACES for d in dice):
            raise StateFormatError(f"kept dice are values from 1 to 6, got {dice}")
        if len(dice) >= DICE:
            raise StateFormatError(f"keep at most {DICE - 1} dice: keeping all {DICE} throws nothing")
        object.__setattr__(self, "dice", tuple(sorted(dice)))

    def text(self) -> str:
        return "keep " + (dice_text(self.dice) if self.dice else "none")

    def __str__(self) -> str:
        return self.text()


def parse_keep(rest: str) -> Keep | None:
    """The keep written ``rest`` after the word ``keep`` (``none`` or ``3-3-5``), or None if it is not one."""
    if rest == "none":
        return Keep(())
    if _DICE_TEXT.fullmatch(rest):
        return Keep(tuple(int(d) for d in rest.split("-")))
    return None


@cache
def keeps(dice: tuple[int, ...]) -> tuple[Keep, ...]:
    """Every way to set aside up to four of the dice on the table (``keep none`` first)."""
    found = {tuple(c) for size in range(DICE) for c in itertools.combinations(dice, size)}
    return tuple(Keep(k) for k in sorted(found, key=lambda k: (len(k), k)))


def missing_dice(keep: Keep, table: tuple[int, ...]) -> str | None:
    """Why ``keep`` cannot be set aside from the dice on the table, or None when it can."""
    on_table = Counter(table)
    for face, count in sorted(Counter(keep.dice).items()):
        if count > on_table[face]:
            have = ("no", "only one", "only two", "only three")[on_table[face]]
            plural = "" if on_table[face] == 1 else "s"
            return f"{have} {face}{plural} on the table ({dice_text(table)})"
    return None


def thrown_after_keep(kept: tuple[int, ...], tray: tuple[int, ...]) -> Roll:
    """The roll of the dice thrown after ``kept`` were set aside, from all five read in the tray
    (the kept ones stayed there); IllegalMoveError when a kept die is not among them."""
    thrown = Counter(tray) - Counter(kept)
    if sum(thrown.values()) != len(tray) - len(kept):
        raise IllegalMoveError(f"the kept {' '.join(map(str, kept))} are not all in the tray ({' '.join(map(str, tray))})")
    return Roll(tuple(thrown.elements()))


def rethrown(table: tuple[int, ...], tray: tuple[int, ...]) -> tuple[Keep, Roll]:
    """The keep and the roll that the five dice read in the tray make after a rethrow nobody
    declared: players set dice aside by leaving them where they lie, so the faces still showing
    count as kept (at most four: at least one die was thrown). Only the faces matter to the rules,
    so which of two equal dice stayed is moot."""
    kept = _still_showing(table, tray)[: DICE - 1]
    return Keep(kept), Roll(tuple((Counter(tray) - Counter(kept)).elements()))


def keeps_read(table: tuple[int, ...], kept: object, then: Roll | None) -> tuple[object, ...]:
    """Every keep a rethrow nobody declared may have been, where :func:`rethrown` read ``kept``
    and ``then`` from the tray: it counts the most faces still showing as kept, but a die thrown
    again may have come up as it lay. Without the roll (taken back), any of the dice read as kept.
    A move other than a keep is itself."""
    if not isinstance(kept, Keep):
        return (kept,)
    return keeps(_still_showing(table, kept.dice + then.dice) if then is not None else kept.dice)


def _still_showing(table: tuple[int, ...], tray: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((Counter(table) & Counter(tray)).elements()))
