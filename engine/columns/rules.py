"""The rules: where each piece may go, placing it, and the end of play when the next player is stuck."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import NamedTuple

from engine.columns.board import BOARDS, Board
from engine.columns.moves import KINDS, Kind, Orientation, Placement
from engine.columns.state import PLAYERS, TOP, Piece, State, leader
from engine.columns.variant import Variant
from engine.errors import IllegalMoveError


class _Fit(NamedTuple):
    """A placement with what its fit needs, worked out once (a tuple: the search unpacks it in its
    innermost loop)."""

    placement: Placement
    column: int
    second: int  # -1 for a roundel or a single
    foot: int  # how much higher the second column must stand than the first (L down: 1)
    reach: int  # levels above its base the piece extends (L: 1)


def _fit(placement: Placement) -> _Fit:
    shape = placement.shape()
    second = -1 if placement.second is None else placement.second
    foot = min((up for column, up, _ in shape if column == second), default=0)
    reach = max(up for _, up, _ in shape)
    return _Fit(placement, placement.column, second, foot, reach)


def _every_placement(board: Board) -> tuple[Placement, ...]:
    found = [Placement(kind, c, board=board) for kind in (Kind.ROUNDEL, Kind.SINGLE) for c in range(board.pins)]
    found += [Placement(Kind.DOUBLE, a, b, board=board) for a, b in board.pairs]
    found += [
        Placement(Kind.TRIPLE, thick, thin, turned, board)
        for pair in board.pairs
        for thick, thin in (pair, pair[::-1])
        for turned in Orientation
    ]
    return tuple(sorted(found, key=Placement.sort_key))


PLACEMENTS_ON = {board: _every_placement(board) for board in BOARDS.values()}
"""Every placement on each board, in the order ``legal_moves`` lists them."""
PLACEMENTS = PLACEMENTS_ON[BOARDS["grid"]]
"""Every placement on the real 3x4 board (12 roundels, 12 singles, 17 doubles, 34 Ls)."""
_FITS = {p: _fit(p) for placements in PLACEMENTS_ON.values() for p in placements}
_ROUNDEL = KINDS.index(Kind.ROUNDEL)
_FITS_BY_KIND = {
    board: tuple(tuple(_FITS[p] for p in placements if p.kind is kind) for kind in KINDS)
    for board, placements in PLACEMENTS_ON.items()
}


def new_game(players: int = 2, variant: Variant | None = None) -> State:
    """An empty board (the variant's layout), 21 pieces each; player 1 places first."""
    variant = variant or Variant()
    variant.check(players)
    return State(board=variant.layout)


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
    for kind, (count, fits) in enumerate(zip(state.left[me], _FITS_BY_KIND[state.board])):
        if not count:
            continue
        for placement, column, second, foot, reach in fits:
            base = heights[column]
            if base + reach > TOP:
                continue
            if second < 0:
                if kind == _ROUNDEL and base and _blocks_roundel(pieces[tops[column]], me):
                    continue
            elif heights[second] != base + foot or (base and tops[column] == tops[second]):
                continue
            yield placement


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
    if move.board != state.board:
        board = state.board
        return f"this game is played on the {board.title}: its columns are named {board.pin_range}"
    player = state.current
    if not state.left[player][KINDS.index(move.kind)]:
        return f"player {player + 1} has no {move.kind.title}s left"
    name = state.board.pin_name
    for column in move.columns:
        if state.height(column) > TOP:
            return f"column {name(column)} is full: nothing may go above level {TOP + 1}"
    fit = _FITS[move]
    base = state.height(move.column)
    if fit.second >= 0 and state.height(fit.second) != base + fit.foot:
        return _gap(state, move, fit)
    if base + fit.reach > TOP:
        return f"its thick end would reach level {base + fit.reach + 1}: nothing may go above level {TOP + 1}"
    if fit.second < 0:
        below = state.top(move.column)
        if move.kind is Kind.ROUNDEL and below is not None and _blocks_roundel(below, player):
            return f"a roundel may not go on player {below.player + 1}'s blocker in column {name(move.column)}"
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
        f"it would leave a gap under column {state.board.pin_name(too_low)} "
        f"({_filled(state, first)}, {_filled(state, second)}): {how}"
    )


def _filled(state: State, column: int) -> str:
    height, name = state.height(column), state.board.pin_name(column)
    return f"column {name} is empty" if not height else f"column {name} is filled to level {height}"


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
    after = State(state.pieces + (piece,), tuple(stacks), tuple(left), (me + 1) % PLAYERS, board=state.board)
    if can_place(after):
        return after
    return replace(after, over=True, winner=leader(after))
