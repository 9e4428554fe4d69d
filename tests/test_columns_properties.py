"""Thousands of random games through the public contract, checked against the rules read afresh.

The oracle below knows nothing of the engine's shapes, stacks or pins: it keeps its own board of
cells, names its own placements on the 3x4 grid (pins side by side along a row or across the rows),
tries every level for every piece, and applies the rules text word by word (the geometry as the
package docstring reads it). The examples are derandomized: every run plays the same games.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.columns import GAME, PLACEMENTS, STOCK, Placement, State, grid, parse_move, score
from engine.errors import IllegalMoveError
from property_runs import runs

KINDS = "RSDL"
LEVELS = 5


class Owned(NamedTuple):
    player: int
    kind: str
    piece: int


Board = dict[tuple[int, int], Owned]


def shape(move: Placement, base: int) -> list[tuple[int, int]]:
    """The cells a piece fills with its own column starting at ``base``: an L's thick column is two
    cells high, its thin end level with the thick end's foot (up) or head (down)."""
    kind = move.kind.value
    if kind in "RS":
        return [(move.column, base)]
    if kind == "D":
        return [(move.column, base), (move.second, base)]
    thin = base if move.orientation.value == "up" else base + 1
    return [(move.column, base), (move.column, base + 1), (move.second, thin)]


def landings(board: Board, player: int, left: tuple[int, ...], move: Placement) -> list[list[tuple[int, int]]]:
    """Every set of cells where ``move`` could legally go, by the rules text."""
    kind = move.kind.value
    if not left[KINDS.index(kind)]:
        return []
    found = []
    for base in range(LEVELS + 1):
        cells = shape(move, base)
        if any(level >= LEVELS or (c, level) in board for c, level in cells):
            continue  # above level 5, or a cell taken
        if any((c, above) in board for c, level in cells for above in range(level + 1, LEVELS)):
            continue  # it could not come down the column past a piece above
        resting = []
        for column in sorted({c for c, _ in cells}):
            foot = min(level for c, level in cells if c == column)
            if foot and (column, foot - 1) not in board:
                break  # a gap under this end
            resting.append(board.get((column, foot - 1)) if foot else None)
        else:
            below = resting[0]
            if kind == "R" and below and below.player != player and below.kind != "R":
                continue  # a roundel on the opponent's blocker
            if len(resting) == 2 and None not in resting and resting[0].piece == resting[1].piece:
                continue  # both ends on one piece
            found.append(cells)
    assert len(found) <= 1, f"{move} fits at two levels"
    return found


PINS = [(row, place) for row in range(3) for place in range(4)]


def pin_name(pin: tuple[int, int]) -> str:
    return "ABC"[pin[0]] + str(pin[1] + 1)


def every_placement_by_the_rules() -> list[Placement]:
    """Roundels and singles on each of the 12 pins; doubles and Ls across two pins side by side."""
    found = [f"{kind} {pin_name(pin)}" for kind in "RS" for pin in PINS]
    for a in PINS:
        for b in PINS:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1:
                found += [f"L {pin_name(a)}-{pin_name(b)} {way}" for way in ("up", "down")]
                found += [f"D {pin_name(a)}-{pin_name(b)}"] if a < b else []
    return [parse_move(text) for text in found]


CANDIDATES = every_placement_by_the_rules()


def oracle_moves(board: Board, player: int, left: tuple[int, ...]) -> set[Placement]:
    return {m for m in CANDIDATES if landings(board, player, left, m)}


def test_the_oracle_and_the_engine_know_the_same_placements():
    assert sorted(CANDIDATES, key=Placement.sort_key) == list(PLACEMENTS)


def placed_pieces(board: Board) -> dict[tuple[int, str], int]:
    counts: dict[tuple[int, str], int] = {}
    for owned in set(board.values()):
        counts[owned.player, owned.kind] = counts.get((owned.player, owned.kind), 0) + 1
    return counts


def oracle_winner(board: Board) -> int | None:
    """Roundels on level 5; on a tie remove that level and count the one below, down to level 1."""
    for level in range(LEVELS - 1, -1, -1):
        counts = [0, 0]
        for (c, lv), owned in board.items():
            if lv == level and owned.kind == "R":
                counts[owned.player] += 1
        if counts[0] != counts[1]:
            return 0 if counts[0] > counts[1] else 1
    return None


def random_game(rng: random.Random):
    """Yield (before, move, after) for a whole game; each seed leans to some kinds of piece."""
    weights = {kind: rng.uniform(0.2, 3.0) for kind in KINDS}
    state = GAME.new_game(2)
    while GAME.winner(state) is None and not state.over:
        moves = GAME.legal_moves(state)
        move = rng.choices(moves, [weights[m.kind.value] for m in moves])[0]
        after = GAME.apply(state, move)
        yield state, move, after
        state = after


def check_board(state: State, board: Board) -> None:
    """The engine's board is the oracle's, cell by cell: no gaps, nothing above level 5, counts kept."""
    cells = grid(state)
    assert len(cells) == 12 and all(len(column) == LEVELS for column in cells)
    for c, column in enumerate(cells):
        for level, cell in enumerate(column):
            expected = board.get((c, level))
            assert (cell and Owned(cell.player, cell.kind.value, cell.piece)) == expected
            if cell and level:
                assert column[level - 1] is not None  # no gaps
    assert all(len(stack) <= LEVELS for stack in state.stacks)
    placed = placed_pieces(board)
    for player in (0, 1):
        for k, kind in enumerate(KINDS):
            assert placed.get((player, kind), 0) + state.left[player][k] == STOCK[k]


def check_end(state: State, board: Board) -> None:
    assert state.over and GAME.legal_moves(state) == ()
    assert not oracle_moves(board, state.current, state.left[state.current])
    expected = [[0] * LEVELS for _ in (0, 1)]
    for (c, level), owned in board.items():
        if owned.kind == "R":
            expected[owned.player][level] += 1
    assert [list(row) for row in score(state)] == expected
    assert GAME.winner(state) == oracle_winner(board)


@settings(max_examples=runs(1000), deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_follow_the_rules(seed):
    """Every placement made is one the rules allow, lands where they say; the game ends exactly when stuck."""
    board: Board = {}
    for before, move, after in random_game(random.Random(seed)):
        (cells,) = landings(board, before.current, before.left[before.current], move)
        board.update({cell: Owned(before.current, move.kind.value, len(before.pieces)) for cell in cells})
        assert after.over or after.current == 1 - before.current
    check_board(after, board)
    check_end(after, board)


@settings(max_examples=120, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_legal_moves_are_exactly_the_placements_the_rules_allow(seed):
    board: Board = {}
    for before, move, after in random_game(random.Random(seed)):
        listed = GAME.legal_moves(before)
        assert set(listed) == oracle_moves(board, before.current, before.left[before.current])
        assert list(listed) == sorted(listed, key=Placement.sort_key) and len(set(listed)) == len(listed)
        (cells,) = landings(board, before.current, before.left[before.current], move)
        board.update({cell: Owned(before.current, move.kind.value, len(before.pieces)) for cell in cells})
        check_board(after, board)
        assert after.over == (not oracle_moves(board, after.current, after.left[after.current]))
    check_end(after, board)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_illegal_placements_are_refused_with_a_reason(seed):
    rng = random.Random(seed)
    for before, move, after in random_game(rng):
        listed = set(GAME.legal_moves(before))
        for other in rng.sample(PLACEMENTS, 6):
            if other in listed:
                continue
            try:
                GAME.apply(before, other)
            except IllegalMoveError as error:
                assert str(error).startswith(f"{other.text()}: ") and len(str(error)) > len(other.text()) + 10
            else:
                raise AssertionError(f"{other} was applied but is not listed")
        assert before.pieces == after.pieces[:-1]  # the state before is never changed


@settings(max_examples=100, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_text_and_json_forms_round_trip(seed):
    for before, move, after in random_game(random.Random(seed)):
        assert GAME.parse_move(GAME.move_text(move)) == move
        assert GAME.from_json(GAME.to_json(after)) == after
