"""The eight ways five dice move counters, and every one a throw allows.

An option is its kind plus its groups of dice: each group names the column its dice belong to
(a face's column, or the Straight column), the squares it is worth, and the column it moves
(another one only through a blue star's wild card).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from engine.counters.board import STRAIGHT, column_index, column_name
from engine.errors import StateFormatError


class Kind(StrEnum):
    """The options of the rules, in the order the rules list them."""

    PAIR = "pair"
    TRIPLE = "triple"
    FOUR = "four"
    FIVE = "five"
    TWO_PAIRS = "two-pairs"
    FULL_HOUSE = "full-house"
    SMALL = "small"
    BIG = "big"


KIND_ORDER = tuple(Kind)
SAME_FACE = {Kind.PAIR: 2, Kind.TRIPLE: 3, Kind.FOUR: 4, Kind.FIVE: 5}
"""Kinds of one face: how many dice they need (they move that many squares less one)."""
STRAIGHTS = (Kind.SMALL, Kind.BIG)
SQUARES = {
    Kind.PAIR: (1,),
    Kind.TRIPLE: (2,),
    Kind.FOUR: (3,),
    Kind.FIVE: (4,),
    Kind.TWO_PAIRS: (1, 1),
    Kind.FULL_HOUSE: (2, 1),
    Kind.SMALL: (2,),
    Kind.BIG: (3,),
}
"""Squares per group; a small straight may add a pair's group (+1)."""
PAIR_SQUARES = 1

KIND_NAMES = frozenset(k.value for k in Kind)
_GROUP_TEXT = re.compile(r"[1-6s](?:>[1-6s])?")


@dataclass(frozen=True)
class Group:
    """Dice of one face (or a straight) and the column they move.

    ``home`` is the column the dice belong to (face - 1, or STRAIGHT); ``column`` is where they
    move, which differs from ``home`` only through a blue star's wild card.
    """

    home: int
    squares: int
    column: int

    @property
    def wild(self) -> bool:
        return self.column != self.home

    def text(self) -> str:
        """``4``, ``2>4`` (the 2s move column 4); a straight's group is written by its kind."""
        where = f">{column_name(self.column)}" if self.wild else ""
        return column_name(self.home) + where


@dataclass(frozen=True)
class Option:
    """One use of the dice: its kind and its groups, which always move different columns."""

    kind: Kind
    groups: tuple[Group, ...]

    def __post_init__(self) -> None:
        problem = _shape_problem(self.kind, self.groups)
        if problem:
            raise StateFormatError(f"not an option: {problem}")

    @property
    def columns(self) -> tuple[int, ...]:
        """The columns the groups move, group by group."""
        return tuple(g.column for g in self.groups)

    @property
    def wild(self) -> bool:
        """Whether any group moves another column than its own (a blue star's wild card)."""
        return any(g.wild for g in self.groups)

    def plain(self) -> Option:
        """The same dice, each group in its own column."""
        return Option(self.kind, tuple(Group(g.home, g.squares, g.home) for g in self.groups))

    def sent_to(self, columns: tuple[int, ...]) -> Option:
        """The same dice moving ``columns``, group by group (a wild card's use)."""
        return Option(self.kind, tuple(Group(g.home, g.squares, c) for g, c in zip(self.groups, columns)))

    def sort_key(self) -> tuple[int, tuple[tuple[int, int], ...]]:
        """Kinds in the rules' order, then by the groups' faces and columns."""
        return KIND_ORDER.index(self.kind), tuple((g.home, g.column) for g in self.groups)

    def text(self) -> str:
        """``pair 4``, ``two-pairs 2+4``, ``full-house 3>1+2>4``, ``small``, ``small>3+4``, ``big``."""
        if self.kind in STRAIGHTS:
            straight, *pair = self.groups
            head = str(self.kind) + (f">{column_name(straight.column)}" if straight.wild else "")
            return "+".join([head, *(g.text() for g in pair)])
        return f"{self.kind} " + "+".join(g.text() for g in self.groups)

    def __str__(self) -> str:
        return self.text()


def make_option(
    kind: Kind | str, homes: tuple[int, ...] = (), columns: tuple[int, ...] | None = None
) -> Option:
    """An option from its kind and its groups' home columns (straights: only the pair's, if any).

    ``columns`` sends the groups elsewhere (wild cards); by default each moves its own column.
    """
    kind = Kind(kind)
    if kind in STRAIGHTS:
        homes = (STRAIGHT, *homes)
    squares = SQUARES[kind] + ((PAIR_SQUARES,) if kind is Kind.SMALL and len(homes) == 2 else ())
    if len(squares) != len(homes):
        raise StateFormatError(f"not an option: {kind} has {len(squares)} group(s), got {len(homes)}")
    columns = homes if columns is None else columns
    return Option(kind, tuple(Group(h, s, c) for h, s, c in zip(homes, squares, columns)))


def _shape_problem(kind: object, groups: tuple[Group, ...]) -> str | None:
    """Why ``groups`` cannot be an option of ``kind``, or None."""
    if not isinstance(kind, Kind):
        return f"unknown kind {kind!r}"
    if not all(isinstance(g, Group) for g in groups):
        return f"groups must be Group values, got {groups!r}"
    squares = tuple(g.squares for g in groups)
    expected = SQUARES[kind]
    allowed = {expected, expected + (PAIR_SQUARES,)} if kind is Kind.SMALL else {expected}
    if squares not in allowed:
        return f"{kind} moves {'+'.join(map(str, expected))} squares, got {squares}"
    homes = [g.home for g in groups]
    places = homes + [g.column for g in groups]
    if not all(type(c) is int and 0 <= c <= STRAIGHT for c in places):
        return f"columns are 0 to {STRAIGHT}, got {places}"
    if (kind in STRAIGHTS) != (homes[0] == STRAIGHT) or STRAIGHT in homes[1:]:
        return f"only a straight's dice belong to the Straight column ({kind})"
    if kind is Kind.TWO_PAIRS and not homes[0] < homes[1]:
        return "two pairs are two different faces, the lower first"
    if kind is Kind.FULL_HOUSE and homes[0] == homes[1]:
        return "a full house is a triple and a pair of different faces"
    columns = [g.column for g in groups]
    if len(set(columns)) != len(columns):
        return "the groups of one option move different columns"
    return None


def parse_option(text: str) -> Option:
    """An option from its text (what follows ``take``); see :meth:`Option.text`."""
    cleaned = " ".join(text.strip().lower().split())
    if cleaned.startswith(tuple(STRAIGHTS)):
        head, *parts = cleaned.split("+")  # "small>3+4": the straight's group, then a pair's
        name, arrow, straight_to = head.partition(">")
        parts.insert(0, f"{column_name(STRAIGHT).lower()}{arrow}{straight_to}")
    else:
        name, _, rest = cleaned.partition(" ")
        parts = rest.split("+")
    if name not in KIND_NAMES or not all(_GROUP_TEXT.fullmatch(p) for p in parts):
        raise StateFormatError(
            "an option is written like 'pair 4', 'two-pairs 2+4', 'full-house 3>1+2>4', "
            f"'small+4', 'small>3' or 'big', got {text!r}"
        )
    homes, columns = [], []
    for part in parts:
        home, arrow, to = part.partition(">")
        homes.append(column_index(home))
        columns.append(column_index(to) if arrow else homes[-1])
        if arrow and columns[-1] == homes[-1]:
            raise StateFormatError(f"a group moving its own column is written without '>', got {text!r}")
    kind = Kind(name)
    return make_option(kind, tuple(homes[1:] if kind in STRAIGHTS else homes), tuple(columns))


@cache
def options(dice: tuple[int, ...]) -> tuple[Option, ...]:
    """Every option the dice allow, each group in its own column (no wild cards).

    A smaller kind is also formable from more dice (a pair of 2s from three 2s); options with
    the same effect are listed once (a small straight from 1-2-3-4-5 is one option).
    """
    counts = Counter(dice)
    found: set[Option] = set()
    for face, count in counts.items():
        for kind, needed in SAME_FACE.items():
            if count >= needed:
                found.add(make_option(kind, (face - 1,)))
    pairs = sorted(face for face, count in counts.items() if count >= 2)
    for low in pairs:
        for high in pairs:
            if low < high:
                found.add(make_option(Kind.TWO_PAIRS, (low - 1, high - 1)))
    for triple in (face for face, count in counts.items() if count >= 3):
        for pair in pairs:
            if pair != triple:
                found.add(make_option(Kind.FULL_HOUSE, (triple - 1, pair - 1)))
    faces = set(counts)
    if any(set(range(low, low + 4)) <= faces for low in (1, 2, 3)):
        found.add(make_option(Kind.SMALL))
        found.update(make_option(Kind.SMALL, (pair - 1,)) for pair in pairs)
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        found.add(make_option(Kind.BIG))
    return tuple(sorted(found, key=Option.sort_key))
