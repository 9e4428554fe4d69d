"""Can't Stop rules: the choices a roll allows, and applying rolls, choices and stops."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from engine.cant_stop.board import COLUMNS, DICE, HEIGHTS, MAX_RUNNERS, column_index
from engine.cant_stop.moves import STOP, Advance, Move, Stop
from engine.cant_stop.state import Phase, State
from engine.cant_stop.variant import Variant
from engine.dice import Roll, check_roll
from engine.errors import IllegalMoveError


def new_game(players: int = 2, variant: Variant | None = None) -> State:
    """The empty board with player 1 to roll; refuses set-ups the rules do not allow."""
    variant = variant or Variant()
    variant.check(players)
    return State(players=players, variant=variant)


@cache
def pairings(dice: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The three ways to split four dice into two pairs, as (smaller sum, larger sum)."""
    a, b, c, d = dice
    splits = ((a + b, c + d), (a + c, b + d), (a + d, b + c))
    return tuple(sorted(tuple(sorted(s)) for s in splits))  # type: ignore[misc]


def is_usable(state: State, column: int) -> bool:
    """Whether one space can be gained in ``column`` now (open column, runner free or below the top)."""
    if state.owner(column) is not None:
        return False
    space = state.runner_space(column)
    if space is None:
        return len(state.runners) < MAX_RUNNERS
    return space < HEIGHTS[column]


def usable_columns(state: State) -> frozenset[int]:
    """The columns where a single sum could be placed now."""
    return frozenset(c for c in COLUMNS if is_usable(state, c))


def choices(state: State, roll: Roll) -> tuple[Advance, ...]:
    """Every legal way to use ``roll`` in ``state``; empty means the roll busts."""
    found: set[Advance] = set()
    free = MAX_RUNNERS - len(state.runners)
    for low, high in pairings(roll.dice):
        found.update(_pair_choices(state, low, high, free))
    return tuple(sorted(found))


def _pair_choices(state: State, low: int, high: int, free: int) -> tuple[Advance, ...]:
    use_low, use_high = is_usable(state, low), is_usable(state, high)
    if low == high:
        if not use_low:
            return ()
        first = _step(state, low, state.progress(low))
        return (Advance((low, low)),) if first < HEIGHTS[low] else (Advance((low,)),)
    if use_low and use_high:
        new_runners = sum(state.runner_space(c) is None for c in (low, high))
        if new_runners <= free:
            return (Advance((low, high)),)
        return Advance((low,)), Advance((high,))
    if use_low:
        return (Advance((low,)),)
    if use_high:
        return (Advance((high,)),)
    return ()


def opponent_on(state: State, column: int, space: int) -> int | None:
    """The opponent whose saved piece stands on ``space`` of ``column``, if any."""
    for player in range(state.players):
        if player != state.current and state.saved_space(player, column) == space:
            return player
    return None


def _step(state: State, column: int, space: int) -> int:
    """The space one step above ``space``; with Jumping, past opponents' pieces."""
    top = HEIGHTS[column]
    space += 1
    if state.variant.jumping:
        while space < top and opponent_on(state, column, space) is not None:
            space += 1
    return min(space, top)


def can_stop(state: State) -> bool:
    """Whether STOP is legal: runners are out and, under Forced Move, none stands on a piece."""
    return (
        state.phase is Phase.ROLL
        and bool(state.runners)
        and _forced_runner(state) is None
    )


def _forced_runner(state: State) -> tuple[int, int] | None:
    """Under Forced Move, a runner standing on an opponent's piece (which forbids stopping)."""
    if not state.variant.forced_move:
        return None
    for column, space in state.runners:
        owner = opponent_on(state, column, space)
        if owner is not None:
            return column, owner
    return None


def legal_moves(state: State) -> tuple[Move, ...]:
    """The current player's decisions: a split after a roll, or STOP between rolls."""
    if state.phase is Phase.CHOOSE:
        assert state.dice is not None
        return choices(state, state.dice)
    return (STOP,) if can_stop(state) else ()


def dice_due(state: State) -> int:
    """Four when the current player may roll, else 0."""
    return DICE if state.phase is Phase.ROLL else 0


def apply(state: State, move: Move | Roll) -> State:
    """The state after a told roll, a chosen split or a stop. Never changes ``state``."""
    if state.phase is Phase.OVER:
        won = "" if state.winner is None else f": player {state.winner + 1} won"
        raise IllegalMoveError(f"the game is over{won}")
    if isinstance(move, Roll):
        return _apply_roll(state, move)
    if isinstance(move, Advance):
        return _apply_advance(state, move)
    if isinstance(move, Stop):
        return _apply_stop(state)
    raise IllegalMoveError(f"not a Can't Stop move: {move!r}")


def _apply_roll(state: State, roll: Roll) -> State:
    if state.phase is not Phase.ROLL:
        raise IllegalMoveError(
            f"a roll is not due: first choose how to use {state.dice}"
        )
    check_roll(roll, DICE)
    if not choices(state, roll):
        return _next_turn(state)
    return replace(state, phase=Phase.CHOOSE, dice=roll)


def _apply_advance(state: State, move: Advance) -> State:
    if state.phase is not Phase.CHOOSE or state.dice is None:
        raise IllegalMoveError(f"{move} needs a roll first: roll the dice")
    allowed = choices(state, state.dice)
    if move not in allowed:
        raise IllegalMoveError(_why_not(state, move, allowed))
    runners = dict(state.runners)
    for column in move.columns:
        start = runners.get(column, state.saved_space(state.current, column))
        runners[column] = _step(state, column, start)
    return replace(state, runners=tuple(sorted(runners.items())), phase=Phase.ROLL, dice=None)


def _why_not(state: State, move: Advance, allowed: tuple[Advance, ...]) -> str:
    """Explain why ``move`` is not among ``allowed`` for the pending roll."""
    dice = state.dice
    assert dice is not None
    prefix = f"{move} is not a choice for {dice}"
    sums = pairings(dice.dice)
    makeable = (
        any(tuple(sorted(pair)) == move.columns for pair in sums)
        if len(move.columns) == 2
        else any(move.columns[0] in pair for pair in sums)
    )
    if not makeable:
        return f"{prefix}: no split of the dice makes {move}"
    for column in sorted(set(move.columns)):
        owner = state.owner(column)
        if owner is not None:
            return f"{prefix}: column {column} is claimed by player {owner + 1}"
        if state.is_at_top(column):
            return f"{prefix}: the runner in column {column} is already at the top"
        if state.runner_space(column) is None and len(state.runners) >= MAX_RUNNERS:
            return f"{prefix}: all {MAX_RUNNERS} runners are out, none is left for column {column}"
    options = ", ".join(str(a) for a in allowed)
    if len(move.columns) == 2 and move.columns[0] == move.columns[1]:
        column = move.columns[0]
        return f"{prefix}: the first step reaches the top of column {column}, so use {column} once"
    if len(move.columns) == 1:
        return f"{prefix}: both sums must be used when both can be placed (choices: {options})"
    return f"{prefix}: only one runner is left, so pick one column (choices: {options})"


def _apply_stop(state: State) -> State:
    if state.phase is not Phase.ROLL:
        raise IllegalMoveError(f"cannot stop now: first choose how to use {state.dice}")
    if not state.runners:
        raise IllegalMoveError("cannot stop before placing a runner: roll the dice")
    forced = _forced_runner(state)
    if forced is not None:
        column, owner = forced
        raise IllegalMoveError(
            f"Forced Move: the runner in column {column} stands on player {owner + 1}'s piece, "
            "so you must roll again"
        )
    saved = [list(row) for row in state.saved]
    claimed = list(state.claimed)
    for column, space in state.runners:
        index = column_index(column)
        saved[state.current][index] = space
        if space == HEIGHTS[column]:
            claimed[index] = state.current
            for player in range(state.players):
                if player != state.current:
                    saved[player][index] = 0
    banked = replace(
        state,
        saved=tuple(tuple(row) for row in saved),
        claimed=tuple(claimed),
        runners=(),
    )
    if len(banked.claimed_by(state.current)) >= state.variant.columns_to_win:
        return replace(banked, phase=Phase.OVER, winner=state.current)
    return _next_turn(banked)


def _next_turn(state: State) -> State:
    """Clear the runners (a bust loses them) and pass the dice to the next player."""
    return replace(
        state,
        current=(state.current + 1) % state.players,
        runners=(),
        phase=Phase.ROLL,
        dice=None,
        turn=state.turn + 1,
    )
