"""The immutable state: every player's scorecard, the dice on the table, and what is due next."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.yacht.boxes import BOXES, Card, card_total


class Phase(Enum):
    """What the game is waiting for."""

    ROLL = "roll"  # dice are due: all five at a turn's start, the others after a keep
    CHOOSE = "choose"  # the current player keeps some dice or scores the five in a box
    OVER = "over"  # every card is full


@dataclass(frozen=True)
class State:
    """Everything the rules need.

    ``cards`` per player, the thirteen boxes (None while empty); ``extra_yachts`` per player, how
    many extra-Yacht bonuses of 100 they earned; ``dice`` the five on the table after a roll
    (sorted), empty otherwise; ``kept`` the dice set aside while the others are rolled again;
    ``rolls`` this turn's rolls so far (0..3). ``winner`` is set once the game is over, and only
    when one player has the highest total (see :func:`winners`).
    """

    cards: tuple[Card, ...]
    extra_yachts: tuple[int, ...]
    current: int = 0
    phase: Phase = Phase.ROLL
    dice: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()
    rolls: int = 0
    winner: int | None = None

    @property
    def players(self) -> int:
        return len(self.cards)

    @property
    def card(self) -> Card:
        """The current player's card."""
        return self.cards[self.current]


def filled(card: Card) -> int:
    """How many boxes of ``card`` are filled."""
    return sum(points is not None for points in card)


def total(state: State, player: int) -> int:
    """``player``'s score so far: boxes, upper bonus (once earned) and extra-Yacht bonuses."""
    return card_total(state.cards[player], state.extra_yachts[player])


def game_over(state: State) -> bool:
    return state.phase is Phase.OVER


def winners(state: State) -> tuple[int, ...]:
    """The players with the highest final total (equal totals share the win); () while play goes on."""
    if not game_over(state):
        return ()
    totals = [total(state, p) for p in range(state.players)]
    return tuple(p for p, points in enumerate(totals) if points == max(totals))


def round_number(state: State) -> int:
    """The round being played, 1..13 (each player fills one box a round); 13 once the game is over."""
    return min(filled(state.card) + 1, len(BOXES))
