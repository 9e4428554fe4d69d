"""A round of flicks at the table: what can be said during it, in the order NEXT walks it, the
flick a simulated board throws, and the footer's word on dice unseen; the table's buttons and the
bots at the buttons both go by them."""

from __future__ import annotations

from dataclasses import replace

from engine.tumblin import Breed, Mine, State, colour, landed, legal_moves
from hardware.camera import Toss

LANDED, STAYED, STANDING, ROUNDS, MINE = "landed", "stayed", "standing", "rounds", "mine"
UNSEEN_WARNING = "unseen:SELECT"  # the footer's end while dice that landed were not seen
# The end of the count's word while dice lie on the 0x level: "Take green 5 off 0x, then press SELECT", two
# whole rows of the tally screen for any die ("Take aquamarine 5 off" / "0x, then press SELECT") or "2 dice".
ZERO_WARNING = "off 0x, then press SELECT"


def toss(state: State) -> Toss:
    """The current player's flick on a simulated board; the board's dice are picked up before the
    round's first die lands (one that stayed on the launch pad left nothing to pick up)."""
    nothing_landed = not any(landed(state, seat) for seat in range(state.players))
    return Toss(1, colour=colour(state, state.current), new_round=nothing_landed)


def lying(state: State) -> tuple[Toss, ...]:
    """The flicks that put back on a simulated board the dice that landed this round before the
    game was resumed: each colour's landed dice, flicked anew where the demo kept no memory of the
    board (the journal keeps how many, not where; see :func:`firmware.table.start.restore_table`)."""
    counts = [(colour(state, seat), landed(state, seat)) for seat in range(state.players)]
    tosses = [Toss(count, colour=name) for name, count in counts if count]
    return tuple(replace(toss, new_round=True) if not at else toss for at, toss in enumerate(tosses))


def entries(state: State, camera: bool = True) -> tuple[str, ...]:
    """What can be said during a round, in the order NEXT walks it (the standing: with a camera)."""
    moves = legal_moves(state)
    breeds = tuple(f"breed {move.colour}" for move in moves if isinstance(move, Breed))
    mine = (MINE,) if Mine() in moves else ()
    return (LANDED, STAYED, *((STANDING,) if camera else ()), *breeds, *mine, ROUNDS)
