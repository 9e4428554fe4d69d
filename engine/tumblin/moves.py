"""Moves as small hashable values with short text forms.

``flick`` (the current player's die left the launch level), ``flick stayed`` (it did not: a throw,
but the die is removed), ``breed red`` (red places an un-flicked die by its die on a breed card),
``mine`` (a land mine exploded), and the board reading that ends a round:
``tally red 4@3 blue 4@1*1 red 3@1*1`` (each die on the board: colour, face@level, and ``*n`` when
it lies on multiplier card n; a bare ``tally`` is an empty board).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from engine.errors import StateFormatError

FACES = range(1, 7)
LEVELS = range(0, 5)
"""Level 0 is the 0x level (scores nothing); 1..4 are the 1x..4x levels."""
MAX_CARDS = 2
"""The rules place 1 or 2 breeding cards (breed or multiplier)."""

_COLOUR = re.compile(r"[a-z][a-z0-9]{0,9}")
_DIE = re.compile(r"([1-6])@([0-4])(?:\*([1-9]))?")
RESERVED = frozenset({"flick", "stayed", "breed", "mine", "tally"})


def is_colour(name: object) -> bool:
    """A colour's name: a short lower-case word (letters and digits, up to 10), not a move word."""
    return isinstance(name, str) and _COLOUR.fullmatch(name) is not None and name not in RESERVED


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Flick:
    """The current player flicked one die; ``stayed`` when it did not leave the launch level."""

    stayed: bool = False

    def text(self) -> str:
        return "flick stayed" if self.stayed else "flick"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Breed:
    """A die of ``colour`` landed on a breed card: its player places one un-flicked die beside it."""

    colour: str

    def __post_init__(self) -> None:
        if not is_colour(self.colour):
            raise StateFormatError(f"a colour is a short lower-case word, got {self.colour!r}")

    def text(self) -> str:
        return f"breed {self.colour}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Mine:
    """A land mine exploded; the dice it removes are simply missing from the board reading."""

    def text(self) -> str:
        return "mine"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True, order=True)
class Die:
    """One die on the board: its colour, face 1..6, level 0..4, and multiplier card (0: none)."""

    colour: str
    face: int
    level: int
    card: int = 0

    def __post_init__(self) -> None:
        if not is_colour(self.colour):
            raise StateFormatError(f"a colour is a short lower-case word, got {self.colour!r}")
        if not _whole(self.face) or self.face not in FACES:
            raise StateFormatError(f"a die's face is 1 to 6, got {self.face!r}")
        if not _whole(self.level) or self.level not in LEVELS:
            raise StateFormatError(f"a die's level is 0 (the 0x level) to 4, got {self.level!r}")
        if not _whole(self.card) or not 0 <= self.card <= MAX_CARDS:
            raise StateFormatError(f"a die's multiplier card is 1 or 2 (0 for none), got {self.card!r}")

    def text(self) -> str:
        card = f"*{self.card}" if self.card else ""
        return f"{self.colour} {self.face}@{self.level}{card}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Tally:
    """The confirmed board reading after the last flick: every die on the board (kept sorted, so
    equal readings compare equal); dice off the board or removed are absent."""

    dice: tuple[Die, ...] = ()

    def __post_init__(self) -> None:
        if not all(isinstance(d, Die) for d in self.dice):
            raise StateFormatError(f"a tally lists dice, got {self.dice!r}")
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))

    def text(self) -> str:
        return " ".join(["tally", *(d.text() for d in self.dice)])

    def __str__(self) -> str:
        return self.text()


Move = Union[Flick, Breed, Mine, Tally]
MOVES = (Flick, Breed, Mine, Tally)

_FORMS = "'flick', 'flick stayed', 'breed red', 'mine' or 'tally red 4@3 blue 2@1*1'"


def parse_move(text: str) -> Move:
    """A move from its text form (see the module docstring); spaces and case do not matter."""
    words = str(text).strip().lower().split()
    if words == ["flick"]:
        return Flick()
    if words == ["flick", "stayed"]:
        return Flick(stayed=True)
    if words == ["mine"]:
        return Mine()
    if len(words) == 2 and words[0] == "breed":
        return Breed(words[1])
    if words and words[0] == "tally":
        return Tally(_dice(words[1:], text))
    raise StateFormatError(f"a move is written like {_FORMS}, got {text!r}")


def _dice(words: list[str], text: str) -> tuple[Die, ...]:
    if len(words) % 2:
        raise StateFormatError(f"a tally lists each die as 'colour face@level', like 'red 4@3', got {text!r}")
    dice = []
    for colour, where in zip(words[::2], words[1::2]):
        found = _DIE.fullmatch(where)
        if not found:
            raise StateFormatError(
                f"a die is written 'face@level' (face 1-6, level 0-4, '*1' or '*2' on a multiplier card), got {where!r}"
            )
        face, level, card = found.groups()
        dice.append(Die(colour, int(face), int(level), int(card or 0)))
    return tuple(dice)


def move_text(move: Move) -> str:
    """The short text form of a move; :func:`parse_move` reads it back."""
    if not isinstance(move, MOVES):
        raise StateFormatError(f"not a Tumblin' Dice move: {move!r}")
    return move.text()
