"""A second, deliberately plain reading of shared/rules/yacht.md, to check the Yacht engine against.

Written from the rules text alone, with box names as strings and cards as dicts; it shares no
rules code with engine/yacht (only its public API is driven and compared). ``python -m tests.yacht_oracle 5000`` replays that many random games
against the engine (the benchmark run); the suite plays a share of them.
"""

from __future__ import annotations

import random
import sys

from engine.dice import Roll
from engine.yacht import BOXES, GAME, Keep, Phase, Score, total, upper_total, winners

UPPER_NAMES = ["ones", "twos", "threes", "fours", "fives", "sixes"]
LOWER_NAMES = ["three-of-a-kind", "four-of-a-kind", "full-house", "small-straight", "large-straight", "yacht", "chance"]
ALL_NAMES = UPPER_NAMES + LOWER_NAMES
JOKER_FIXED = {"full-house": 25, "small-straight": 30, "large-straight": 40}


def natural(name: str, dice: list[int]) -> int:
    """What the dice score in the box named ``name``, read off the rules' table."""
    counts = [dice.count(face) for face in range(1, 7)]
    if name in UPPER_NAMES:
        face = UPPER_NAMES.index(name) + 1
        return face * counts[face - 1]
    if name == "three-of-a-kind":
        return sum(dice) if max(counts) >= 3 else 0
    if name == "four-of-a-kind":
        return sum(dice) if max(counts) >= 4 else 0
    if name == "full-house":
        return 25 if sorted(c for c in counts if c) == [2, 3] else 0
    if name == "small-straight":
        return 30 if any(all(counts[f - 1] for f in range(start, start + 4)) for start in (1, 2, 3)) else 0
    if name == "large-straight":
        return 40 if sorted(dice) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if name == "yacht":
        return 50 if max(counts) == 5 else 0
    assert name == "chance"
    return sum(dice)


def options(card: dict[str, int], dice: list[int]) -> dict[str, int]:
    """Each box the dice may be written in now, with what is written there."""
    empty = [name for name in ALL_NAMES if name not in card]
    five_alike = len(set(dice)) == 1
    if not (five_alike and "yacht" in card):
        return {name: natural(name, dice) for name in empty}
    own = UPPER_NAMES[dice[0] - 1]
    if own in empty:
        return {own: 5 * dice[0]}
    lower = [name for name in empty if name in LOWER_NAMES]
    if lower:
        return {name: JOKER_FIXED.get(name, sum(dice)) for name in lower}
    return {name: 0 for name in empty}


def extra_bonus(card: dict[str, int], dice: list[int]) -> int:
    return 100 if len(set(dice)) == 1 and card.get("yacht") == 50 else 0


def final_score(card: dict[str, int], bonuses: int) -> int:
    upper = sum(card.get(name, 0) for name in UPPER_NAMES)
    return sum(card.values()) + (35 if upper >= 63 else 0) + bonuses


def sub_multisets(dice: list[int]) -> set[tuple[int, ...]]:
    """Every way to set aside 0 to 4 of the dice."""
    found = {()}
    for die in dice:
        found |= {tuple(sorted(kept + (die,))) for kept in found}
    return {kept for kept in found if len(kept) <= 4}


def engine_card(state, player: int) -> dict[str, int]:
    """The engine's card of ``player`` in the oracle's form."""
    return {box.value: points for box, points in zip(BOXES, state.cards[player]) if points is not None}


def roll_for(rng: random.Random, count: int, kept: tuple[int, ...]) -> Roll:
    """Fair dice, except that now and then the roll completes five of a kind (to reach the joker often)."""
    if rng.random() < 0.2 and len(set(kept)) <= 1:
        face = kept[0] if kept else rng.randint(1, 6)
        return Roll((face,) * count)
    return Roll(tuple(rng.randint(1, 6) for _ in range(count)))


def check_game(seed: int) -> None:
    """One random game of 1 to 3 players through the contract, every step checked against the oracle."""
    rng = random.Random(seed)
    players = rng.randint(1, 3)
    cards: list[dict[str, int]] = [{} for _ in range(players)]
    bonuses = [0] * players
    state = GAME.new_game(players)
    kept: tuple[int, ...] = ()
    while state.phase is not Phase.OVER:
        me = state.current
        due = GAME.dice_due(state)
        if due:
            assert due == 5 - len(kept) and GAME.legal_moves(state) == ()
            move = roll_for(rng, due, kept)
        else:
            moves = GAME.legal_moves(state)
            dice = list(state.dice)
            scores = {m.box.value for m in moves if isinstance(m, Score)}
            assert scores == set(options(cards[me], dice)), (cards[me], dice)
            keeps = {m.dice for m in moves if isinstance(m, Keep)}
            assert keeps == (sub_multisets(dice) if state.rolls < 3 else set())
            move = rng.choice(moves)
            if isinstance(move, Score):
                bonuses[me] += extra_bonus(cards[me], dice)
                cards[me][move.box.value] = options(cards[me], dice)[move.box.value]
        kept = move.dice if isinstance(move, Keep) else ()
        assert GAME.parse_move(GAME.move_text(move)) == move
        state = GAME.apply(state, move)
        assert GAME.from_json(GAME.to_json(state)) == state
        assert [engine_card(state, p) for p in range(players)] == cards and [100 * n for n in state.extra_yachts] == bonuses
    totals = [final_score(card, bonus) for card, bonus in zip(cards, bonuses)]
    assert all(len(card) == 13 for card in cards)
    for p in range(players):
        upper = sum(cards[p][name] for name in UPPER_NAMES)
        assert total(state, p) == totals[p] and upper_total(state.cards[p]) == upper
        assert (total(state, p) - sum(cards[p].values()) - bonuses[p] == 35) == (upper >= 63)
    leaders = [p for p, points in enumerate(totals) if points == max(totals)]
    assert winners(state) == tuple(leaders)
    assert GAME.winner(state) == (leaders[0] if len(leaders) == 1 else None)


if __name__ == "__main__":
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    for seed in range(games):
        check_game(seed)
    print(f"{games} games agree with the oracle")
