"""The rules of the companion's games: pure Python, no I/O, no randomness.

Every game implements the small contract in :mod:`engine.game`; the firmware only
ever talks to that contract, so adding a game never touches the firmware.
"""

from engine.dice import Roll, all_rolls, parse_roll
from engine.errors import (
    EngineError,
    IllegalMoveError,
    InvalidRollError,
    StateFormatError,
    VariantError,
)
from engine.game import Game

__all__ = [
    "EngineError",
    "Game",
    "IllegalMoveError",
    "InvalidRollError",
    "Roll",
    "StateFormatError",
    "VariantError",
    "all_rolls",
    "parse_roll",
]
