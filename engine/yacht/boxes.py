"""The thirteen boxes of the scorecard, what five dice score in each, and the joker rule.

Pure functions of the dice and the card, shared by the rules and the advisor's tables.
"""

from __future__ import annotations

from collections import Counter
from enum import Enum

from engine.errors import StateFormatError

Dice = tuple[int, ...]
Card = tuple["int | None", ...]
"""One player's thirteen boxes in :data:`BOXES` order: the points written there, None while empty."""


class Box(Enum):
    """A box of the scorecard; its value is the name its moves are written with."""

    ONES = "ones"
    TWOS = "twos"
    THREES = "threes"
    FOURS = "fours"
    FIVES = "fives"
    SIXES = "sixes"
    THREE_OF_A_KIND = "three-of-a-kind"
    FOUR_OF_A_KIND = "four-of-a-kind"
    FULL_HOUSE = "full-house"
    SMALL_STRAIGHT = "small-straight"
    LARGE_STRAIGHT = "large-straight"
    YACHT = "yacht"
    CHANCE = "chance"

    @property
    def index(self) -> int:
        """The box's place on the card (0..12)."""
        return BOXES.index(self)

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def face(self) -> int:
        """The face an upper box counts (Threes: 3); 0 for the lower boxes."""
        return UPPER.index(self) + 1 if self in UPPER else 0


BOXES = tuple(Box)
UPPER = BOXES[:6]
LOWER = BOXES[6:]
EMPTY_CARD: Card = (None,) * len(BOXES)

UPPER_BONUS, UPPER_BONUS_FROM = 35, 63
"""35 points when the six upper boxes add up to 63 or more."""
YACHT_POINTS = 50
EXTRA_YACHT_BONUS = 100
"""Per five of a kind scored while the Yacht box holds 50."""
FIXED_POINTS = {Box.FULL_HOUSE: 25, Box.SMALL_STRAIGHT: 30, Box.LARGE_STRAIGHT: 40, Box.YACHT: YACHT_POINTS}
SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def is_yacht(dice: Dice) -> bool:
    """Five of a kind."""
    return len(dice) == 5 and len(set(dice)) == 1


def _fits(box: Box, dice: Dice) -> bool:
    """Whether the dice make the pattern a lower box asks for (no joker)."""
    counts = sorted(Counter(dice).values())
    faces = set(dice)
    return {
        Box.THREE_OF_A_KIND: counts[-1] >= 3,
        Box.FOUR_OF_A_KIND: counts[-1] >= 4,
        Box.FULL_HOUSE: counts == [2, 3],
        Box.SMALL_STRAIGHT: any(run <= faces for run in SMALL_RUNS),
        Box.LARGE_STRAIGHT: faces in LARGE_RUNS,
        Box.YACHT: counts == [5],
        Box.CHANCE: True,
    }[box]


def box_score(box: Box, dice: Dice, joker: bool = False) -> int:
    """What ``dice`` score in ``box``; ``joker``: five of a kind scored as a joker, which makes a
    full house and both straights (the rule's second part)."""
    if box.is_upper:
        return box.face * dice.count(box.face)
    if joker and box in (Box.FULL_HOUSE, Box.SMALL_STRAIGHT, Box.LARGE_STRAIGHT):
        return FIXED_POINTS[box]
    if not _fits(box, dice):
        return 0
    return FIXED_POINTS.get(box, sum(dice))


def is_joker(card: Card, dice: Dice) -> bool:
    """Five of a kind while the Yacht box is already filled (with 50 or 0): scored as a joker."""
    return is_yacht(dice) and card[Box.YACHT.index] is not None


def open_boxes(card: Card) -> tuple[Box, ...]:
    """The empty boxes, in card order."""
    return tuple(box for box, points in zip(BOXES, card) if points is None)


def allowed_boxes(card: Card, dice: Dice) -> tuple[Box, ...]:
    """The empty boxes the dice may be scored in: any, except under the joker rule, which
    forces the upper box of the face if empty, else the empty lower boxes, else the empty upper ones."""
    empty = open_boxes(card)
    if not is_joker(card, dice):
        return empty
    own = UPPER[dice[0] - 1]
    if own in empty:
        return (own,)
    lower = tuple(box for box in empty if box in LOWER)
    return lower or empty


def points_for(card: Card, box: Box, dice: Dice) -> int:
    """What scoring ``dice`` in ``box`` writes there (the joker rule applied)."""
    return box_score(box, dice, is_joker(card, dice))


def earns_extra_yacht(card: Card, dice: Dice) -> bool:
    """Whether scoring ``dice`` earns the extra-Yacht bonus: five of a kind while the Yacht box holds 50."""
    return is_yacht(dice) and card[Box.YACHT.index] == YACHT_POINTS


def upper_total(card: Card) -> int:
    """The six upper boxes added up (empty ones as 0)."""
    return sum(points or 0 for points in card[: len(UPPER)])


def upper_bonus(card: Card) -> int:
    """35 once the upper boxes add up to 63 or more, else 0."""
    return UPPER_BONUS if upper_total(card) >= UPPER_BONUS_FROM else 0


def card_total(card: Card, extra_yachts: int) -> int:
    """Upper boxes + upper bonus + lower boxes + extra-Yacht bonuses."""
    return sum(points or 0 for points in card) + upper_bonus(card) + EXTRA_YACHT_BONUS * extra_yachts


def parse_box(name: str) -> Box:
    """The box written ``name`` (``full-house``); a StateFormatError lists the names."""
    try:
        return Box(name)
    except ValueError:
        names = ", ".join(box.value for box in BOXES)
        raise StateFormatError(f"no box {name!r}: the boxes are {names}") from None


def possible_points(box: Box) -> frozenset[int]:
    """Every number the rules can write in ``box`` (to refuse a card no game could reach)."""
    if box.is_upper:
        return frozenset(box.face * count for count in range(6))
    if box in FIXED_POINTS:
        return frozenset({0, FIXED_POINTS[box]})
    sums = frozenset(range(5, 31))
    return sums if box is Box.CHANCE else sums | {0}
