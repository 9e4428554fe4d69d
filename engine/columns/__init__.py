"""Columns (Pin International, 2001), behind the engine's contract: no dice, the companion knows
the stacks, refuses illegal placements, keeps the score and says who won.

The rules text is the specification; where it is silent (mostly the geometry), these decisions hold:

* The board is the published game's matrix of 3x4 pins (``engine.columns.board.GRID``): 12 columns
  (pins, indices 0..11) of 5 levels (indices 0..4, named 1..5), named by row A (nearest player 1),
  B, C and place 1..4 (``B2``). Neighbouring pins are side by side along a row or across the rows,
  never diagonally (17 pairs). Games recorded before the grid was known were played on one row of
  12 (``ROW``, pins named 1..12, neighbours differing by one); the state and the variant name their
  layout ("grid", the default, or "row") and everything below holds on either. Each player has 12
  roundels, 3 single, 3 double and 3 L-shaped triple blockers; player 1 (index 0) places first
  and the players alternate, one piece a turn.
* A double fills one level of two neighbouring columns (``D A1-A2``, the lower-named pin first).
* The L-shaped triple fills three cells of two neighbouring columns: two stacked cells in its
  thick column and one in its thin column (``L B3-C3 up``: thick column B3, thin column C3).
  Thick end *up*: thick at levels b and b+1, thin at b (a flat underside): both ends rest at
  level b-1, on the board (b = 1) or on two different pieces on the same level. Thick end
  *down*: thick at b and b+1, thin at b+1 (a flat top): the thick end rests at b-1 (the board
  when b = 1: "thick end down on the board and thin end on a game piece"), the thin end on a
  piece at level b, so its two supports stand on different levels.
* No gaps: each end of a piece rests on the board or on the piece directly below it, so every
  column is filled from level 1 up without holes; a piece goes only where its columns stand
  exactly as its ends need. Nothing goes above level 5 (an L whose thick end would reach level 6
  is refused).
* Both ends of a double or triple rest on two different pieces unless they rest on the board.
  The only piece that can lie under both ends of another is a double or a triple (a roundel or a
  single fills one column), and then the two are "exactly back-to-back": a double on a double
  over the same two columns, a double or an up-L on the flat top of a down-L, an L nested into
  a mirrored L (down-L with thick column C3 on an up-L with thick column B3). So the rules' picture
  of back-to-back blockers is this rule; a double offset by one column on another double, or an
  L on two different pieces, is allowed. The refusal names both: "both ends would rest on one
  piece, ...: blockers placed exactly back-to-back are not allowed".
* A roundel may go on the board, on any roundel, and on its own player's blockers; never on any
  cell (either end, thick or thin) of the opponent's single, double or triple blocker.
  Singles, doubles and triples may rest on any pieces of either player.
* The end: when the player to move cannot place any piece (no piece left, or none that fits),
  play ends at once. The player with more roundels on level 5 wins; on a tie the levels below
  are compared, level 4 first, down to level 1; equal on every level is a draw: the game is
  over (``game_over``) with ``winner`` None.
"""

from engine.columns.codec import from_json, to_json
from engine.columns.game import GAME, Columns
from engine.columns.moves import (
    COLUMNS,
    KINDS,
    LEVELS,
    Kind,
    Move,
    Orientation,
    Part,
    Placement,
    move_text,
    parse_move,
)
from engine.columns.rules import PLACEMENTS, apply, can_place, dice_due, legal_moves, new_game, place, why_not
from engine.columns.state import (
    STOCK,
    TOP,
    Cell,
    Piece,
    State,
    cell,
    game_over,
    grid,
    leader,
    pieces_left,
    score,
    winner,
)
from engine.columns.variant import Variant, make_variant

__all__ = [
    "COLUMNS",
    "GAME",
    "KINDS",
    "LEVELS",
    "PLACEMENTS",
    "STOCK",
    "TOP",
    "Cell",
    "Columns",
    "Kind",
    "Move",
    "Orientation",
    "Part",
    "Piece",
    "Placement",
    "State",
    "Variant",
    "apply",
    "can_place",
    "cell",
    "dice_due",
    "from_json",
    "game_over",
    "grid",
    "leader",
    "legal_moves",
    "make_variant",
    "move_text",
    "new_game",
    "parse_move",
    "pieces_left",
    "place",
    "score",
    "to_json",
    "why_not",
    "winner",
]
