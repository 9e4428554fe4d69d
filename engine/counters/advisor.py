"""The advisor: exact expectation over the rest of the turn, maximising a value of the board.

Within a turn only the dice are uncertain, and there are few of them: 252 results of five dice,
210 ways to set some aside. For each kept set the distribution of the next result is computed
once (:func:`engine.dice_tables.dice_tables`, shared with Yacht), so the worth of every result after the third, second and first throw
follows by two matrix products: after a throw the player takes the option worth most, or keeps
the dice whose next throw is worth most on average. The options of a result are reduced to their
effects (which columns climb how many squares), and each effect is valued once per turn on the
board it leaves, rockets' extra squares placed at best: a decision costs a few milliseconds, and
the later throws of the same turn reuse the turn's tables.

The value of a board (:class:`AdvisorParams`) is a race between the player's cost to finish and
the leading opponent's, worth :data:`WIN` times a logistic chance of finishing first (the
opponent moves next, and the spread shrinks as the end nears: bold when behind, careful ahead).
A player's cost counts the squares still needed to bring the cheapest counters into space (five
with two players, else four), each column's need a little convex, so needs spread over several
columns (which more throws serve) cost less than one long climb; for the counters left out it
counts a price for each still on the bottom row. To that comes the expected harm of the next
cool-down: for every counter that can be sent down (not on a star or the bottom row, in a column
where an opponent can still climb two squares) the chance of one, times what losing that square
would cost; sending the opponent's counters down raises their cost the same way. A counter on a
blue star, whose dice are wild cards, is worth a bonus. Squares above space count only as that
safety. A board where the player has won is worth WIN.
"""

from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Callable

import numpy as np

from engine.counters.board import STRAIGHT, Board
from engine.counters.moves import Keep, Move, Pass, Rocket, Take
from engine.counters.options import KIND_ORDER, Kind, Option, options
from engine.counters.rules import COLUMNS, COOL_DOWN_FROM, MAX_THROWS, apply, legal_moves
from engine.counters.state import IN_SPACE_TO_WIN, Phase, Positions, State, has_wild_card
from engine.dice_tables import dice_tables

WIN = 1000.0
"""The worth of a won game; a race still open is worth WIN times the chance of winning it."""

Effect = tuple[tuple[int, int], ...]
"""What an option does: (column, squares) per group, sorted by column."""

CACHED_ROWS = 4096
"""Boards whose cost and race are remembered: a turn values a few hundred. A small cache keeps the
garbage collector's full passes short (with 65536, a few decisions in ten thousand took 50-180 ms)."""
SHOWN_CHANCES = 3
MIN_CHANCE = 0.005
TIE = 1e-9


@dataclass(frozen=True)
class AdvisorParams:
    """How the advisor values a board; costs are in squares of a face column."""

    straight_square: float = 1.0  # cost of one square of the Straight column
    bottom_row: float = 1.0  # cost of a counter left out of space but still on the bottom row
    cool_face: float = 0.2  # chance per opponent's turn that a face column is cooled down
    cool_straight: float = 0.4  # ...and the Straight column
    wild_bonus: float = 2.0  # worth of having a counter on a blue star (wild cards)
    balance: float = 0.03  # a column's cost is need + balance * need**2: needs spread out are cheaper
    race_spread: float = 0.5  # 0: the race is the difference of costs; else a chance of winning (race_value)
    tempo: float = 3.0  # squares the opponent, moving next, is worth ahead in that chance


@dataclass(frozen=True)
class Advice:
    """The advised move, its expected worth (in the units of :data:`WIN`), and the chances of the options it leads to.

    ``chances``: up to three option kinds with the probability of ending the turn with that kind
    when the advice is followed (now and on later throws), the likeliest first.
    """

    move: Move
    value: float
    chances: tuple[tuple[Kind, float], ...] = ()


# --- the options of every result: computed once ---------------------------------------------


@dataclass(frozen=True)
class OptionTables:
    """The options of every result of five dice (:func:`engine.dice_tables.dice_tables`), as effects.

    ``option_effects[wild][d]`` lists the effects (indices into ``effects``, padded with the index
    ``len(effects)``, which is worth nothing) result ``d`` allows, plain or with wild cards, and
    ``option_kinds`` their kinds (indices into KIND_ORDER).
    """

    effects: tuple[Effect, ...]
    effect_index: dict[Effect, int]
    option_effects: tuple[np.ndarray, np.ndarray]
    option_kinds: tuple[np.ndarray, np.ndarray]


def effect_of(option: Option) -> Effect:
    """The columns an option moves and by how many squares."""
    return tuple(sorted((g.column, g.squares) for g in option.groups))


def _usable_options(dice: tuple[int, ...], wild: bool) -> list[Option]:
    plain = options(dice)
    if not wild:
        return list(plain)
    return [o.sent_to(c) for o in plain for c in itertools.permutations(COLUMNS, len(o.groups))]


@cache
def option_tables() -> OptionTables:
    """The options of every result, built once per process (the first Advisor builds them)."""
    effects: dict[Effect, int] = {}
    per_wild = []
    for wild in (False, True):
        rows = []
        for dice in dice_tables().results:
            seen: dict[int, int] = {}
            for option in _usable_options(dice, wild):
                index = effects.setdefault(effect_of(option), len(effects))
                seen.setdefault(index, KIND_ORDER.index(option.kind))
            rows.append(seen)
        per_wild.append(rows)
    nothing = len(effects)
    option_effects, option_kinds = [], []
    for rows in per_wild:
        width = max(len(r) for r in rows)
        option_effects.append(np.array([list(r) + [nothing] * (width - len(r)) for r in rows], dtype=np.intp))
        option_kinds.append(np.array([list(r.values()) + [-1] * (width - len(r)) for r in rows], dtype=np.intp))
    return OptionTables(tuple(effects), effects, (option_effects[0], option_effects[1]),
                        (option_kinds[0], option_kinds[1]))


# --- the board: rules replayed on plain tuples, and the value ---------------------------------


@dataclass(frozen=True)
class Geometry:
    """A board's numbers as plain tuples, for speed."""

    tops: tuple[int, ...]
    space_from: tuple[int, ...]
    stars: tuple[frozenset[int], ...]
    blue_stars: tuple[frozenset[int], ...]
    rockets: tuple[frozenset[int], ...]

    @staticmethod
    def of(board: Board) -> Geometry:
        cols = board.columns
        return Geometry(
            tuple(c.top for c in cols),
            tuple(c.space_from for c in cols),
            tuple(c.pink_stars | c.blue_stars for c in cols),
            tuple(c.blue_stars for c in cols),
            tuple(c.rockets for c in cols),
        )


def _with(rows: Positions, player: int, column: int, square: int) -> Positions:
    row = rows[player]
    return rows[:player] + (row[:column] + (square,) + row[column + 1 :],) + rows[player + 1 :]


def after_effect(geo: Geometry, rows: Positions, me: int, effect: Effect) -> tuple[Positions, int]:
    """The positions after the current player's option moved ``effect``, and the rocket squares due."""
    rockets = 0
    for column, squares in effect:
        start = rows[me][column]
        end = min(start + squares, geo.tops[column])
        rows = _with(rows, me, column, end)
        if end - start >= COOL_DOWN_FROM:
            for other, row in enumerate(rows):
                square = row[column]
                if other != me and square > 0 and square not in geo.stars[column]:
                    rows = _with(rows, other, column, square - 1)
        rockets += end > start and end in geo.rockets[column]
    return rows, rockets


def race_value(mine: float, theirs: float, params: AdvisorParams) -> float:
    """The worth of a race where the player still needs ``mine`` and the leading opponent ``theirs``.

    Plain difference, or (``race_spread`` > 0) WIN times a logistic chance of finishing first, its
    spread growing with the square root of what both still need: bold when behind, careful ahead.
    """
    if not params.race_spread:
        return theirs - mine
    spread = params.race_spread * math.sqrt(max(mine + theirs, 1.0))
    return WIN / (1.0 + math.exp(-(theirs - mine - params.tempo) / spread))


class BoardValue:
    """The value of boards from one player's side (see the module docstring), cached by row."""

    def __init__(self, geo: Geometry, players: int, params: AdvisorParams) -> None:
        self.geo = geo
        self.params = params
        self.to_win = IN_SPACE_TO_WIN[players]
        self.left_out = len(COLUMNS) - self.to_win
        self.weights = tuple(params.straight_square if c == STRAIGHT else 1.0 for c in COLUMNS)
        self.cool = tuple(params.cool_straight if c == STRAIGHT else params.cool_face for c in COLUMNS)
        self.cost = lru_cache(maxsize=CACHED_ROWS)(self._cost)
        self.race = lru_cache(maxsize=CACHED_ROWS)(self._race)

    def has_won(self, row: tuple[int, ...]) -> bool:
        space = self.geo.space_from
        return 0 not in row and sum(s >= f for s, f in zip(row, space)) >= self.to_win

    def _needs(self, row: tuple[int, ...]) -> list[int]:
        return [max(0, f - s) for s, f in zip(row, self.geo.space_from)]

    def _base(self, row: tuple[int, ...]) -> float:
        balance = self.params.balance
        needs = [(n + balance * n * n) * w for n, w in zip(self._needs(row), self.weights)]
        savings = sorted((n - (self.params.bottom_row if s == 0 else 0.0) for n, s in zip(needs, row)), reverse=True)
        return sum(needs) - sum(savings[: self.left_out])

    def _cost(self, row: tuple[int, ...], threats: tuple[bool, ...]) -> float:
        """Squares still to climb, plus the expected harm of the next cool-down, less the wild card."""
        geo = self.geo
        base = self._base(row)
        risk = 0.0
        for column, square in enumerate(row):
            if threats[column] and square > 0 and square not in geo.stars[column]:
                lower = row[:column] + (square - 1,) + row[column + 1 :]
                risk += self.cool[column] * (self._base(lower) - base)
        wild = any(s in b for s, b in zip(row, geo.blue_stars))
        return base + risk - self.params.wild_bonus * wild

    def _threats(self, rows: Positions, player: int) -> tuple[bool, ...]:
        """Columns where some opponent of ``player`` can still climb two squares (and so cool down)."""
        tops = self.geo.tops
        return tuple(
            any(tops[c] - row[c] >= COOL_DOWN_FROM for p, row in enumerate(rows) if p != player) for c in COLUMNS
        )

    def _race(self, rows: Positions, me: int) -> float:
        if self.has_won(rows[me]):
            return WIN
        mine = self.cost(rows[me], self._threats(rows, me))
        theirs = min(self.cost(row, self._threats(rows, p)) for p, row in enumerate(rows) if p != me)
        return race_value(mine, theirs, self.params)

    def __call__(self, rows: Positions, me: int) -> float:
        """The board's worth to player ``me``: the race, or WIN."""
        return self.race(rows, me)

    def settled(self, rows: Positions, me: int, rockets: int) -> float:
        """The worth of the board once ``rockets`` rocket squares are placed at best (a win ends it)."""
        if not rockets or self.has_won(rows[me]):
            return self(rows, me)
        best = -np.inf
        for column in COLUMNS:
            square = rows[me][column]
            if square < self.geo.tops[column]:
                landed = square + 1 in self.geo.rockets[column]
                best = max(best, self.settled(_with(rows, me, column, square + 1), me, rockets - 1 + landed))
        return float(best) if np.isfinite(best) else self(rows, me)  # every counter at the top: never due


# --- a turn's plan ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnPlan:
    """A turn's tables, for one board: the worth of each effect, and of each result after each throw.

    ``worth[t][d]``: the expected value of holding result ``d`` after throw ``t`` (1..3), playing on
    at best; ``keep_worth[t][k]``: of keeping ``keeps[k]`` after throw ``t`` (1, 2) and throwing on.
    """

    wild: bool
    effect_worth: np.ndarray
    take_worth: np.ndarray  # per result: the best option's worth, -inf where none
    take_choice: np.ndarray  # per result: the column of that option in option_effects
    worth: dict[int, np.ndarray]
    keep_worth: dict[int, np.ndarray]
    keep_choice: dict[int, np.ndarray]  # per result after throw t: the column of the best keep in sub_keeps


def plan_turn(value: BoardValue, rows: Positions, me: int, wild: bool) -> TurnPlan:
    """Every effect valued on ``rows``, then the worth of every result and keep, last throw first."""
    tables, opts = dice_tables(), option_tables()
    effects = opts.option_effects[wild]
    needed = np.unique(effects)
    effect_worth = np.full(len(opts.effects) + 1, -np.inf)
    for index in needed[needed < len(opts.effects)]:
        moved, rockets = after_effect(value.geo, rows, me, opts.effects[index])
        effect_worth[index] = value.settled(moved, me, rockets)
    per_option = effect_worth[effects]
    take_choice = per_option.argmax(axis=1)
    take_worth = per_option[np.arange(len(take_choice)), take_choice]
    worth = {MAX_THROWS: np.where(np.isfinite(take_worth), take_worth, value(rows, me))}
    keep_worth, keep_choice = {}, {}
    for throw in range(MAX_THROWS - 1, 0, -1):
        keep_worth[throw] = tables.throw_probs @ worth[throw + 1]
        subs = keep_worth[throw][tables.sub_keeps]
        keep_choice[throw] = subs.argmax(axis=1)
        worth[throw] = np.maximum(take_worth, subs.max(axis=1))
    return TurnPlan(wild, effect_worth, take_worth, take_choice, worth, keep_worth, keep_choice)


def kind_chances(plan: TurnPlan) -> dict[int, np.ndarray]:
    """Per throw 2..3 and kept set: the probability of ending the turn with each kind (KIND_ORDER)."""
    tables = dice_tables()
    kinds = option_tables().option_kinds[plan.wild]
    chosen = kinds[np.arange(len(plan.take_choice)), plan.take_choice]
    ends = np.zeros((len(chosen), len(KIND_ORDER)))
    ends[chosen >= 0, chosen[chosen >= 0]] = 1.0  # no option: the turn ends with nothing
    per_keep: dict[int, np.ndarray] = {}
    holding = ends
    for throw in range(MAX_THROWS - 1, 0, -1):
        per_keep[throw + 1] = tables.throw_probs @ holding
        keeping = plan.take_worth + TIE < plan.worth[throw]
        best_keep = tables.sub_keeps[np.arange(len(chosen)), plan.keep_choice[throw]]
        holding = np.where(keeping[:, None], per_keep[throw + 1][best_keep], ends)
    return per_keep


class Advisor:
    """Decides by exact expectation over the turn's remaining throws (see the module docstring)."""

    name = "advisor"

    def __init__(self, params: AdvisorParams | None = None, name: str = "advisor") -> None:
        self.params = params or AdvisorParams()
        self.name = name
        option_tables()  # built here (about 0.1 s, once per process), not in the first decision
        self._values: dict[tuple[Board, int], BoardValue] = {}
        self._plans: OrderedDict[tuple[Board, Positions, int], TurnPlan] = OrderedDict()

    def value(self, state: State) -> BoardValue:
        """The board value for this state's board and player count."""
        key = (state.board, state.players)
        if key not in self._values:
            self._values[key] = BoardValue(Geometry.of(state.board), state.players, self.params)
        return self._values[key]

    def plan(self, state: State) -> TurnPlan:
        """The current turn's tables (kept for the turn's later decisions)."""
        key = (state.board, state.positions, state.current)
        plan = self._plans.get(key)
        if plan is None:
            wild = has_wild_card(state, state.current)
            plan = plan_turn(self.value(state), state.positions, state.current, wild)
            self._plans[key] = plan
            if len(self._plans) > 16:
                self._plans.popitem(last=False)
        return plan

    def choose(self, state: State) -> Move:
        return self._decide(state)[0]

    def advise(self, state: State) -> Advice:
        """The advised move, its worth, and the chances of the option kinds it leads to."""
        move, worth = self._decide(state)
        chances: tuple[tuple[Kind, float], ...] = ()
        if isinstance(move, Take):
            chances = ((move.option.kind, 1.0),)
        elif isinstance(move, Keep):
            tables = dice_tables()
            shares = kind_chances(self.plan(state))[state.throws + 1][tables.keep_index[move.dice]]
            ranked = sorted(
                ((KIND_ORDER[k], float(p)) for k, p in enumerate(shares) if p >= MIN_CHANCE), key=lambda kp: -kp[1]
            )
            chances = tuple(ranked[:SHOWN_CHANCES])
        return Advice(move, worth, chances)

    def _decide(self, state: State) -> tuple[Move, float]:
        worths = self.worths(state)
        return max(worths, key=lambda found: found[1])  # the first of equals: takes come before keeps

    def worths(self, state: State) -> list[tuple[Move, float]]:
        """Every legal move with its expected worth (in the units of :data:`WIN`), in the rules' order."""
        moves = legal_moves(state)
        if not moves:
            why = "dice are due" if state.phase is Phase.THROW else "the game is over"
            raise ValueError(f"no decision to advise in phase {state.phase.value}: {why}")
        value, me = self.value(state), state.current
        scored: Callable[[Move], float]
        if state.phase is Phase.HANDICAP:
            scored = lambda m: value(apply(state, m).positions, me)  # noqa: E731
        elif state.phase is Phase.ROCKET:
            scored = lambda m: _rocket_worth(value, state, m)  # noqa: E731
        else:
            scored = self._choice_worth(state)
        return [(m, scored(m)) for m in moves]

    def _choice_worth(self, state: State) -> Callable[[Move], float]:
        plan = self.plan(state)
        tables = dice_tables()
        rows, me = state.positions, state.current
        value = self.value(state)

        def worth(move: Move) -> float:
            if isinstance(move, Take):
                return float(plan.effect_worth[option_tables().effect_index[effect_of(move.option)]])
            if isinstance(move, Keep):  # a keep must do better than a take by more than rounding
                return float(plan.keep_worth[state.throws][tables.keep_index[move.dice]]) - TIE
            return value(rows, me)  # pass

        return worth


def _rocket_worth(value: BoardValue, state: State, move: Rocket | Pass) -> float:
    me = state.current
    if isinstance(move, Pass):  # the square left unused
        return value.settled(state.positions, me, state.rockets - 1)
    column = move.column
    square = state.square(me, column) + 1
    landed = square in state.board[column].rockets
    return value.settled(_with(state.positions, me, column, square), me, state.rockets - 1 + landed)
