"""The optimal solitaire advisor: the strategy that maximises a lone player's expected final score.

Between turns only three things about a card matter for the rest of the game: which boxes are
open, the upper total (capped at 63, where the bonus is earned) and whether the Yacht box holds 50
(extra Yachts then earn 100). :func:`solve` computes, by retrograde analysis, the expected score
still to come from each of these 2^13 x 64 x 2 positions at the start of a turn (the table; the
upper bonus counts as still to come until the card is full), fullest cards first: a card's value
needs only the cards with one more box filled. Within a turn the dice are exact expectations over
the shared tables of five dice (:mod:`engine.dice_tables`): the worth of scoring each result now,
then of keeping before the third and the second roll. Every upper total and Yacht flag a card can
have is valued at once, as columns of one array; totals its filled upper boxes cannot add up to
are skipped (left NaN).

The game is worth 254.5877 under this project's rules, and 254.5896 (the published figure) under
the reading of the joker rule the publication assumes (:class:`Joker`). Computing the table takes
about 17 s on one core of the development machine.

The table is pure data: the firmware stores it (:func:`table_to_bytes`, :func:`table_digest`)
and reads it back (:func:`table_from_bytes` refuses a damaged one). With it in memory,
:func:`choices` values every choice of a decision in about half a millisecond (:class:`Advisor`
reuses a turn's plan for its later decisions).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import Enum
from functools import cache

import numpy as np

from engine.dice_tables import DiceTables, best_keep_worth, dice_tables
from engine.errors import StateFormatError
from engine.keeps import Keep
from engine.yacht.boxes import (
    BOXES,
    EXTRA_YACHT_BONUS,
    LOWER,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_FROM,
    YACHT_POINTS,
    Box,
    Card,
    box_score,
    is_yacht,
)
from engine.yacht.moves import Move, Score
from engine.yacht.rules import MAX_ROLLS, legal_moves
from engine.yacht.state import Phase, State

CARDS = 2 ** len(BOXES)
"""Sets of filled boxes: bit i set when BOXES[i] is filled."""
FULL = CARDS - 1
UPPERS = UPPER_BONUS_FROM + 1
"""Upper totals 0..63, 63 standing for 63 or more."""
TABLE_SHAPE = (CARDS, UPPERS, 2)
"""``table[filled, upper, yacht50]``: the expected score still to come at the start of a turn."""
YACHT_BIT = 1 << Box.YACHT.index
UPPER_BITS = (1 << len(UPPER)) - 1
TABLE_HEADER = b"yacht-advisor-table 1\n"
"""Starts :func:`table_to_bytes`; the number changes whenever the rules or the table's layout do."""


@dataclass(frozen=True)
class Position:
    """What of a card matters to the rest of the game: the filled boxes (bits), the upper total
    capped at 63, whether the Yacht box holds 50."""

    filled: int
    upper: int
    yacht50: bool

    @staticmethod
    def of(card: Card) -> Position:
        bits = sum(1 << i for i, points in enumerate(card) if points is not None)
        upper = min(sum(points or 0 for points in card[: len(UPPER)]), UPPER_BONUS_FROM)
        return Position(bits, upper, card[Box.YACHT.index] == YACHT_POINTS)


@dataclass(frozen=True)
class ScoreTables:
    """What every result of five dice scores in every box: ``plain[b, d]``, and ``joker[b, d]`` with
    five of a kind scored as a joker; ``yachts[f - 1]`` is the result of five ``f``s."""

    plain: np.ndarray
    joker: np.ndarray
    yachts: np.ndarray


@cache
def score_tables() -> ScoreTables:
    """The scores, computed once per process from the rules' own :func:`box_score`."""
    results = dice_tables().results
    plain = np.array([[box_score(box, dice) for dice in results] for box in BOXES], dtype=np.float64)
    joker = np.array([[box_score(box, dice, is_yacht(dice)) for dice in results] for box in BOXES], dtype=np.float64)
    yachts = np.array([dice_tables().result_index[(face,) * 5] for face in range(1, 7)], dtype=np.intp)
    return ScoreTables(plain, joker, yachts)


@cache
def reachable_uppers() -> np.ndarray:
    """``reachable_uppers()[bits]``: the capped upper totals the filled upper boxes ``bits`` can add up to."""
    found = np.zeros((1 << len(UPPER), UPPERS), dtype=bool)
    for bits in range(1 << len(UPPER)):
        totals = {0}
        for box in UPPER:
            if bits >> box.index & 1:
                totals = {min(t + box.face * n, UPPER_BONUS_FROM) for t in totals for n in range(6)}
        found[bits, sorted(totals)] = True
    return found


class Joker(Enum):
    """How a five of a kind is scored while the Yacht box is filled.

    FORCED is the rule this project plays (``shared/rules/yacht.md``, the maker's wording): the
    face's upper box if empty, else an empty lower box as a joker, else an upper box for 0; the
    game is worth 254.5877 under it. PUBLISHED is T. Verhoeff's reading, which the published
    254.5896 assumes (J. Glenn's 254.59 fits either): any empty box, the full house and the
    straights scoring 25/30/40 only while the face's upper box is filled. Only the check of the
    solver against the publication uses it; the engine plays FORCED.
    """

    FORCED = "forced"
    PUBLISHED = "published"


JOKER_BOXES = [Box.FULL_HOUSE.index, Box.SMALL_STRAIGHT.index, Box.LARGE_STRAIGHT.index]


def box_values(
    table: np.ndarray, filled: int, uppers: np.ndarray, yachts: np.ndarray, joker: Joker = Joker.FORCED
) -> np.ndarray:
    """``values[b, d, c]``: the expected score still to come when result ``d`` is scored in box ``b``
    for the position of column ``c`` (upper total ``uppers[c]``, Yacht flag ``yachts[c]``); -inf
    where the box is filled or the joker rule forbids it. Extra-Yacht bonuses included."""
    scores = score_tables()
    joker_now = bool(filled & YACHT_BIT)
    per_box = scores.joker if joker_now else scores.plain
    values = np.full((len(BOXES), len(scores.plain[0]), len(uppers)), -np.inf)
    for box in BOXES:
        if filled >> box.index & 1:
            continue
        after = table[filled | 1 << box.index]
        points = per_box[box.index][:, None]
        if box.is_upper:
            values[box.index] = points + after[np.minimum(uppers + points, UPPER_BONUS_FROM).astype(np.intp), yachts]
        elif box is Box.YACHT:
            values[box.index] = points + after[uppers, np.where(points == YACHT_POINTS, 1, yachts)]
        else:
            values[box.index] = points + after[uppers, yachts]
    if joker_now:
        _joker_rule(values, filled, yachts, joker)
    return values


def _joker_rule(values: np.ndarray, filled: int, yachts: np.ndarray, joker: Joker) -> None:
    """Five of a kind with the Yacht box filled: only the boxes the joker rule allows (see
    :class:`Joker`), plus the extra-Yacht bonus where the Yacht box holds 50."""
    scores = score_tables()
    lower_open = any(not filled >> box.index & 1 for box in LOWER)
    for face, row in enumerate(scores.yachts, start=1):
        own = UPPER[face - 1].index
        own_open = not filled >> own & 1
        if joker is Joker.FORCED:
            if own_open:
                values[[box.index for box in BOXES if box.index != own], row] = -np.inf
            elif lower_open:
                values[[box.index for box in UPPER], row] = -np.inf
        elif own_open:  # PUBLISHED: no joker while the face's upper box is empty
            values[JOKER_BOXES, row] -= (scores.joker - scores.plain)[JOKER_BOXES, row][:, None]
        values[:, row] += EXTRA_YACHT_BONUS * yachts


@dataclass(frozen=True)
class TurnPlan:
    """A turn's worths for one position (columns, as in :func:`box_values`): ``boxes[b, d]``
    scoring result ``d`` in box ``b``; ``keeps[r][k]`` keeping ``keeps[k]`` after roll ``r`` (1, 2)."""

    boxes: np.ndarray
    keeps: dict[int, np.ndarray]
    start: np.ndarray


def plan(
    table: np.ndarray, filled: int, uppers: np.ndarray, yachts: np.ndarray, joker: Joker = Joker.FORCED
) -> TurnPlan:
    """The worth of every score and keep of a turn, last roll first, and the turn's worth before it."""
    tables = dice_tables()
    boxes = box_values(table, filled, uppers, yachts, joker)
    score_now = boxes.max(axis=0)
    keeps, after_roll = {}, score_now
    for roll in range(MAX_ROLLS - 1, 0, -1):
        keeps[roll] = tables.throw_probs @ after_roll
        after_roll = np.maximum(score_now, best_keep_worth(tables, keeps[roll]))
    return TurnPlan(boxes, keeps, _first_roll(tables) @ after_roll)


def _first_roll(tables: DiceTables) -> np.ndarray:
    return tables.throw_probs[tables.keep_index[()]]


def solve(joker: Joker = Joker.FORCED) -> np.ndarray:
    """The table (:data:`TABLE_SHAPE`): the expected score still to come from every reachable
    position at the start of a turn; NaN where no card can be. ``table[0, 0, 0]`` is the game's
    expected score under optimal play: 254.5877 under this project's rules (254.5896 under the
    published reading, see :class:`Joker`). About 17 s on one core of the development machine."""
    table = np.full(TABLE_SHAPE, np.nan)
    table[FULL] = 0.0
    table[FULL, UPPER_BONUS_FROM] = UPPER_BONUS
    reachable = reachable_uppers()
    for filled in range(FULL - 1, -1, -1):  # a card's successors have larger numbers
        uppers = np.flatnonzero(reachable[filled & UPPER_BITS])
        flags = (0, 1) if filled & YACHT_BIT else (0,)
        columns_up = np.repeat(uppers, len(flags))
        columns_yacht = np.tile(np.array(flags, dtype=np.intp), len(uppers))
        table[filled, columns_up, columns_yacht] = plan(table, filled, columns_up, columns_yacht, joker).start
    return table


def expected_score(table: np.ndarray) -> float:
    """The expected final score of a whole game played by the table: its value at the empty card."""
    return float(table[0, 0, 0])


# --- decisions --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A legal move and the expected final score when it is made and the rest played at best."""

    move: Move
    expected: float


def turn_plan(table: np.ndarray, card: Card) -> TurnPlan:
    """The plan of a turn of ``card`` (one column); the later decisions of a turn can reuse it."""
    position = Position.of(card)
    return plan(table, position.filled, np.array([position.upper]), np.array([int(position.yacht50)]))


def choices(table: np.ndarray, state: State, turn: TurnPlan | None = None) -> tuple[Choice, ...]:
    """Every legal move of the current player (state in phase CHOOSE) with its expected final score:
    the points on the card now (without the upper bonus, which the table counts) plus the table's
    expectation. ``turn``: the turn's plan, if already made."""
    if state.phase is not Phase.CHOOSE:
        raise ValueError(f"no decision to advise in phase {state.phase.value}: the dice are due or the game is over")
    card = state.card
    turn = turn or turn_plan(table, card)
    tables = dice_tables()
    scored = sum(points or 0 for points in card) + EXTRA_YACHT_BONUS * state.extra_yachts[state.current]
    result = tables.result_index[state.dice]

    def worth(move: Move) -> float:
        if isinstance(move, Score):
            return float(turn.boxes[move.box.index, result, 0])
        return float(turn.keeps[state.rolls][tables.keep_index[move.dice], 0])

    return tuple(Choice(move, scored + worth(move)) for move in legal_moves(state))


def best(found: tuple[Choice, ...]) -> Choice:
    """The choice expected to score most; of equals the first (scores come before keeps)."""
    return max(found, key=lambda choice: choice.expected)


class Advisor:
    """The optimal solitaire player, deciding from the table; it remembers the turn being played."""

    name = "optimal"

    def __init__(self, table: np.ndarray) -> None:
        self.table = table
        score_tables()  # built here (a few tens of milliseconds, once per process), not in the first decision
        self._turn: tuple[Card, TurnPlan] | None = None

    def choices(self, state: State) -> tuple[Choice, ...]:
        """Every legal move with its expected final score (see :func:`choices`)."""
        if self._turn is None or self._turn[0] != state.card:
            self._turn = (state.card, turn_plan(self.table, state.card))
        return choices(self.table, state, self._turn[1])

    def choose(self, state: State) -> Move:
        return best(self.choices(state)).move


# --- the table as bytes -----------------------------------------------------------------------


def table_to_bytes(table: np.ndarray) -> bytes:
    """The table as bytes for a file: :data:`TABLE_HEADER`, then little-endian float64s."""
    return TABLE_HEADER + np.ascontiguousarray(table, dtype="<f8").tobytes()


def table_digest(data: bytes) -> str:
    """SHA-256 of the bytes, to store beside them and compare at load."""
    return hashlib.sha256(data).hexdigest()


def table_from_bytes(data: bytes) -> np.ndarray:
    """The table from :func:`table_to_bytes`; StateFormatError when the bytes are not a whole, sane table
    (another header or length, a reachable position without a finite value, a full card's value
    wrong). A digest mismatch is the caller's check; a refused table is to be recomputed."""
    body = data[len(TABLE_HEADER) :]
    if not data.startswith(TABLE_HEADER) or len(body) != 8 * int(np.prod(TABLE_SHAPE)):
        raise StateFormatError("not a Yacht advisor table of this version (header or length differ)")
    table = np.frombuffer(body, dtype="<f8").reshape(TABLE_SHAPE).astype(np.float64)
    uppers = reachable_uppers()[np.arange(CARDS) & UPPER_BITS]
    values = np.where(uppers, table[:, :, 0], 0.0)
    flagged = np.where(uppers & (np.arange(CARDS) & YACHT_BIT > 0)[:, None], table[:, :, 1], 0.0)
    if not (np.isfinite(values).all() and np.isfinite(flagged).all()) or (values < 0).any() or (flagged < 0).any():
        raise StateFormatError("the Yacht advisor table has a reachable position without a sane value")
    full = np.zeros((UPPERS, 2))
    full[UPPER_BONUS_FROM] = UPPER_BONUS
    if not np.array_equal(table[FULL], full):
        raise StateFormatError("the Yacht advisor table's full cards are worth more than their upper bonus")
    return table
