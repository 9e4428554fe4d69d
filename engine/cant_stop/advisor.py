"""The advisor: expectimax over the rest of the turn, with a computed value of board positions.

A board is valued by the progress it holds: each open column's share of its climb raised
to :attr:`AdvisorParams.progress_power` (slightly above 1: the last spaces count a little
more), weighed by rank (the columns nearest the top count fully, later ones less, since only a
few are needed to win), plus a bonus per claimed column; a winning position is worth
:data:`WIN`. Against rivals that value becomes a race: it maps to the turns still needed to win
(fitted on the advisor's own solitaire play), and the position is worth the logistic chance of
winning given the rival's turns still needed and who moves next; that makes the advisor careful
when ahead and bold when behind. Within a turn the advisor compares banking now with the
expected worth of rolling once more (busting keeps only the banked board), and picks the split
whose resulting turn is worth most looking two rolls ahead once all runners are out, one before
(new runners make that tree wide). Rolls are grouped by the choices they allow, which keeps a
decision to about a millisecond (under 100 ms at worst on this machine). The lookahead models
the standard rules; the moves played are always the engine's legal ones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from engine.cant_stop.board import COLUMNS, DICE, HEIGHTS, MAX_RUNNERS
from engine.cant_stop.moves import Advance
from engine.cant_stop.rules import pairings
from engine.cant_stop.state import State
from engine.dice import FACES, all_rolls

WIN = 1000.0
Runners = tuple[tuple[int, int], ...]  # (column, space), sorted
Rooms = tuple[tuple[int, int], ...]  # (column, spaces left to the top, capped at 2)
Outcomes = tuple[tuple[tuple[tuple[int, ...], ...], float], ...]  # (the choices a roll allows, probability)


@dataclass(frozen=True)
class AdvisorParams:
    """How the advisor values a board (tuned on solitaire games and games against Rule of 28)."""

    progress_power: float = 1.15  # a column's share of its climb is raised to this power
    claim_bonus: float = 0.6  # worth of a claimed column above its full climb (which counts 1)
    rank_weights: tuple[float, ...] = (1, 1, 1, 0.5, 0.3, 0.2, 0.1, 0.1, 0.1, 0.1, 0.1)  # by column rank
    race_scale: float = 0.4  # per turn of lead, in the logistic chance of winning a race (0: value progress alone)
    turns_left_at_zero: float = 8.0  # expected turns to win from a board worth 0 (fitted on the advisor's solitaire play)
    turns_per_value: float = 1.55  # ...and how many fewer per unit of board value
    stop_lookahead: int = 1  # rolls looked ahead when deciding to stop
    choice_lookahead: int = 2  # rolls looked ahead when choosing a split with all runners out...
    open_choice_lookahead: int = 1  # ...and while runners may still be placed: that tree is wide, so slow


def board_value(spaces: Mapping[int, int], dead: frozenset[int], to_win: int, params: AdvisorParams) -> float:
    """The worth of a player's pieces at ``spaces`` (column -> space), columns in ``dead`` lost."""
    shares = []
    claimed = 0
    for column in COLUMNS:
        if column in dead:
            continue
        space = spaces[column]
        if space >= HEIGHTS[column]:
            claimed += 1
        else:
            shares.append((space / HEIGHTS[column]) ** params.progress_power)
    if claimed >= to_win:
        return WIN
    shares.sort(reverse=True)
    weights = params.rank_weights[claimed:]
    return claimed * (1 + params.claim_bonus) + sum(w * s for w, s in zip(weights, shares[: to_win - claimed + 2]))


def _choices(rooms: Mapping[int, int], blocked: frozenset[int], dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The columns each legal choice of a roll advances, under the standard rules."""
    free = MAX_RUNNERS - len(rooms)

    def usable(column: int) -> bool:
        return column not in blocked and (rooms[column] > 0 if column in rooms else free > 0)

    found: set[tuple[int, ...]] = set()
    for low, high in pairings(dice):
        if low == high:
            if usable(low):
                found.add((low, low) if rooms.get(low, 2) >= 2 else (low,))
        elif usable(low) and usable(high):
            if (low not in rooms) + (high not in rooms) <= free:
                found.add((low, high))
            else:
                found.update(((low,), (high,)))
        elif usable(low) or usable(high):
            found.add((low,) if usable(low) else (high,))
    return tuple(sorted(found))


@lru_cache(maxsize=65536)
def outcomes(rooms: Rooms, blocked: frozenset[int]) -> tuple[Outcomes, float]:
    """The next roll's outcomes grouped by the choices they allow, and the chance of a bust."""
    grouped: dict[tuple[tuple[int, ...], ...], float] = {}
    throws = len(FACES) ** DICE
    for roll, weight in all_rolls(DICE):
        options = _choices(dict(rooms), blocked, roll.dice)
        grouped[options] = grouped.get(options, 0.0) + weight / throws
    bust = grouped.pop((), 0.0)
    return tuple(grouped.items()), bust


class TurnSearch:
    """The values of the current player's turn from ``state``, memoised for one decision."""

    def __init__(self, state: State, params: AdvisorParams) -> None:
        me = state.current
        self.params = params
        self.base = {column: state.saved_space(me, column) for column in COLUMNS}
        self.dead = frozenset(c for c in COLUMNS if state.owner(c) not in (None, me))
        self.blocked = frozenset(c for c in COLUMNS if state.owner(c) is not None)
        self.to_win = state.variant.columns_to_win
        self.runners: Runners = tuple(sorted(state.runners))
        self.rival_turns = min(
            (self._turns_left(board_value(
                {c: state.saved_space(p, c) for c in COLUMNS},
                frozenset(c for c in COLUMNS if state.owner(c) not in (None, p)), self.to_win, params,
            )) for p in range(state.players) if p != me),
            default=None,
        )
        self.top = self.worth(WIN)
        self.busted = self.worth(board_value(self.base, self.dead, self.to_win, params))
        self._memo: dict[tuple[Runners, int], float] = {}

    def _turns_left(self, value: float) -> float:
        return self.params.turns_left_at_zero - self.params.turns_per_value * value

    def worth(self, value: float) -> float:
        """What a board value is worth to the player: with rivals and a race scale, the chance of
        winning the race (the rival moves next), else the value itself."""
        if self.rival_turns is None or not self.params.race_scale:
            return value
        if value >= WIN:
            return 1.0
        lead = self.rival_turns - self._turns_left(value) - 0.5
        return 1.0 / (1.0 + math.exp(-self.params.race_scale * lead))

    def banked(self, runners: Runners) -> float:
        """The worth if the turn ended now with ``runners`` banked."""
        spaces = dict(self.base)
        spaces.update(runners)
        return self.worth(board_value(spaces, self.dead, self.to_win, self.params))

    def advanced(self, runners: Runners, columns: tuple[int, ...]) -> Runners:
        """The runners after a choice advancing ``columns``."""
        spaces = dict(runners)
        for column in columns:
            spaces[column] = min(spaces.get(column, self.base[column]) + 1, HEIGHTS[column])
        return tuple(sorted(spaces.items()))

    def rolling(self, runners: Runners, lookahead: int) -> float:
        """The expected worth of rolling once more, then playing on ``lookahead - 1`` rolls at best."""
        rooms = tuple((column, min(HEIGHTS[column] - space, 2)) for column, space in runners)
        groups, bust = outcomes(rooms, self.blocked)
        total = bust * self.busted
        for options, chance in groups:
            total += chance * max(self.value(self.advanced(runners, o), lookahead - 1) for o in options)
        return total

    def value(self, runners: Runners, lookahead: int) -> float:
        """The worth of the turn with ``runners`` out: banking, or rolling on if that is worth more."""
        key = (runners, lookahead)
        if key not in self._memo:
            worth = self.banked(runners)
            if worth < self.top and lookahead > 0:
                worth = max(worth, self.rolling(runners, lookahead))
            self._memo[key] = worth
        return self._memo[key]


@dataclass(frozen=True)
class Advisor:
    """The strongest bot here, and the OLED's coach."""

    params: AdvisorParams = AdvisorParams()
    name: str = "advisor"

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        worths = self.split_worths(state, options)
        return max(options, key=lambda o: (worths[o], o))

    def should_stop(self, state: State) -> bool:
        stop, roll = self.stop_or_roll_worths(state)
        return stop >= roll

    def split_worths(self, state: State, options: tuple[Advance, ...]) -> dict[Advance, float]:
        """What each split of the roll is worth (the chance of winning, against rivals)."""
        search = TurnSearch(state, self.params)
        placed = len(state.runners) == MAX_RUNNERS
        lookahead = self.params.choice_lookahead if placed else self.params.open_choice_lookahead
        return {o: search.value(search.advanced(search.runners, o.columns), lookahead) for o in options}

    def stop_or_roll_worths(self, state: State) -> tuple[float, float]:
        """What stopping now and rolling once more are worth; a stop that wins is worth all."""
        search = TurnSearch(state, self.params)
        banked = search.banked(search.runners)
        if banked >= search.top:  # rolling can only match it (a sum of chances may round a hair above)
            return banked, min(banked, search.rolling(search.runners, 0))
        return banked, search.rolling(search.runners, self.params.stop_lookahead)
