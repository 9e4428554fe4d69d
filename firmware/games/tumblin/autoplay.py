"""Tumblin' Dice's players at the buttons, for the demo and the kill test: they flick their dice
onto the simulated board (now and then one stays on the launch pad), ask for the standing once a
round, and check the camera's reading of the board against the board itself as players at a
table would, correcting every die it got wrong or missed with the buttons before they count it:
one press at a time, each chosen from the screen it led to.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

import cv2

from engine.tumblin import State, colour, dice_left, landed
from firmware.core.table_game import AutoPress
from firmware.drawing.screens import Screen
from firmware.games.tumblin.draft import COLOUR, FACE, LEVEL, NO_DIE, DraftDie
from firmware.games.tumblin.flicks import STANDING, UNSEEN_WARNING, ZERO_WARNING, entries, toss
from firmware.games.tumblin.screens import FlickScreen, ResultScreen, TallyScreen, WaitingScreen
from hardware.buttons import Press
from vision.read.frame_outline import polygon

STAYED_SHARE = 0.08  # of flicks: the die never leaves the launch pad
NAMES = ("Ann", "Bob", "Cleo", "Dev")
Wanted = tuple[str, int, int]  # colour, face, level


@dataclass(frozen=True)
class TumblinSeats:
    """Players flicking on ``table`` (a simulated board with ``truth`` and ``levels``; None: they
    cannot look at it, and take the camera's reading as it is)."""

    names: tuple[str, ...]
    seed: int
    table: Any = None
    _asked: set[int] = field(default_factory=set, compare=False)  # rounds whose standing was asked for

    @classmethod
    def demo(cls, seats: int, seed: int, table: Any = None) -> TumblinSeats:
        return cls(NAMES[:seats], seed, table)

    def presses_for(self, screen: Screen) -> AutoPress | None:
        if isinstance(screen, ResultScreen):
            return AutoPress((Press.QUIT,))
        if isinstance(screen, WaitingScreen):
            return AutoPress(())  # the camera reads the board
        if isinstance(screen, FlickScreen):
            return self._flick(screen)
        if isinstance(screen, TallyScreen):
            return self._check(screen)
        return None

    def _flick(self, screen: FlickScreen) -> AutoPress:
        state = screen.state
        if screen.cursor != 0:
            return AutoPress(())  # walking to an entry
        halfway = sum(dice_left(state)) == len(state.order) * 2
        if self.table is not None and halfway and screen.standing is None and len(state.history) not in self._asked:
            self._asked.add(len(state.history))
            return AutoPress((Press.NEXT,) * entries(state).index(STANDING) + (Press.SELECT,))
        if random.Random(f"{self.seed}:{len(state.log)}").random() < STAYED_SHARE:
            return AutoPress((Press.STOP,), decision=True)
        return AutoPress((Press.ROLL,), toss=toss(state), decision=True)

    def _check(self, screen: TallyScreen) -> AutoPress:
        """One press at a time toward the board as it truly lies (each press changes the screen,
        and the next is chosen from what the screen then shows, whatever presses came before)."""
        if not screen.for_tally or screen.status.endswith((UNSEEN_WARNING, ZERO_WARNING)):
            # the standing seen; or warned, they looked: those dice are not there, or were taken off the 0x level
            return AutoPress((Press.SELECT,))
        if self.table is None:  # nothing to check the reading against: count it when it is whole
            whole = all(d.die() is not None for d in screen.dice)
            return AutoPress(_walk(screen, len(screen.dice) + 1) or (Press.SELECT,), decision=True) if whole else AutoPress(())
        wanted, missed = self._wanted(screen)
        if screen.editing is not None:
            return AutoPress((_edit_step(screen, wanted[screen.cursor] if screen.cursor < len(wanted) else None),))
        wrong = [i for i, (die, want) in enumerate(zip(screen.dice, wanted)) if want is None or _whole(die) != want]
        target = wrong[0] if wrong else len(screen.dice) if missed else len(screen.dice) + 1
        return AutoPress(_walk(screen, target) or (Press.SELECT,), decision=not wrong and not missed)

    def _wanted(self, screen: TallyScreen) -> tuple[list[Wanted | None], list[Wanted]]:
        """For each die listed, what it truly is (None: no die of the board is there, or one too
        many of its colour), and the board's dice not listed. A die added by hand (no place in
        the picture) stands for the first unlisted die it already equals, else for the next one."""
        lying = [t for t in self.table.truth if t.on_board]
        unmatched = list(lying)
        wanted: list[Wanted | None] = []
        for die in screen.dice:
            near = [t for t in unmatched if die.centre is not None and math.dist(t.placed.centre, die.centre) < t.placed.side / 2]
            wanted.append(self._truth(near[0]) if near else None)
            unmatched = [t for t in unmatched if not near or t is not near[0]]
        missed = [self._truth(t) for t in unmatched]
        for index, die in enumerate(screen.dice):
            if die.centre is None and missed:
                want = _whole(die) if _whole(die) in missed else missed[0]
                wanted[index] = want
                missed.remove(want)
        return _within_landed(screen.state, wanted, missed)

    def _truth(self, die: Any) -> Wanted:
        """A die's colour, face and level; one across a step rests on the level holding its centre."""
        level = die.level if die.level is not None else _resting_level(self.table.levels, die.placed.centre)
        return die.colour, die.face, level


def _whole(die: DraftDie) -> Wanted | None:
    """A listed die as (colour, face, level) when all are known and it lies on no card."""
    return None if die.die() is None or die.card else (die.colour, die.face, die.level)  # type: ignore[return-value]


def _walk(screen: TallyScreen, target: int) -> tuple[Press, ...]:
    """The first press toward entry ``target`` (NEXT or STOP, whichever way is shorter); () when there."""
    if screen.cursor == target:
        return ()
    entries = len(screen.dice) + 2
    ahead = (target - screen.cursor) % entries
    return (Press.NEXT,) if ahead <= entries - ahead else (Press.STOP,)


def _edit_step(screen: TallyScreen, want: Wanted | None) -> Press:
    """The next press on the die being edited: change the field shown until it is right, then on
    (SELECT); a die that is not there: its face to "no die", then leave it (STOP back to the face)."""
    die = screen.dice[screen.cursor]
    if want is None:
        return Press.NEXT if screen.editing == FACE and die.face != NO_DIE else Press.STOP
    colour_, face, level = want
    value = {FACE: face, COLOUR: colour_, LEVEL: level}.get(screen.editing or "", 0)  # the card: none
    return Press.NEXT if getattr(die, screen.editing or "") != value else Press.SELECT


def _within_landed(
    state: State, wanted: list[Wanted | None], missed: list[Wanted]
) -> tuple[list[Wanted | None], list[Wanted]]:
    """Dice of a colour beyond those that left its launch pad this round (a flick taken back with
    UNDO leaves its die lying) are picked up off the board: missed ones are not added, listed ones
    taken off."""
    room = {colour(state, seat): landed(state, seat) for seat in range(state.players)}
    kept: list[Wanted | None] = []
    for want in wanted:
        fits = want is not None and room.get(want[0], 0) > 0
        if fits:
            room[want[0]] -= 1
        kept.append(want if fits else None)
    added = []
    for want in missed:
        if room.get(want[0], 0) > 0:
            room[want[0]] -= 1
            added.append(want)
    return kept, added


def _resting_level(levels: Any, centre: tuple[float, float]) -> int:
    """The level whose outline holds ``centre`` deepest (or misses it by least)."""
    point = (float(centre[0]), float(centre[1]))
    return max(range(len(levels.outlines)), key=lambda level: cv2.pointPolygonTest(polygon(levels.outlines[level]), point, True))
