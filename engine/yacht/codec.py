"""States to and from JSON, so the device can log, show and replay them; input is checked fully."""

from __future__ import annotations

from typing import Any

from engine.dice import FACES
from engine.errors import StateFormatError
from engine.keeps import DICE
from engine.state_json import build_state, check_header, dump_state, load_object, refuse_unknown_fields, whole_number
from engine.yacht.boxes import BOXES, YACHT_POINTS, Box, Card, possible_points
from engine.yacht.rules import MAX_ROLLS, check_players
from engine.yacht.state import Phase, State, filled, total

GAME_NAME = "yacht"
FORMAT_VERSION = 1
FIELDS = ("game", "version", "cards", "extra_yachts", "current", "phase", "dice", "kept", "rolls", "winner")


def state_to_dict(state: State) -> dict[str, Any]:
    """A JSON-ready dict; each card keyed by box name, its empty boxes left out."""
    return {
        "game": GAME_NAME,
        "version": FORMAT_VERSION,
        "cards": [{box.value: points for box, points in zip(BOXES, card) if points is not None} for card in state.cards],
        "extra_yachts": list(state.extra_yachts),
        "current": state.current,
        "phase": state.phase.value,
        "dice": list(state.dice),
        "kept": list(state.kept),
        "rolls": state.rolls,
        "winner": state.winner,
    }


def to_json(state: State) -> str:
    """The state as compact JSON text."""
    return dump_state(state_to_dict(state))


def from_json(text: str) -> State:
    """A state from JSON text; anything malformed, or that the rules could never reach, is refused."""
    return build_state(load_object(text), _build, _check_consistent)


def _build(data: dict[str, Any]) -> State:
    check_header(data, GAME_NAME, "Yacht", FORMAT_VERSION)
    refuse_unknown_fields(data, FIELDS)
    cards, extra = data["cards"], data["extra_yachts"]
    if not isinstance(cards, list) or not isinstance(extra, list):
        raise StateFormatError("cards and extra_yachts must be lists, one entry per player")
    check_players(len(cards))
    if len(extra) != len(cards):
        raise StateFormatError(f"{len(cards)} cards but {len(extra)} extra-Yacht counts: one each")
    winner = data["winner"]
    return State(
        cards=tuple(_card(player, card) for player, card in enumerate(cards)),
        extra_yachts=tuple(whole_number(n, f"player {p + 1}'s extra Yachts") for p, n in enumerate(extra)),
        current=whole_number(data["current"], "current player"),
        phase=Phase(data["phase"]),
        dice=_dice(data["dice"], "dice"),
        kept=_dice(data["kept"], "kept dice"),
        rolls=whole_number(data["rolls"], "rolls"),
        winner=None if winner is None else whole_number(winner, "winner"),
    )


def _card(player: int, card: object) -> Card:
    who = f"player {player + 1}"
    if not isinstance(card, dict):
        raise StateFormatError(f"{who}'s card must be an object keyed by box, got {card!r}")
    names = {box.value for box in BOXES}
    unknown = sorted(set(card) - names)
    if unknown:
        raise StateFormatError(f"{who}'s card has a box {unknown[0]!r}, which does not exist")
    for box in BOXES:
        if box.value in card and whole_number(card[box.value], f"{who}'s {box.value}") not in possible_points(box):
            raise StateFormatError(f"{who}'s {box.value} holds {card[box.value]}, which no roll scores there")
    return tuple(card.get(box.value) for box in BOXES)


def _dice(values: object, what: str) -> tuple[int, ...]:
    if not isinstance(values, list) or not all(whole_number(v, what) in FACES for v in values):
        raise StateFormatError(f"{what} must be a list of values from 1 to 6, got {values!r}")
    if values != sorted(values):
        raise StateFormatError(f"{what} must be listed in order, got {values!r}")
    return tuple(values)


def _check_consistent(state: State) -> None:
    """Refuse states the rules could never reach."""
    if state.current not in range(state.players):
        raise StateFormatError(f"current player {state.current} does not exist")
    for player, (card, extra) in enumerate(zip(state.cards, state.extra_yachts)):
        others = filled(card) - (card[Box.YACHT.index] is not None)
        if extra and (card[Box.YACHT.index] != YACHT_POINTS or extra > others):
            raise StateFormatError(
                f"player {player + 1} has {extra} extra Yacht(s): each needs 50 in the Yacht box "
                f"and another box it was scored in"
            )
    _check_turns(state)
    _check_phase(state)
    if state.phase is Phase.OVER:
        totals = [total(state, p) for p in range(state.players)]
        leaders = [p for p, points in enumerate(totals) if points == max(totals)]
        if state.winner != (leaders[0] if len(leaders) == 1 else None):
            raise StateFormatError("a finished game's winner is the one player with the highest total, "
                                   "or none when equal totals share the win")
    elif state.winner is not None:
        raise StateFormatError("a game still being played has no winner")


def _check_turns(state: State) -> None:
    """Seats take turns in order: the players before the current one have filled one box more."""
    boxes = len(BOXES)
    now = filled(state.card)
    if state.phase is Phase.OVER:
        expected = [boxes] * state.players
        if state.current != state.players - 1:
            raise StateFormatError("a finished game ends with the last seat's turn")
    else:
        expected = [now + (p < state.current) for p in range(state.players)]
    found = [filled(card) for card in state.cards]
    if found != expected or (state.phase is not Phase.OVER and now >= boxes):
        raise StateFormatError(
            f"the cards hold {found} boxes: with player {state.current + 1} to play that cannot be "
            "(one box a turn, seats in order, thirteen each)"
        )


def _check_phase(state: State) -> None:
    rolls = state.rolls
    expect = {  # (dice on the table, how many kept, rolls made) each phase allows
        Phase.ROLL: ({0}, set(range(DICE)) if rolls else {0}, set(range(MAX_ROLLS))),
        Phase.CHOOSE: ({DICE}, {0}, set(range(1, MAX_ROLLS + 1))),
        Phase.OVER: ({0}, {0}, {0}),
    }[state.phase]
    found = (len(state.dice), len(state.kept), rolls)
    for what, value, allowed in zip(("dice on the table", "kept dice", "rolls"), found, expect):
        if value not in allowed:
            raise StateFormatError(
                f"{value} {what} cannot be in the {state.phase.value} phase (allowed: {sorted(allowed)})"
            )
