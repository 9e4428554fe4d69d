"""The rules: whose flick it is, the cards' events, the board reading that scores a round, the
order of the next round, and the end of play (four rounds or a target score, then overtime)."""

from __future__ import annotations

from dataclasses import replace

from engine.errors import IllegalMoveError
from engine.tumblin.moves import Breed, Flick, Mine, Move, Tally
from engine.tumblin.scoring import round_scores, side_scores
from engine.tumblin.state import (
    ROUNDS,
    Round,
    State,
    colour,
    dice_left,
    landed,
    seat_of,
    tally_due,
    totals,
)
from engine.tumblin.variant import Variant

_FLICKS = (Flick(), Flick(stayed=True))


def new_game(players: int, variant: Variant | None = None) -> State:
    """Round 1 in seat order (the players rolled off for their seats); with teams, the first team's
    first shooter, the second team's first shooter, and so on."""
    seated = (variant or Variant()).seated(players)
    order = _interleave(seated.sides())
    return State(seated, order, (0,) * players, (0,) * players, order[0], seated.mines)


def dice_due(state: State) -> int:
    """Never: the flicked dice are read off the board in the tally, not thrown as a roll."""
    return 0


def legal_moves(state: State) -> tuple[Move, ...]:
    """The events open now: the flicks, breeding and a mine during a round; after the last flick only
    a mine (the tally, the board reading, is due: it is too many to list; see :func:`tally_due`)."""
    if state.over:
        return ()
    found = [*_FLICKS, *(Breed(name) for name in state.variant.colours or ()), Mine()]
    return tuple(m for m in found if why_not(state, m) is None)


def why_not(state: State, move: object) -> str | None:
    """Why ``move`` is not allowed now, or None if it is."""
    if not isinstance(move, (Flick, Breed, Mine, Tally)):
        return f"not a Tumblin' Dice move: {move!r}"
    if state.over:
        return f"the game is over: {_result(state)}"
    if isinstance(move, Flick):
        return _why_not_flick(state)
    if isinstance(move, Breed):
        return _why_not_breed(state, move)
    if isinstance(move, Mine):
        return _why_not_mine(state)
    return _why_not_tally(state, move)


def _why_not_flick(state: State) -> str | None:
    if tally_due(state):
        return "every die of the round is flicked: the board reading (tally) is due"
    return None


def _why_not_breed(state: State, move: Breed) -> str | None:
    if not state.variant.breed_cards:
        return "there is no breed card in this game"
    seat = seat_of(state, move.colour)
    if seat is None:
        return _unknown_colour(state, move.colour)
    if not dice_left(state)[seat]:
        return f"{move.colour} has no un-flicked die left this round"
    if not landed(state, seat):
        return f"no {move.colour} die has landed on the board this round to trigger the card"
    return None


def _why_not_mine(state: State) -> str | None:
    if not state.variant.mines:
        return "there are no land mines in this game"
    if not state.mines_left:
        return f"all {state.variant.mines} land mines have exploded"
    if not any(landed(state, seat) for seat in state.order):
        return "no die has landed on the board this round to set a mine off"
    return None


def _why_not_tally(state: State, move: Tally) -> str | None:
    left = sum(dice_left(state))
    if left:
        return f"the board is read after the last flick: {left} dice are still to flick"
    for die in move.dice:
        if seat_of(state, die.colour) is None:
            return _unknown_colour(state, die.colour)
        if die.level == 0 and state.variant.zero == "removed":
            return (
                f'{die} did not drop off the 0x level: "it counts as a throw, but it is removed and set off '
                'to the side": take it off the board'
            )
        if die.card > state.variant.multiplier_cards:
            cards = state.variant.multiplier_cards
            return f"{die} lies on multiplier card {die.card}, but the game has {cards} multiplier card{'s' * (cards != 1)}"
    for seat in range(state.players):
        name = colour(state, seat)
        count = sum(1 for die in move.dice if die.colour == name)
        if count > landed(state, seat):
            return (
                f"{count} {name} dice are read on the board, but only {landed(state, seat)} "
                f"{name} dice left the launch level this round"
            )
    return None


def _unknown_colour(state: State, name: str) -> str:
    return f"no player has colour {name!r}: the colours are {', '.join(state.variant.colours or ())}"


def _result(state: State) -> str:
    seats = [s for side in state.variant.sides() if state.winner in side for s in side]
    names = " and ".join(f"player {s + 1} ({colour(state, s)})" for s in seats)
    return f"{names} won"


def apply(state: State, move: Move) -> State:
    """The state after ``move``; IllegalMoveError saying why when the rules do not allow it."""
    problem = why_not(state, move)
    if problem:
        raise IllegalMoveError(f"{move}: {problem}" if isinstance(move, (Flick, Breed, Mine, Tally)) else problem)
    logged = replace(state, log=state.log + (move,))
    if isinstance(move, Flick):
        return _flick(logged, move.stayed)
    if isinstance(move, Breed):
        return _breed(logged, seat_of(state, move.colour))  # type: ignore[arg-type]
    if isinstance(move, Mine):
        return replace(logged, mines_left=state.mines_left - 1)
    return _score(logged, move)


def _flick(state: State, stayed: bool) -> State:
    me = state.current
    after = replace(
        state,
        flicked=_bump(state.flicked, me),
        stayed=_bump(state.stayed, me) if stayed else state.stayed,
        previous=me,
    )
    return replace(after, current=_next_flicker(after, me))


def _breed(state: State, seat: int) -> State:
    """The bred die counts as flicked without a flick; the turn passes on only if it was the current player's last."""
    after = replace(state, flicked=_bump(state.flicked, seat))
    if dice_left(after)[after.current]:
        return after
    return replace(after, current=_next_flicker(after, after.previous))  # type: ignore[arg-type]


def _bump(counts: tuple[int, ...], seat: int) -> tuple[int, ...]:
    return counts[:seat] + (counts[seat] + 1,) + counts[seat + 1 :]


def _next_flicker(state: State, last: int) -> int:
    """After ``last`` flicked: the next in the round's order with a die left who is not on ``last``'s
    side (so teammates never flick back to back), else the next on that side; ``last`` when none is left."""
    left = dice_left(state)
    side = next(s for s in state.variant.sides() if last in s)
    start = state.order.index(last) + 1
    ring = [state.order[(start + i) % len(state.order)] for i in range(len(state.order))]
    ready = [seat for seat in ring if left[seat]]
    others = [seat for seat in ready if seat not in side]
    return (others or ready or [last])[0]


def _score(state: State, tally: Tally) -> State:
    """Score the round from the board reading, then end the game or set up the next round."""
    scores = round_scores(state.variant, tally.dice)
    scored = replace(state, history=state.history + (Round(state.order, scores),))
    sides = state.variant.sides()
    playing = [side for side in sides if side[0] in state.order]
    sums = side_scores(state.variant, totals(scored))
    deciding = state.overtime or _regular_end(scored, sums)
    contenders = playing if state.overtime else list(sides)
    best = max(sums[sides.index(side)] for side in contenders)
    leaders = [side for side in contenders if sums[sides.index(side)] == best]
    if deciding and len(leaders) == 1:
        return replace(scored, over=True, winner=leaders[0][0], current=leaders[0][0])
    next_sides = leaders if deciding else list(sides)
    ranking = _ranking(state.variant, sums, side_scores(state.variant, scores))
    order = next_order(state.order, next_sides, ranking, sides)
    zeros = (0,) * state.players
    return replace(
        scored, order=order, flicked=zeros, stayed=zeros, previous=None, current=order[0], overtime=deciding
    )


def _ranking(variant: Variant, sums: tuple[int, ...], round_sums: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Per side, what puts it first next round: the running total ("If two or more players have the
    same score, then the order of play between those tied players reverts back to that of the prior
    round"; ``ties = "round"``, as older games were played, the round's score first), or with
    ``order = "round"`` the round's score alone."""
    if variant.order == "round":
        return tuple((points,) for points in round_sums)
    if variant.ties == "round":
        return tuple(zip(sums, round_sums))
    return tuple((total,) for total in sums)


def _regular_end(state: State, sums: tuple[int, ...]) -> bool:
    """Four rounds played, or (with a target) some side's total reached the target."""
    target = state.variant.target
    if target is None:
        return len(state.history) >= ROUNDS
    return max(sums) >= target


def next_order(
    order: tuple[int, ...],
    playing: list[tuple[int, ...]],
    ranking: tuple[tuple[int, ...], ...],
    sides: tuple[tuple[int, ...], ...],
) -> tuple[int, ...]:
    """The next round's order: the sides ``playing`` by ``ranking`` (per side: the running total or the
    round's score, as the variant orders), highest first, ties in the order they flicked last round; teams then alternate."""
    ranked = sorted(playing, key=lambda side: (tuple(-x for x in ranking[sides.index(side)]), order.index(side[0])))
    return _interleave(ranked)


def _interleave(sides: tuple[tuple[int, ...], ...] | list[tuple[int, ...]]) -> tuple[int, ...]:
    """First shooters of each side in turn, then the second shooters (one seat per side without teams)."""
    return tuple(side[i] for i in range(max(len(s) for s in sides)) for side in sides)
