"""Typed errors: each message says what was refused and why."""


class EngineError(ValueError):
    """Anything the engine refuses."""


class IllegalMoveError(EngineError):
    """A move that the rules do not allow in this state."""


class InvalidRollError(EngineError):
    """Dice that cannot be a roll of this game (wrong count, a value off the die)."""


class VariantError(EngineError):
    """A game set-up that the rules do not allow (player count, variant combination)."""


class StateFormatError(EngineError):
    """Text or JSON that does not describe a valid move or state."""
