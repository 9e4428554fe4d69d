"""The board as read, while the players check it: every die's face, colour and level (each None
where the camera was unsure), corrected with the buttons before the round's tally counts.

The camera's reading (:class:`vision.board.board_reading.BoardReading`) becomes a :class:`Draft`; the
players walk its dice with NEXT and STOP, SELECT opens a die, and within it NEXT changes the
field shown and SELECT goes on to the next field (face, colour, level, then the multiplier card
when the game has such cards). A face changed past 6 reads "no die" (:data:`NO_DIE`): the die is
taken off the reading when its edit ends (something the camera took for a die, or a die the
players removed). Nothing
here is journaled: only the confirmed tally is a move.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.tumblin import Die, State, colour, landed
from engine.tumblin.moves import FACES, LEVELS
from vision.board.board_reading import BoardReading

FACE, COLOUR, LEVEL, CARD = "face", "colour", "level", "card"
NO_DIE = 0
"""The face of a die the players took off the reading."""


@dataclass(frozen=True)
class DraftDie:
    """One die of the reading: None where unsure (``doubt`` says why, until a person sets it)."""

    colour: str | None
    face: int | None
    level: int | None
    card: int = 0  # the multiplier card it lies on (0: none); the camera cannot see cards
    doubt: str = ""
    centre: tuple[float, float] | None = None  # px in the camera's picture; None for a die added by hand
    by_hand: bool = False  # set or corrected with the buttons: a new reading of the board keeps it

    def die(self) -> Die | None:
        """The engine's die, once face, colour and level are all known."""
        if self.colour is None or self.face in (None, NO_DIE) or self.level is None:
            return None
        return Die(self.colour, self.face, self.level, self.card)


@dataclass(frozen=True)
class Draft:
    """A reading being checked: the dice on the board, the colours of those seen beside it (None
    when unsure), whether it is the round's tally or only the standing, the field of the die under
    the cursor being edited (None: walking the dice), and whether the players were already warned
    that dice which left the launch pad were not seen."""

    dice: tuple[DraftDie, ...]
    off_board: tuple[str | None, ...] = ()
    for_tally: bool = True
    editing: str | None = None
    warned: bool = False
    adding: bool = False  # the die being edited was just added: leaving it at once takes it back
    seen: bool = False  # a standing read during the round, looked at: only its points stay shown
    zero_told: bool = False  # the players were told to take the dice on the 0x level off

    @property
    def unsure(self) -> int:
        """How many dice still lack a face, a colour or a level."""
        return sum(d.die() is None for d in self.dice)

    def settled(self) -> Draft:
        """The draft after an edit ends: dice set to "no die" taken off."""
        return replace(self, dice=tuple(d for d in self.dice if d.face != NO_DIE), editing=None, adding=False)

    def set_aside(self, dice: tuple[DraftDie, ...]) -> Draft:
        """The draft with ``dice`` taken off the board and set beside it (seen, not scored)."""
        return replace(self, dice=tuple(d for d in self.dice if d not in dice),
                       off_board=self.off_board + tuple(d.colour for d in dice))

    def counted(self) -> tuple[Die, ...]:
        """The dice known whole (the tally's dice once nothing is unsure)."""
        return tuple(die for d in self.dice if (die := d.die()) is not None)


def in_screen_order(colours: tuple[str, ...], dice: Iterable[DraftDie]) -> tuple[DraftDie, ...]:
    """The dice in the order the screen lists them (NEXT walks them so): by the seats' colours,
    then other colours by name, then dice of unknown colour; in the order given within a colour."""
    def row(die: DraftDie) -> tuple[int, str]:
        if die.colour is None:
            return len(colours) + 1, ""
        return (colours.index(die.colour), "") if die.colour in colours else (len(colours), die.colour)

    return tuple(sorted(dice, key=row))


def draft_of(reading: BoardReading, for_tally: bool, colours: tuple[str, ...], before: Draft | None = None) -> Draft:
    """The camera's reading as a draft: each unsure field None, with the first reason. What the
    players set by hand in ``before`` (an earlier reading of the same board) stands: a corrected
    die replaces the die read where it lies, a die they added is kept."""
    dice = [DraftDie(d.colour, d.face, d.level, 0, "; ".join(d.problems()), d.die.centre) for d in reading.dice]
    sizes = [d.die.size for d in reading.dice]
    for kept in (d for d in (before.dice if before is not None else ()) if d.by_hand):
        near = [i for i, d in enumerate(dice) if kept.centre is not None and d.centre is not None
                and math.dist(kept.centre, d.centre) < sizes[i] / 2]
        if near:
            dice[near[0]] = kept
        else:
            dice.append(kept)
    return Draft(in_screen_order(colours, dice), tuple(d.colour for d in reading.off_board), for_tally)


def on_zero(state: State, dice: Iterable[DraftDie]) -> tuple[DraftDie, ...]:
    """The dice read on the 0x level, which the rules take off ("If a die does not drop off of the
    0x level, it counts as a throw, but it is removed and set off to the side"); none in a game
    that lets them lie there (the variant's ``zero = "stays"``)."""
    if state.variant.zero != "removed":
        return ()
    return tuple(d for d in dice if d.level == 0 and d.face != NO_DIE)


def named(dice: tuple[DraftDie, ...]) -> str:
    """"red 4" for one die, "2 dice" for more."""
    if len(dice) == 1:
        return f"{dice[0].colour or '?'} {dice[0].face or '?'}"
    return f"{len(dice)} dice"


def unseen(state: State, draft: Draft) -> tuple[tuple[str, int], ...]:
    """Per colour, the dice that left the launch pad this round but were seen neither on the board
    nor beside it (missed by the camera, hidden, or removed by a mine): (colour, how many)."""
    seen = Counter(d.colour for d in draft.dice) + Counter(draft.off_board)
    missing = []
    for seat in range(state.players):
        name = colour(state, seat)
        count = landed(state, seat) - seen[name]
        if count > 0:
            missing.append((name, count))
    return tuple(missing)


def fields(state: State) -> tuple[str, ...]:
    """The fields of a die the players can set, in the order SELECT walks them."""
    return (FACE, COLOUR, LEVEL, CARD) if state.variant.multiplier_cards else (FACE, COLOUR, LEVEL)


def changed(state: State, die: DraftDie, field: str) -> DraftDie:
    """``die`` with ``field`` set to its next value (NEXT): an unsure field starts at the first."""
    die = replace(die, by_hand=True)
    if field == FACE:
        return replace(die, face=_after((*FACES, NO_DIE), die.face, start=FACES[0]), doubt="")
    if field == COLOUR:
        colours = state.variant.colours or ()
        return replace(die, colour=_after(colours, die.colour, start=colours[0]), doubt="")
    if field == LEVEL:
        return replace(die, level=_after(tuple(LEVELS), die.level, start=LEVELS[0]), doubt="")
    return replace(die, card=_after(tuple(range(state.variant.multiplier_cards + 1)), die.card, start=0))


def _after(values: tuple, current: object, start: object) -> object:
    """The value after ``current`` in ``values``, wrapping round; ``start`` when it is not one of them."""
    if current not in values:
        return start
    return values[(values.index(current) + 1) % len(values)]


def new_die(state: State) -> DraftDie:
    """A die the players add by hand: the current player's colour, face 1 on the 1x level."""
    return DraftDie(colour(state, state.current), 1, 1, by_hand=True)
