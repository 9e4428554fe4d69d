"""Klaus-Jürgen Wrede's Get Your Counters to the Top (moses. 90337), behind the engine's contract.

The rules text is the specification; where it is silent, these decisions hold:

* Set-up: 2 to 4 players, seven counters each on square 0 (the bottom row) of columns 1..6 and
  S (Straight). Player 1 starts; first the players after them, in order, move their handicap:
  player 2 one counter, player 3 two, player 4 three, one square each in different columns,
  and none where an earlier player's handicap counter stands ("You should all select counters
  in different columns for this", read for all players together; the variant's ``handicap =
  "own"`` reads it for a player's own counters only, as games were played before); one
  ``Handicap`` move each. A rocket reached there gives nothing (it is not in a turn); a
  blue star reached there counts from the first turn.
* A turn: five dice are thrown and told as a roll. After the first or second throw the player
  may keep 0..4 of them (``Keep``) and is told a roll of the others. After any throw the player
  may take one option (``Take``); after the third only that, or ``pass`` when the dice form no
  option at all. Dice fitting no option are lost.
* Options: pair +1, triple +2, four +3, five +4 in that face's column; two pairs +1 +1 (different
  faces); full house +2 for the triple and +1 for the pair; small straight (four in a row) +2 in
  S, optionally with +1 for a pair among the five dice; big straight (five in a row) +3 in S. A
  smaller kind is formable from more dice (a pair from three 2s), so a player may move less.
  The groups of one option always move different columns.
* A counter stops at the top of its column; the rest of that group's squares is forfeit.
* Cool down: when a group's dice move a counter at least two squares (squares actually moved),
  every other player's counter in that column goes down one square, unless it is on the bottom
  row or on a pink or blue star. Rocket squares never count toward it.
* Rockets: every counter that ends a dice move or a rocket move on a rocket square (having
  moved onto it) gives one square for any own counter not at the top (``Rocket``), the same
  counter included, or none (``pass``: "you *can* move any counter up one more square");
  a rocket reached that way gives another. A counter sent down onto a rocket
  gives nothing. (With every counter at the top the player has won, so one is always free.)
* Blue stars: while the player has a counter on a blue star (at the moment of choosing), each
  group of an option may move any column instead of its own (straights too), still each in a
  different column; the dice never form a different kind through it.
* The end: the moment the player who just moved has at least four counters in space (five with
  two players) and none on the bottom row, they win, even with rocket squares due.
"""

from engine.counters.board import (
    COLUMN_NAMES,
    STRAIGHT,
    Board,
    BoardError,
    ColumnSpec,
    board_from_dict,
    board_from_toml,
    board_to_dict,
    column_index,
    column_name,
    default_board,
)
from engine.counters.codec import from_json, to_json
from engine.counters.game import GAME, CountersToTheTop
from engine.counters.moves import PASS, Handicap, Keep, Move, Pass, Rocket, Take, move_text, parse_move
from engine.counters.options import Group, Kind, Option, make_option, options, parse_option
from engine.counters.rules import apply, dice_due, legal_moves, new_game, takes, why_not_take
from engine.counters.state import (
    Phase,
    State,
    counters_at_bottom,
    counters_in_space,
    has_reached_goal,
    has_wild_card,
)
from engine.counters.variant import Variant, make_variant

__all__ = [
    "COLUMN_NAMES",
    "GAME",
    "PASS",
    "STRAIGHT",
    "Board",
    "BoardError",
    "ColumnSpec",
    "CountersToTheTop",
    "Group",
    "Handicap",
    "Keep",
    "Kind",
    "Move",
    "Option",
    "Pass",
    "Phase",
    "Rocket",
    "State",
    "Take",
    "Variant",
    "apply",
    "board_from_dict",
    "board_from_toml",
    "board_to_dict",
    "column_index",
    "column_name",
    "counters_at_bottom",
    "counters_in_space",
    "default_board",
    "dice_due",
    "from_json",
    "has_reached_goal",
    "has_wild_card",
    "legal_moves",
    "make_option",
    "make_variant",
    "move_text",
    "new_game",
    "options",
    "parse_move",
    "parse_option",
    "takes",
    "to_json",
    "why_not_take",
]
