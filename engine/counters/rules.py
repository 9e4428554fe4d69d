"""The rules: the set-up advantage, throws and keeps, taking an option, cool-downs, rockets, the end."""

from __future__ import annotations

import itertools
from dataclasses import replace
from functools import cache
from typing import Any, Callable

from engine.counters.board import STRAIGHT, column_name
from engine.counters.moves import DICE, PASS, Handicap, Keep, Move, Pass, Rocket, Take
from engine.counters.options import Option, options
from engine.counters.state import Phase, Positions, State, has_reached_goal, has_wild_card
from engine.counters.variant import Variant
from engine.dice import Roll, check_roll
from engine.errors import IllegalMoveError
from engine.keeps import dice_text, keeps, missing_dice

MAX_THROWS = 3
COOL_DOWN_FROM = 2
"""Squares a group's dice must move a counter for the other players' counters there to go down."""
COLUMNS = tuple(range(STRAIGHT + 1))


def new_game(players: int = 2, variant: Variant | None = None) -> State:
    """Every counter on the bottom row; player 2 moves the first handicap square."""
    variant = variant or Variant()
    variant.check(players)
    return State(board=variant.board, positions=((0,) * len(COLUMNS),) * players, current=1, handicap=variant.handicap)


def dice_due(state: State) -> int:
    """Five at a turn's start, the dice not kept after a keep, else 0."""
    return DICE - len(state.kept) if state.phase is Phase.THROW else 0


HANDICAP_RULE = "You should all select counters in different columns for this."


def handicap_columns(state: State) -> set[int]:
    """The columns the current player's handicap may not use: where the players before them moved
    theirs (the reading "apart" of HANDICAP_RULE), none in the reading "own"."""
    if state.handicap != "apart":
        return set()
    return {column for player in range(1, state.current) for column in COLUMNS if state.positions[player][column]}


def handicaps(state: State) -> tuple[Handicap, ...]:
    """The current player's set-up advantage: one square in each of ``current`` different columns,
    none where an earlier player's handicap counter stands (:func:`handicap_columns`)."""
    free = [column for column in COLUMNS if column not in handicap_columns(state)]
    return tuple(Handicap(c) for c in itertools.combinations(free, state.current))


def takes(state: State) -> tuple[Take, ...]:
    """Every option the dice on the table allow, with a blue star's wild cards where they apply."""
    return _takes(state.dice, has_wild_card(state, state.current))


@cache
def _takes(dice: tuple[int, ...], wild: bool) -> tuple[Take, ...]:
    plain = options(dice)
    if not wild:
        return tuple(Take(o) for o in plain)
    sent = (o.sent_to(c) for o in plain for c in itertools.permutations(COLUMNS, len(o.groups)))
    return tuple(Take(o) for o in sorted(sent, key=Option.sort_key))


def legal_moves(state: State) -> tuple[Move, ...]:
    """The current player's decisions (rolls are the chance step, not listed)."""
    if state.phase is Phase.HANDICAP:
        return handicaps(state)
    if state.phase is Phase.ROCKET:  # "you *can* move any counter up one more square": or not (pass)
        return (*(Rocket(c) for c in COLUMNS if not state.at_top(state.current, c)), PASS)
    if state.phase is not Phase.CHOOSE:
        return ()
    found: tuple[Move, ...] = takes(state)
    if state.throws < MAX_THROWS:
        return found + keeps(state.dice)
    return found or (PASS,)


def apply(state: State, move: Move | Roll) -> State:
    """The state after a told roll or a decision. Never changes ``state``."""
    if state.phase is Phase.OVER:
        raise IllegalMoveError(f"the game is over: player {(state.winner or 0) + 1} won")
    step = _STEPS.get(type(move))
    if step is None:
        raise IllegalMoveError(f"not a Get Your Counters to the Top move: {move!r}")
    return step(state, move)


def _not_now(state: State, move: Move | Roll) -> IllegalMoveError:
    """Why ``move`` does not fit the phase: say what is due instead."""
    due = {
        Phase.HANDICAP: f"player {state.current + 1} first moves the handicap of {state.current} counter(s)",
        Phase.THROW: f"{dice_due(state)} dice are due: throw them",
        Phase.CHOOSE: f"first keep dice or take an option for {dice_text(state.dice)}",
        Phase.ROCKET: f"first move the rocket square{'s' if state.rockets > 1 else ''} ({state.rockets} due)",
    }[state.phase]
    return IllegalMoveError(f"{move} is not possible now: {due}")


def _apply_roll(state: State, roll: Roll) -> State:
    if state.phase is not Phase.THROW:
        raise _not_now(state, roll)
    check_roll(roll, dice_due(state))
    dice = tuple(sorted(state.kept + roll.dice))
    return replace(state, phase=Phase.CHOOSE, dice=dice, kept=(), throws=state.throws + 1)


def _apply_handicap(state: State, move: Handicap) -> State:
    if state.phase is not Phase.HANDICAP:
        raise _not_now(state, move)
    if len(move.columns) != state.current:
        raise IllegalMoveError(
            f"{move}: player {state.current + 1} moves {state.current} counter(s) for the handicap, "
            f"got {len(move.columns)}"
        )
    taken = sorted(handicap_columns(state) & set(move.columns))
    if taken:
        where = ", ".join(column_name(c) for c in taken)
        raise IllegalMoveError(f"{move}: an earlier player's handicap counter already stands in column {where}: "
                               f"\"{HANDICAP_RULE}\"")
    rows = _moved(state.positions, state.current, {c: 1 for c in move.columns})
    if state.current + 1 < state.players:
        return replace(state, positions=rows, current=state.current + 1)
    return replace(state, positions=rows, current=0, phase=Phase.THROW, turn=1)


def _moved(rows: Positions, player: int, steps: dict[int, int]) -> Positions:
    """``rows`` with ``player``'s counters moved ``steps`` squares by column (no cap: callers cap)."""
    row = tuple(square + steps.get(column, 0) for column, square in enumerate(rows[player]))
    return rows[:player] + (row,) + rows[player + 1 :]


def _apply_keep(state: State, move: Keep) -> State:
    if state.phase is not Phase.CHOOSE:
        raise _not_now(state, move)
    if state.throws >= MAX_THROWS:
        dice = dice_text(state.dice)
        then = f"take an option for {dice}" if options(state.dice) else f"{dice} forms no option, so pass"
        raise IllegalMoveError(f"{move}: there is no fourth throw; {then}")
    missing = missing_dice(move, state.dice)
    if missing:
        raise IllegalMoveError(f"{move}: {missing}")
    return replace(state, phase=Phase.THROW, dice=(), kept=move.dice)


def _apply_pass(state: State, move: Pass) -> State:
    if state.phase is Phase.ROCKET:  # the rocket's square is left unused
        return _after_moving(state, state.rockets - 1)
    if state.phase is not Phase.CHOOSE:
        raise _not_now(state, move)
    formable = options(state.dice)
    if formable:
        raise IllegalMoveError(
            f"pass: {dice_text(state.dice)} forms an option (take {formable[0]}); "
            "a turn passes only when the third throw forms none"
        )
    if state.throws < MAX_THROWS:
        raise IllegalMoveError(
            f"pass: this was throw {state.throws} of {MAX_THROWS}; keep some dice (or none) and throw again"
        )
    return _next_turn(state)


def why_not_take(state: State, option: Option) -> str | None:
    """Why the current player cannot take ``option`` with the dice on the table, or None."""
    formable = options(state.dice)
    if option.plain() not in formable:
        listed = ", ".join(map(str, formable)) or "none"
        return f"{dice_text(state.dice)} does not form {option.plain()} (options: {listed})"
    if option.wild and not has_wild_card(state, state.current):
        group = next(g for g in option.groups if g.wild)
        dice = "the straight" if group.home == STRAIGHT else f"the {group.home + 1}s"
        return (
            f"{dice} move column {column_name(group.home)}, not {column_name(group.column)}: "
            "only a counter on a blue star makes the dice wild cards"
        )
    return None


def _apply_take(state: State, move: Take) -> State:
    if state.phase is not Phase.CHOOSE:
        raise _not_now(state, move)
    option = move.option
    problem = why_not_take(state, option)
    if problem:
        raise IllegalMoveError(f"take {option}: {problem}")
    rows, me, rockets = state.positions, state.current, 0
    for group in option.groups:
        spec = state.board[group.column]
        start = rows[me][group.column]
        end = min(start + group.squares, spec.top)  # the rest is forfeit at the top
        rows = _moved(rows, me, {group.column: end - start})
        if end - start >= COOL_DOWN_FROM:
            rows = _cooled_down(state, rows, group.column)
        rockets += end > start and end in spec.rockets
    moved = replace(state, positions=rows, dice=(), kept=())
    return _after_moving(moved, rockets)


def _cooled_down(state: State, rows: Positions, column: int) -> Positions:
    """Every other player's counter in ``column`` one square down, unless on the bottom row or a star."""
    spec = state.board[column]
    for player, row in enumerate(rows):
        square = row[column]
        if player != state.current and square > 0 and not spec.is_star(square):
            rows = _moved(rows, player, {column: -1})
    return rows


def _apply_rocket(state: State, move: Rocket) -> State:
    if state.phase is not Phase.ROCKET:
        raise _not_now(state, move)
    column = move.column
    if state.at_top(state.current, column):
        raise IllegalMoveError(f"rocket {column_name(column)}: that counter is already at the top")
    rows = _moved(state.positions, state.current, {column: 1})
    landed = rows[state.current][column] in state.board[column].rockets
    return _after_moving(replace(state, positions=rows), state.rockets - 1 + landed)


def _after_moving(state: State, rockets: int) -> State:
    """End the game if the mover reached the goal; else the rocket squares due, or the next turn."""
    if has_reached_goal(state, state.current):
        return replace(state, phase=Phase.OVER, winner=state.current, rockets=0)
    if rockets:  # a counter is below the top: with all seven at the top the player has won
        return replace(state, phase=Phase.ROCKET, rockets=rockets)
    return _next_turn(state)


def _next_turn(state: State) -> State:
    """The dice pass to the next player, for a fresh turn of up to three throws."""
    return replace(
        state,
        current=(state.current + 1) % state.players,
        phase=Phase.THROW,
        dice=(),
        kept=(),
        throws=0,
        rockets=0,
        turn=state.turn + 1,
    )


_STEPS: dict[type, Callable[[State, Any], State]] = {
    Roll: _apply_roll,
    Handicap: _apply_handicap,
    Keep: _apply_keep,
    Take: _apply_take,
    Rocket: _apply_rocket,
    Pass: _apply_pass,
}
