"""The rules: where each piece may go, placing it, and the end of play when the next player is stuck."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from engine.columns.moves import COLUMNS, KINDS, Kind, Orientation, Placement
from engine.columns.state import PLAYERS, TOP, Piece, State, leader
from engine.columns.variant import Variant
from engine.errors import IllegalMoveError


@dataclass(frozen=True)
class _Fit:
    """A placement with what its fit needs, worked out once."""

    placement: Placement
    kind: int  # index in KINDS
    column: int
    second: int  # -1 for a roundel or a single
    foot: int  # how much higher the second column must stand than the first (L down: 1)
    reach: int  # levels above its base the piece extends (L: 1)


def _fit(placement: Placement) -> _Fit:
    shape = placement.shape()
    second = -1 if placement.second is None else placement.second
    foot = min((up for column, up, _ in shape if column == second), default=0)
    reach = max(up for _, up, _ in shape)
    return _Fit(placement, KINDS.index(placement.kind), placement.column, second, foot, reach)


def _every_placement() -> tuple[Placement, ...]:
    found = [Placement(kind, c) for kind in (Kind.ROUNDEL, Kind.SINGLE) for c in range(COLUMNS)]
    found += [Placement(Kind.DOUBLE, c, c + 1) for c in range(COLUMNS - 1)]
    found += [
        Placement(Kind.TRIPLE, c, s, o)
        for c in range(COLUMNS)
        for s in (c - 1, c + 1)
        if 0 <= s < COLUMNS
        for o in Orientation
    ]
    return tuple(sorted(found, key=Placement.sort_key))


PLACEMENTS = _every_placement()
"""Every placement on the board, in the order ``legal_moves`` lists them."""
_FITS = {p: _fit(p) for p in PLACEMENTS}
_ROUNDEL = KINDS.index(Kind.ROUNDEL)
_FITS_BY_KIND = tuple(tuple(_FITS[p] for p in PLACEMENTS if p.kind is kind) for kind in KINDS)


def new_game(players: int = 2, variant: Variant | None = None) -> State:
    """An empty board, 21 pieces each; player 1 places first."""
    (variant or Variant()).check(players)
    return State()


def dice_due(state: State) -> int:
    """Columns has no dice: never."""
    return 0


def legal_moves(state: State) -> tuple[Placement, ...]:
    """Every placement open to the player to move, grouped by kind (R, S, D, L), then by column."""
    if state.over:
        return ()
    return tuple(_placeable(state))


def _placeable(state: State) -> Iterator[Placement]:
    me = state.current
    stacks, pieces = state.stacks, state.pieces
    heights = [len(stack) for stack in stacks]
    tops = [stack[-1] if stack else -1 for stack in stacks]
    for count, fits in zip(state.left[me], _FITS_BY_KIND):
        if not count:
            continue
        for fit in fits:
            base = heights[fit.column]
            if base + fit.reach > TOP:
                continue
            if fit.second < 0:
                if fit.kind == _ROUNDEL and base and _blocks_roundel(pieces[tops[fit.column]], me):
                    continue
            elif heights[fit.second] != base + fit.foot or (base and tops[fit.column] == tops[fit.second]):
                continue
            yield fit.placement


def _blocks_roundel(piece: Piece, player: int) -> bool:
    return piece.player != player and piece.kind is not Kind.ROUNDEL


def can_place(state: State) -> bool:
    """Whether the player to move has any placement at all (the game ends when not)."""
    return not state.over and next(_placeable(state), None) is not None


def why_not(state: State, move: object) -> str | None:
    """Why the player to move may not make ``move``, in words; None when it is legal."""
    if not isinstance(move, Placement):
        return f"not a Columns move (Columns has no dice): {move!r}"
    if state.over:
        return "the game is over: " + _result(state)
    player = state.current
    if not state.left[player][KINDS.index(move.kind)]:
        return f"player {player + 1} has no {move.kind.title}s left"
    for column in move.columns:
        if state.height(column) > TOP:
            return f"column {column + 1} is full: nothing may go above level {TOP + 1}"
    fit = _FITS[move]
    base = state.height(move.column)
    if fit.second >= 0 and state.height(fit.second) != base + fit.foot:
        return _gap(state, move, fit)
    if base + fit.reach > TOP:
        return f"its thick end would reach level {base + fit.reach + 1}: nothing may go above level {TOP + 1}"
    if fit.second < 0:
        below = state.top(move.column)
        if move.kind is Kind.ROUNDEL and below is not None and _blocks_roundel(below, player):
            return f"a roundel may not go on player {below.player + 1}'s blocker in column {move.column + 1}"
        return None
    under = state.stacks[move.column][-1] if base else None
    if under is not None and under == state.stacks[fit.second][-1]:
        return (
            f"both ends would rest on one piece, {state.pieces[under].name()}: "
            "blockers placed exactly back-to-back are not allowed"
        )
    return None


def _gap(state: State, move: Placement, fit: _Fit) -> str:
    """The message for a two-column piece whose columns do not stand as its ends need."""
    first, second = move.column, fit.second
    too_low = second if state.height(second) < state.height(first) + fit.foot else first
    how = {
        Kind.DOUBLE: "a double needs its two columns filled to the same level",
        Kind.TRIPLE: (
            "turned up, a triple needs its two columns filled to the same level"
            if move.orientation is Orientation.UP
            else "turned down, a triple needs its thin column filled one level higher than its thick column"
        ),
    }[move.kind]
    return (
        f"it would leave a gap under column {too_low + 1} ({_filled(state, first)}, {_filled(state, second)}): {how}"
    )


def _filled(state: State, column: int) -> str:
    height = state.height(column)
    return f"column {column + 1} is empty" if not height else f"column {column + 1} is filled to level {height}"


def _result(state: State) -> str:
    return "a draw" if state.winner is None else f"player {state.winner + 1} won"


def apply(state: State, move: Placement) -> State:
    """The state after ``move``; IllegalMoveError saying why when the rules do not allow it."""
    problem = why_not(state, move)
    if problem:
        raise IllegalMoveError(f"{move}: {problem}" if isinstance(move, Placement) else problem)
    return place(state, move)


def place(state: State, move: Placement) -> State:
    """``apply`` without the check, for searches that only try ``legal_moves``; never changes ``state``."""
    me = state.current
    piece_id = len(state.pieces)
    piece = Piece(me, move, len(state.stacks[move.column]))
    stacks = list(state.stacks)
    for column, _, _ in move.shape():  # cells come lowest first in each column
        stacks[column] += (piece_id,)
    kind = KINDS.index(move.kind)
    mine = state.left[me]
    left = list(state.left)
    left[me] = mine[:kind] + (mine[kind] - 1,) + mine[kind + 1 :]
    after = State(state.pieces + (piece,), tuple(stacks), tuple(left), (me + 1) % PLAYERS)
    if can_place(after):
        return after
    return State(after.pieces, after.stacks, after.left, after.current, over=True, winner=leader(after))
