"""A look-ahead for the search bot: negamax with alpha-beta over ``legal_moves``, deepened one
ply at a time until a node budget is spent, with a static evaluation of the columns' race to level 5.

A node budget rather than a clock keeps every decision the same on every machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.columns.moves import Kind, Placement
from engine.columns.rules import legal_moves, place
from engine.columns.state import TOP, State, score

WIN = 1_000_000
"""A finished game's value; the final margin is added so a search prefers the larger win."""


@dataclass(frozen=True)
class Weights:
    """The evaluation's terms, in hundredths of a roundel on level 5."""

    cap: int = 100  # a roundel on level 5
    contested: int = 90  # a column at level 4 either player may cap: the side to move gets the odd one
    reserved: int = 90  # a column at level 4 under the player's own blocker: only they may cap it
    single_answer: int = 45  # what an opponent's single blocker left takes off a reserved column
    level_four: int = 4  # a roundel on level 4 (the first tie-break)
    blocker_left: int = 6  # a double or triple still in hand (a reserve for two columns at level 4)
    single_left: int = 8
    roundel_short: int = 40  # per cappable column beyond the roundels a player has left


WEIGHTS = Weights()


def evaluate(state: State, weights: Weights = WEIGHTS) -> int:
    """How good ``state`` is for the player to move, in hundredths of a roundel on level 5.

    Caps count whole. A column at level 4 under a roundel goes to whoever moves next, so the
    player to move gets the odd one of them; one under a player's blocker only that player can
    cap (unless the opponent answers with a single). Roundels are needed to cap at all, and
    doubles and triples in hand are reserves for level 4.
    """
    me = state.current
    caps, level_four, reserved, contested = [0, 0], [0, 0], [0, 0], 0
    for stack in state.stacks:
        height = len(stack)
        if height < TOP:
            continue
        fourth = state.pieces[stack[TOP - 1]]
        if fourth.kind is Kind.ROUNDEL:
            level_four[fourth.player] += 1
            contested += height == TOP
        elif height == TOP:
            reserved[fourth.player] += 1
        if height > TOP:
            top = state.pieces[stack[TOP]]
            caps[top.player] += top.kind is Kind.ROUNDEL
    mine = (contested + 1) // 2
    takes = (mine, contested - mine) if me == 0 else (contested - mine, mine)
    value = [0, 0]
    for player in (0, 1):
        roundels, singles, doubles, triples = state.left[player]
        answers = state.left[1 - player][1]
        value[player] = (
            weights.cap * caps[player]
            + weights.contested * takes[player]
            + weights.reserved * reserved[player]
            - weights.single_answer * min(answers, reserved[player])
            + weights.level_four * level_four[player]
            + weights.blocker_left * (doubles + triples)
            + weights.single_left * singles
            - weights.roundel_short * max(0, takes[player] + reserved[player] - roundels)
        )
    return value[me] - value[1 - me]


def final_value(state: State) -> int:
    """A finished game for the player who would move: a win, a loss or a draw, with its margin on level 5."""
    if state.winner is None:
        return 0
    rows = score(state)
    margin = rows[state.current][TOP] - rows[1 - state.current][TOP]
    return (WIN if state.winner == state.current else -WIN) + margin


def ordered(state: State, moves: tuple[Placement, ...]) -> list[Placement]:
    """Likely best first: caps, then blockers onto level 4, then the rest (stable otherwise)."""
    return sorted(moves, key=lambda m: -_promise(state, m))


def _promise(state: State, move: Placement) -> int:
    """3 a cap, 2 a double or triple reaching level 4 or a single on level 5 (killing a column),
    1 a single on level 4, -1 a roundel on level 4 (the opponent caps it), else 0."""
    base = len(state.stacks[move.column])
    if move.kind is Kind.ROUNDEL:
        return 3 if base == TOP else (-1 if base == TOP - 1 else 0)
    reach = base + (1 if move.kind is Kind.TRIPLE else 0)
    if reach == TOP - 1:
        return 2 if move.kind is not Kind.SINGLE else 1
    if move.kind is Kind.SINGLE and base == TOP:
        return 2
    return 0


class _OutOfNodes(Exception):
    """The node budget ran out in the middle of a depth."""


@dataclass
class Search:
    """One decision's look-ahead: deepen until ``max_depth`` or until ``nodes`` states are visited."""

    nodes: int = 2500
    max_depth: int = 8
    weights: Weights = WEIGHTS
    visited: int = 0
    depth: int = 0  # of the deepest search :meth:`best` finished...
    value: int = 0  # ...and what its best move is worth there (exact: the root searches the whole window)

    def best(self, state: State, moves: list[Placement]) -> Placement:
        """The best of ``moves`` (in the order given, ties to the earlier) by the deepest finished search."""
        self.visited, self.depth = 0, 0
        best = moves[0]
        for depth in range(1, self.max_depth + 1 if len(moves) > 1 else 1):
            try:
                best, value = self._root(state, [best] + [m for m in moves if m != best], depth)
            except _OutOfNodes:
                break
            self.depth, self.value = depth, value
        return best

    def worth(self, state: State, move: Placement, depth: int) -> int:
        """What ``move`` is worth to the player making it, searched ``depth`` plies deep with the
        whole window (so the exact value :meth:`best` compared at that depth), whatever the budget."""
        whole = Search(nodes=10**12, max_depth=depth, weights=self.weights)
        return -whole._negamax(place(state, move), depth - 1, -2 * WIN, 2 * WIN)

    def _root(self, state: State, moves: list[Placement], depth: int) -> tuple[Placement, int]:
        alpha, best = -2 * WIN, moves[0]
        for move in moves:
            value = -self._negamax(place(state, move), depth - 1, -2 * WIN, -alpha)
            if value > alpha:
                alpha, best = value, move
        return best, alpha

    def _negamax(self, state: State, depth: int, alpha: int, beta: int) -> int:
        self.visited += 1
        if self.visited > self.nodes:
            raise _OutOfNodes
        if state.over:
            return final_value(state)
        if depth == 0:
            return evaluate(state, self.weights)
        for move in ordered(state, legal_moves(state)):
            value = -self._negamax(place(state, move), depth - 1, -beta, -alpha)
            if value >= beta:
                return value
            alpha = max(alpha, value)
        return alpha
