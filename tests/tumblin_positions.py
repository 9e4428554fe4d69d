"""Build Tumblin' Dice positions for tests: moves told by their text forms, each checked by the rules."""

from __future__ import annotations

from engine.tumblin import GAME, State, apply, parse_move, tally_due


def play(state: State, *texts: str) -> State:
    """Apply moves given by their text forms, in order."""
    for text in texts:
        state = apply(state, parse_move(text))
    return state


def flick_all(state: State) -> State:
    """Every die left in the round flicked off the launch level, in turn."""
    while not tally_due(state):
        state = play(state, "flick")
    return state


def rounds(state: State, *tallies: str) -> State:
    """Whole rounds: all dice flicked, then each reading given (``"red 4@3 green 2@1"``)."""
    for reading in tallies:
        state = play(flick_all(state), f"tally {reading}")
    return state


def game(players: int = 2, **variant: object) -> State:
    """A new game through the contract, with variant settings by name."""
    return GAME.new_game(players, **variant)
