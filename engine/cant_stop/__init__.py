"""Sid Sackson's Can't Stop: the first game behind the engine's contract."""

from engine.cant_stop.board import COLUMNS, HEIGHTS, MAX_RUNNERS
from engine.cant_stop.codec import from_json, to_json
from engine.cant_stop.game import GAME, CantStop
from engine.cant_stop.moves import STOP, Advance, Move, Stop, parse_move
from engine.cant_stop.odds import bust_probability, busting_throws
from engine.cant_stop.rules import apply, can_stop, choices, dice_due, legal_moves, new_game
from engine.cant_stop.state import Phase, State
from engine.cant_stop.variant import Variant

__all__ = [
    "COLUMNS",
    "GAME",
    "HEIGHTS",
    "MAX_RUNNERS",
    "STOP",
    "Advance",
    "CantStop",
    "Move",
    "Phase",
    "State",
    "Stop",
    "Variant",
    "apply",
    "bust_probability",
    "busting_throws",
    "can_stop",
    "choices",
    "dice_due",
    "from_json",
    "legal_moves",
    "new_game",
    "parse_move",
    "to_json",
]
