"""The rules: rolls and keeps, scoring a box (the joker rule and the bonuses), the end of the game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from engine.dice import Roll, check_roll
from engine.errors import IllegalMoveError, VariantError
from engine.keeps import DICE, Keep, dice_text, keeps, missing_dice
from engine.yacht.boxes import EMPTY_CARD, UPPER, Box, allowed_boxes, earns_extra_yacht, points_for
from engine.yacht.moves import Move, Score
from engine.yacht.state import Phase, State, filled, total

MAX_ROLLS = 3
MIN_PLAYERS = 1


def make_variant(**settings: object) -> None:
    """Yacht has no variants: any setting is refused by name."""
    if settings:
        raise VariantError(f"unknown variant setting {sorted(settings)[0]!r}: Yacht has none")


def check_players(players: object) -> None:
    """Refuse a player count below one (any number may play)."""
    if not isinstance(players, int) or isinstance(players, bool) or players < MIN_PLAYERS:
        raise VariantError(f"Yacht is for {MIN_PLAYERS} or more players, got {players!r}")


def new_game(players: int = 1, variant: None = None) -> State:
    """Empty cards; player 1 rolls first."""
    check_players(players)
    return State(cards=(EMPTY_CARD,) * players, extra_yachts=(0,) * players)


def dice_due(state: State) -> int:
    """Five at a turn's start, the dice not kept after a keep, 0 when the player must choose."""
    return DICE - len(state.kept) if state.phase is Phase.ROLL else 0


def legal_moves(state: State) -> tuple[Move, ...]:
    """The boxes the dice may be scored in (card order), then, before the third roll, every keep."""
    if state.phase is not Phase.CHOOSE:
        return ()
    scores = tuple(Score(box) for box in allowed_boxes(state.card, state.dice))
    return scores + keeps(state.dice) if state.rolls < MAX_ROLLS else scores


def apply(state: State, move: Move | Roll) -> State:
    """The state after a told roll or a decision. Never changes ``state``."""
    if state.phase is Phase.OVER:
        raise IllegalMoveError(f"the game is over: {_result(state)}")
    step = _STEPS.get(type(move))
    if step is None:
        raise IllegalMoveError(f"not a Yacht move: {move!r}")
    return step(state, move)


def _result(state: State) -> str:
    best = max(total(state, p) for p in range(state.players))
    if state.winner is None:
        return f"equal totals of {best} share the win"
    return f"player {state.winner + 1} won with {best}"


def _not_now(state: State, move: Move | Roll) -> IllegalMoveError:
    """Why ``move`` does not fit the phase: say what is due instead."""
    if state.phase is Phase.ROLL:
        due = f"{dice_due(state)} dice are due: roll them"
    else:
        due = f"first keep dice or score {dice_text(state.dice)}"
    return IllegalMoveError(f"{move} is not possible now: {due}")


def _apply_roll(state: State, roll: Roll) -> State:
    if state.phase is not Phase.ROLL:
        raise _not_now(state, roll)
    check_roll(roll, dice_due(state))
    dice = tuple(sorted(state.kept + roll.dice))
    return replace(state, phase=Phase.CHOOSE, dice=dice, kept=(), rolls=state.rolls + 1)


def _apply_keep(state: State, move: Keep) -> State:
    if state.phase is not Phase.CHOOSE:
        raise _not_now(state, move)
    if state.rolls >= MAX_ROLLS:
        raise IllegalMoveError(f"{move}: there is no fourth roll; score {dice_text(state.dice)} in a box")
    missing = missing_dice(move, state.dice)
    if missing:
        raise IllegalMoveError(f"{move}: {missing}")
    return replace(state, phase=Phase.ROLL, dice=(), kept=move.dice)


def why_not_score(state: State, box: Box) -> str | None:
    """Why the current player cannot score the dice on the table in ``box`` now, or None."""
    card, dice = state.card, state.dice
    if card[box.index] is not None:
        return f"the {box.value} box already holds {card[box.index]}"
    if box in allowed_boxes(card, dice):
        return None
    own = UPPER[dice[0] - 1]
    joker = f"five {dice[0]}s with the Yacht box filled are a joker"
    if card[own.index] is None:
        return f"{joker}: they must be scored in {own.value}"
    return f"{joker}: they go in an empty lower box while there is one"


def _apply_score(state: State, move: Score) -> State:
    if state.phase is not Phase.CHOOSE:
        raise _not_now(state, move)
    problem = why_not_score(state, move.box)
    if problem:
        raise IllegalMoveError(f"{move}: {problem}")
    me, card, dice = state.current, state.card, state.dice
    written = card[: move.box.index] + (points_for(card, move.box, dice),) + card[move.box.index + 1 :]
    extra = state.extra_yachts[me] + earns_extra_yacht(card, dice)
    scored = replace(
        state,
        cards=state.cards[:me] + (written,) + state.cards[me + 1 :],
        extra_yachts=state.extra_yachts[:me] + (extra,) + state.extra_yachts[me + 1 :],
        dice=(),
        kept=(),
    )
    return _next_turn(scored)


def _next_turn(state: State) -> State:
    """The dice pass to the next player; after the last box of the last player, the game ends."""
    if all(filled(card) == len(card) for card in state.cards):
        totals = [total(state, p) for p in range(state.players)]
        leaders = [p for p, points in enumerate(totals) if points == max(totals)]
        winner = leaders[0] if len(leaders) == 1 else None
        return replace(state, phase=Phase.OVER, rolls=0, winner=winner)
    return replace(state, current=(state.current + 1) % state.players, phase=Phase.ROLL, rolls=0)


_STEPS: dict[type, Callable[[State, Any], State]] = {Roll: _apply_roll, Keep: _apply_keep, Score: _apply_score}
