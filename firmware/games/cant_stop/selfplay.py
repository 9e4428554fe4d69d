"""Whole Can't Stop games between bots, with dice from a seeded random generator."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from engine.cant_stop import STOP, Move, State, Variant, apply, legal_moves, new_game
from engine.cant_stop.bots import Bot
from engine.cant_stop.board import DICE
from engine.cant_stop.state import Phase
from engine.dice import Roll


@dataclass(frozen=True)
class Step:
    """One event of a game: the state before it, what happened, and the state after."""

    before: State
    event: Move | Roll
    after: State

    @property
    def busted(self) -> bool:
        """A roll that left no choice: the turn passed and the runners were lost."""
        return isinstance(self.event, Roll) and self.after.phase is Phase.ROLL


def throw(rng: random.Random) -> Roll:
    """Four fair dice from ``rng``."""
    return Roll(tuple(rng.randint(1, 6) for _ in range(DICE)))


def play(
    bots: Sequence[Bot], rng: random.Random, variant: Variant | None = None, start: State | None = None
) -> Iterator[Step]:
    """Play a game to its end (from ``start``, else a new game), one event at a time; bot ``i`` plays seat ``i``."""
    state = start or new_game(len(bots), variant)
    while state.phase is not Phase.OVER:
        bot = bots[state.current]
        event: Move | Roll
        if state.phase is Phase.CHOOSE:
            options = legal_moves(state)
            event = bot.choose(state, options)  # type: ignore[arg-type]  # CHOOSE lists splits only
        elif STOP in legal_moves(state) and bot.should_stop(state):
            event = STOP
        else:
            event = throw(rng)
        after = apply(state, event)
        yield Step(state, event, after)
        state = after



def solitaire_turns(bot: Bot, rng: random.Random, variant: Variant | None = None) -> int:
    """Turns ``bot`` needs to win alone (the published solitaire measure): a 2-player game whose
    second seat never plays, each turn handed straight back."""
    state = new_game(2, variant)
    turns = 1
    while True:
        for step in play((bot, bot), rng, variant, start=state):
            state = step.after
            if state.winner is not None:
                return turns
            if state.current != 0:
                break
        state = replace(state, current=0)
        turns += 1
