"""Tumblin' Dice, behind the engine's contract: the companion keeps the flicks, scores the board
reading the players confirm, orders the rounds and says who won.

The rules text is the specification; where it is silent, these decisions hold:

* Seats: 2 to 4 players, each with four dice of one colour (red, green, blue, black by seat
  unless the variant names others: short lower-case words). Round 1 goes in seat order: the
  players roll off at the table and sit (or are entered) in that order.
* The engine is told, never observes: a flick is ``flick`` (it does not say where the die went)
  or ``flick stayed`` (it did not get past the 0x level: a throw, the die removed). There is no
  chance step (``dice_due`` is 0): the board is read after the round's last flick as one move,
  ``tally``, listing every die on the board (colour, face, level 0..4, multiplier card);
  dice off the board or removed are absent. The firmware lets the players correct the camera's
  reading before they confirm it; the engine checks and scores the confirmed reading.
* A reading may hold at most as many dice of a colour as that colour left the launch level this
  round (flicked or bred, less those that stayed): only that can be checked. "If a die does not
  drop off of the 0x level, it counts as a throw, but it is removed and set off to the side": a
  reading with a die on level 0 is refused (the variant's ``zero = "stays"``, how games were
  played before, lets it lie there, scoring nothing, for a later flick to knock down). ``legal_moves`` does not list the tally (there are far
  too many readings): ``tally_due`` says it is awaited, and ``apply`` checks it.
* Score of a die: face x level (face + level with the adding option); 0 on the 0x level in both.
  ``round_scores(variant, dice)`` scores any board, so the table can show the standing at any
  moment with the same code as the tally.
* Turns: one flick each in the round's order, skipping players with no die left. After a flick
  the next to flick is the next in the order with a die left who is not on the flicker's side
  (with teams, so teammates never flick back to back while the other team has dice), else the
  next with a die left on that side. While the tally is due, ``current`` is the last flicker.
* Next round: "The player with the highest total score at the end of the prior round goes
  first ... If two or more players have the same score, then the order of play between those
  tied players reverts back to that of the prior round": the order by the running total, highest
  first, equal totals in their order of the last round (the variant's ``order = "round"`` orders
  by the last round's score alone, and ``ties = "round"`` puts the higher last round's score first
  among equal totals, as games were played before). With teams, the teams are ordered so (by team
  totals) and alternate, each team's shooters in the order the variant gives them.
* End: after four rounds (or, with a target score, after the first round in which some total
  reaches the target) the highest total wins; "goes over by most" is the highest total. Tied
  leaders play an overtime round, only they flick; the rules do not say in which order, so their
  tie rule holds: the order they flicked in the last round. Overtime points add to the totals
  (the tied totals were equal, so the overtime round decides); repeated while tied, in the same
  order. Rounds are numbered on past four (round 5 is the first overtime).
* Teams: exactly 4 players in two pairs (default seats 1+3 against 2+4), each pair listed in its
  shooting order; the first pair flicks first in round 1. A team scores its players' dice summed.
  ``winner`` (the contract's one seat) is the winning team's first shooter; ``winners`` gives the
  whole team. Everything about teams also holds with a target score or in overtime.
* Cards are set up once for the whole game and stay on the board between rounds.
* Magic gates: not an engine event. The camera sees where a teleported die ends, and nothing is
  counted or limited by a gate, so the engine has nothing to be told.
* Land mines: the variant says how many (the die's roll, 1 to 6) and the kind (pressure, trip or
  proximity, decided beforehand: ``MineKind.effect`` tells the table what to remove). ``mine``
  records one explosion; an exploded mine is gone for the rest of the game, so no more explode
  than were placed, and only once a die has landed this round (a die must land on or roll
  across it), up to the tally. The dice it removes are simply absent from the reading.
* Dice breed: the variant says how many breed cards (the rules: 1 or 2 breeding cards in all,
  breed and multiplier together). ``breed red`` is told when a red die lands on a breed card:
  red's player (the triggering die's owner) places one of red's un-flicked dice beside it; that
  die counts as flicked without a flick. Allowed while red has a die left to flick and a red die
  has landed this round; a breed card stays and may breed again. Whose flick it is does not
  change, unless it was that player's last die.
* Multiplier: a die on multiplier card n is read with ``*n``; each die on a card scores its value
  (face x level, or face + level when adding: the die rests on the level under the card) times
  the number of dice on that card (the rules' example, a blue 4 and a red 3 on a card on the 1x
  level: 8 and 6). A card on the 0x level makes nothing.
"""

from engine.tumblin.codec import from_json, to_json
from engine.tumblin.game import GAME, Tumblin
from engine.tumblin.moves import Breed, Die, Flick, Mine, Move, Tally, move_text, parse_move
from engine.tumblin.rules import apply, dice_due, legal_moves, new_game, next_order, why_not
from engine.tumblin.scoring import die_scores, die_value, round_scores, side_scores
from engine.tumblin.state import (
    DICE,
    ROUNDS,
    Round,
    State,
    colour,
    dice_left,
    game_over,
    landed,
    round_number,
    seat_of,
    tally_due,
    team_totals,
    totals,
    winner,
    winners,
)
from engine.tumblin.variant import DEFAULT_COLOURS, MineKind, Scoring, Variant, make_variant

__all__ = [
    "DEFAULT_COLOURS",
    "DICE",
    "GAME",
    "ROUNDS",
    "Breed",
    "Die",
    "Flick",
    "Mine",
    "MineKind",
    "Move",
    "Round",
    "Scoring",
    "State",
    "Tally",
    "Tumblin",
    "Variant",
    "apply",
    "colour",
    "dice_due",
    "dice_left",
    "die_scores",
    "die_value",
    "from_json",
    "game_over",
    "landed",
    "legal_moves",
    "make_variant",
    "move_text",
    "new_game",
    "next_order",
    "parse_move",
    "round_number",
    "round_scores",
    "seat_of",
    "side_scores",
    "tally_due",
    "team_totals",
    "to_json",
    "totals",
    "why_not",
    "winner",
    "winners",
]
