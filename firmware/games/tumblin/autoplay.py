"""Tumblin' Dice's players at the buttons, for the demo and the kill test: they flick their dice
onto the simulated board (now and then one stays on the launch pad), ask for the standing once a
round, and check the camera's reading of the board against the board itself as players at a
table would, correcting every die it got wrong or missed with the buttons before they count it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2

from engine.tumblin import State, colour, dice_left, landed
from firmware.games.tumblin.draft import COLOUR, FACE, LEVEL, NO_DIE, Draft, DraftDie
from firmware.games.tumblin.screens import FlickScreen, ResultScreen, TallyScreen, WaitingScreen
from firmware.games.tumblin.table import STANDING, UNSEEN_WARNING, entries, tally_press, toss
from firmware.screens import Screen
from firmware.table_game import AutoPress, Cursor, Play, Scratch
from hardware.buttons import Press
from vision.frame_outline import polygon

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
        if not screen.for_tally:
            return AutoPress((Press.SELECT,))  # the standing, seen: back to flicking
        if screen.status.endswith(UNSEEN_WARNING):
            return AutoPress((Press.SELECT,))  # they looked: those dice are not on the board
        if screen.cursor != 0 or screen.editing is not None:
            return AutoPress(())  # already correcting
        if self.table is None:  # nothing to check the reading against: count it when it is whole
            sure = all(d.die() is not None for d in screen.dice)
            wanted: list[Wanted | None] = [_as_wanted(d) for d in screen.dice] if sure else []
            return AutoPress(_corrections(screen.state, Draft(screen.dice), wanted, ()) if sure else ())
        wanted, missed = _within_landed(screen.state, self._wanted(screen), self._missed(screen))
        return AutoPress(_corrections(screen.state, Draft(screen.dice), wanted, missed), decision=True)

    def _wanted(self, screen: TallyScreen) -> list[Wanted | None]:
        """For each die read, what it truly is (None: no die of the board is there)."""
        lying = [t for t in self.table.truth if t.on_board]
        wanted: list[Wanted | None] = []
        for die in screen.dice:
            near = [t for t in lying if die.centre is not None and math.dist(t.placed.centre, die.centre) < t.placed.side / 2]
            wanted.append(self._truth(near[0]) if near else None)
        return wanted

    def _missed(self, screen: TallyScreen) -> list[Wanted]:
        """The board's dice the camera did not read there."""
        if self.table is None:
            return []
        read = [d.centre for d in screen.dice if d.centre is not None]
        return [
            self._truth(t) for t in self.table.truth
            if t.on_board and not any(math.dist(t.placed.centre, c) < t.placed.side / 2 for c in read)
        ]

    def _truth(self, die: Any) -> Wanted:
        """A die's colour, face and level; one across a step rests on the level holding its centre."""
        level = die.level if die.level is not None else _resting_level(self.table.levels, die.placed.centre)
        return die.colour, die.face, level


def _within_landed(
    state: State, wanted: list[Wanted | None], missed: list[Wanted]
) -> tuple[list[Wanted | None], list[Wanted]]:
    """Dice of a colour beyond those that left its launch pad this round (a flick taken back with
    UNDO leaves its die lying) are picked up off the board: missed ones are not added, read ones
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


def _as_wanted(die: DraftDie) -> Wanted:
    assert die.colour is not None and die.face is not None and die.level is not None
    return die.colour, die.face, die.level


def _resting_level(levels: Any, centre: tuple[float, float]) -> int:
    """The level whose outline holds ``centre`` deepest (or misses it by least)."""
    point = (float(centre[0]), float(centre[1]))
    return max(range(len(levels.outlines)), key=lambda level: cv2.pointPolygonTest(polygon(levels.outlines[level]), point, True))


class _Player:
    """Presses buttons on a copy of the tally screen's logic, so the presses planned are exactly
    those that reach the wanted reading."""

    def __init__(self, state: State, draft: Draft) -> None:
        self.state, self.draft, self.cursor = state, draft, 0
        self.presses: list[Press] = []

    def press(self, press: Press) -> None:
        action = tally_press(self.state, self.draft, self.cursor, press)
        self.presses.append(press)
        if isinstance(action, Cursor):
            self.cursor = action.index
        elif isinstance(action, Scratch):
            self.draft, self.cursor = action.value, action.cursor
        elif not isinstance(action, Play):
            raise AssertionError(f"the reading was not corrected as planned: {action}")

    def walk_to(self, index: int) -> None:
        while self.cursor != index:
            self.press(Press.NEXT)

    def set(self, index: int, field_name: str, value: object) -> None:
        while getattr(self.draft.dice[index], field_name) != value:
            self.press(Press.NEXT)

    def edit(self, index: int, wanted: Wanted | None) -> None:
        """Open die ``index`` (the entry after the dice: a new one) and make it ``wanted`` (None: take it off)."""
        self.walk_to(index)
        self.press(Press.SELECT)
        index = min(index, len(self.draft.dice) - 1)
        if wanted is None:
            self.set(index, FACE, NO_DIE)
            self.press(Press.STOP)
            return
        name, face, level = wanted
        for field_name, value in ((FACE, face), (COLOUR, name), (LEVEL, level)):
            self.set(index, field_name, value)
            self.press(Press.SELECT)
        while self.draft.editing is not None:  # the multiplier card: none
            self.press(Press.SELECT)


def _corrections(state: State, draft: Draft, wanted: Sequence[Wanted | None], missed: Sequence[Wanted]) -> tuple[Press, ...]:
    """The presses that correct ``draft`` die by die to ``wanted``, add ``missed``, and count it
    (or are warned of dice not seen, which the screen then says)."""
    player = _Player(state, draft)
    index = 0
    for want in wanted:
        die = player.draft.dice[index]
        if want is not None and die.die() is not None and _as_wanted(die) == want and die.card == 0:
            index += 1
            continue
        player.edit(index, want)
        index += want is not None
    for want in missed:
        player.edit(len(player.draft.dice), want)
    player.walk_to(len(player.draft.dice) + 1)
    player.press(Press.SELECT)
    return tuple(player.presses)
