"""The immutable state: the round being played (its order, the dice flicked), the rounds scored,
the moves that led here; and what the table reads from it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tumblin.moves import Move
from engine.tumblin.scoring import side_scores
from engine.tumblin.variant import Variant

DICE = 4
"""Each player's dice, all flicked once each round."""
ROUNDS = 4
"""Regular rounds of play (without a target score)."""


@dataclass(frozen=True)
class Round:
    """A scored round: the order it was flicked in, and each seat's points (0 for seats that sat out)."""

    order: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class State:
    """Everything the rules need. ``variant`` is seated (it has the colours).

    ``order`` is this round's flicking order (only the tied players in an overtime round);
    ``flicked`` counts each seat's dice flicked or bred this round and ``stayed`` the flicks that did
    not leave the launch level; ``previous`` is the seat that flicked last this round (None before
    the first flick); ``current`` the seat to flick (after the last flick: the last flicker, while
    the tally is due); ``history`` the scored rounds; ``log`` every move from the start.
    """

    variant: Variant
    order: tuple[int, ...]
    flicked: tuple[int, ...]
    stayed: tuple[int, ...]
    current: int
    mines_left: int
    previous: int | None = None
    history: tuple[Round, ...] = ()
    overtime: bool = False
    over: bool = False
    winner: int | None = None
    log: tuple[Move, ...] = ()

    @property
    def players(self) -> int:
        return len(self.flicked)


def colour(state: State, seat: int) -> str:
    """The colour of ``seat``'s dice."""
    return (state.variant.colours or ())[seat]


def seat_of(state: State, name: str) -> int | None:
    """The seat playing colour ``name``, None if nobody does."""
    colours = state.variant.colours or ()
    return colours.index(name) if name in colours else None


def dice_left(state: State) -> tuple[int, ...]:
    """Per seat, the dice still to flick this round (0 for seats not playing this round)."""
    return tuple(DICE - state.flicked[seat] if seat in state.order else 0 for seat in range(state.players))


def landed(state: State, seat: int) -> int:
    """``seat``'s dice flicked (or bred) off the launch level this round: at most this many can be on the board."""
    return state.flicked[seat] - state.stayed[seat]


def tally_due(state: State) -> bool:
    """Whether every die of the round is flicked and the board reading is awaited."""
    return not state.over and not any(dice_left(state))


def round_number(state: State) -> int:
    """The round being played, from 1 (rounds past four are overtime); the last one once the game is over."""
    return len(state.history) + (0 if state.over else 1)


def totals(state: State) -> tuple[int, ...]:
    """Each seat's points over the scored rounds."""
    return tuple(sum(r.scores[seat] for r in state.history) for seat in range(state.players))


def team_totals(state: State) -> tuple[int, ...]:
    """Each side's points: per team with teams (in the variant's team order), else per seat."""
    return side_scores(state.variant, totals(state))


def game_over(state: State) -> bool:
    return state.over


def winner(state: State) -> int | None:
    """The winning seat (with teams: the winning team's first shooter); None while play goes on."""
    return state.winner


def winners(state: State) -> tuple[int, ...]:
    """The seats that won: the winner alone, or the whole winning team; () while play goes on."""
    if state.winner is None:
        return ()
    return next(side for side in state.variant.sides() if state.winner in side)
