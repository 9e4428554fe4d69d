"""Yacht (the scorecard dice game sold as Yahtzee), behind the engine's contract.

The specification is ``shared/rules/yacht.md``; where it is silent, these decisions hold:

* 1 or more players, each with a card of thirteen boxes (:class:`Box`, :data:`BOXES`); player 1
  (index 0) starts and the seats take turns in order, one box a turn, thirteen rounds. No variants.
* A turn: five dice are due (``dice_due``: 5) and told as a roll (``roll 1-3-3-5-6``). After the
  first or second roll the player may keep 0 to 4 of the dice (``keep 3-3-5``, ``keep none``;
  keeping all five would roll nothing, so the player scores instead) and is told a roll of the
  others (``dice_due``: the dice not kept); after any roll the player may score the five dice in
  an allowed empty box (``score full-house``), which ends the turn; after the third only that.
  Dice kept on the first reroll are simply among the five on the table afterwards, free to be
  rolled again.
* Scoring (:func:`box_score`, :func:`points_for`): as the table of boxes says; five of a kind
  is no full house unless scored as a joker. Joker (:func:`is_joker`): five of a kind while the
  Yacht box is filled, with 50 or 0: the upper box of that face if empty (the only legal move),
  else any empty lower box (full house 25, small straight 30, large straight 40, the kinds and
  chance the sum), else any empty upper box, for 0. Scoring five of a kind while the Yacht box
  holds 50 earns 100 (``State.extra_yachts`` counts them), whichever box it goes in.
* Totals (:func:`total`): boxes + 35 once the upper boxes reach 63 + 100 per extra Yacht.
* The end: when the last seat fills its thirteenth box the phase is OVER. ``winner`` (the
  contract's one seat) is the player with the highest total; when equal totals share the win it
  is None, as for a draw in Columns, and :func:`winners` names every player sharing it.

API for the table (the firmware's ``firmware/games/yacht``): ``GAME`` (the contract), ``State``
and ``Phase``; moves ``Keep``/``Score`` with ``parse_move``/``move_text``; ``legal_moves``,
``apply``, ``dice_due``; ``to_json``/``from_json``; ``total``, ``winners``, ``round_number``,
``allowed_boxes``, ``points_for`` and ``why_not_score`` for the screens. Bots are in
:mod:`engine.yacht.bots` (``RandomBot``, ``GreedyBot``, ``OptimalBot``); the optimal advisor in
:mod:`engine.yacht.advisor`; the benchmark in :mod:`engine.yacht.bench`.
"""

from engine.yacht.boxes import (
    BOXES,
    EXTRA_YACHT_BONUS,
    LOWER,
    UPPER,
    UPPER_BONUS,
    UPPER_BONUS_FROM,
    Box,
    Card,
    allowed_boxes,
    box_score,
    card_total,
    is_joker,
    is_yacht,
    open_boxes,
    parse_box,
    points_for,
    upper_total,
)
from engine.yacht.codec import from_json, to_json
from engine.yacht.game import GAME, Yacht
from engine.yacht.moves import Keep, Move, Score, move_text, parse_move
from engine.yacht.rules import MAX_ROLLS, apply, dice_due, legal_moves, make_variant, new_game, why_not_score
from engine.yacht.state import Phase, State, filled, game_over, round_number, total, winners

__all__ = [
    "BOXES",
    "EXTRA_YACHT_BONUS",
    "GAME",
    "LOWER",
    "MAX_ROLLS",
    "UPPER",
    "UPPER_BONUS",
    "UPPER_BONUS_FROM",
    "Box",
    "Card",
    "Keep",
    "Move",
    "Phase",
    "Score",
    "State",
    "Yacht",
    "allowed_boxes",
    "apply",
    "box_score",
    "card_total",
    "dice_due",
    "filled",
    "from_json",
    "game_over",
    "is_joker",
    "is_yacht",
    "legal_moves",
    "make_variant",
    "move_text",
    "new_game",
    "open_boxes",
    "parse_box",
    "parse_move",
    "points_for",
    "round_number",
    "to_json",
    "total",
    "upper_total",
    "why_not_score",
    "winners",
]
