"""Counters to the Top bots: legal over many games, greedy's rule, the advisor's exact expectation and hints."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from engine.counters import PASS, Keep, Kind, Phase, Rocket, State, Take, apply, legal_moves, parse_move, parse_option
from engine.counters.advisor import Advisor, Geometry, after_effect, dice_tables, effect_of, kind_chances, plan_turn
from engine.counters.board import default_board
from engine.counters.bots import GreedyBot, RandomBot, largest_group, play, squares_moved
from engine.counters.options import KIND_ORDER
from engine.counters.variant import Variant
from engine.dice import FACES
from bot_checks import Checked
from counters_positions import plain_board, position

BLUE_AND_ROCKETS = plain_board(
    **{"1": {"rockets": [2, 5], "blue_stars": [3]}, "4": {"pink_stars": [1, 4], "rockets": [2]}}
)


def decisions(state: State) -> tuple:
    """The legal moves of a decision phase: a bot is asked only in one."""
    assert state.phase in (Phase.HANDICAP, Phase.CHOOSE, Phase.ROCKET)
    return legal_moves(state)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("board", [default_board(), BLUE_AND_ROCKETS], ids=["default", "blue-and-rockets"])
def test_every_bot_only_makes_legal_moves(players: int, board) -> None:
    advisor = Advisor()
    for game in range(6):
        rng = random.Random(1000 * players + game)
        seats = [RandomBot(random.Random(game)), GreedyBot(), advisor, RandomBot(random.Random(-game))][:players]
        rng.shuffle(seats)
        checked = [Checked(bot, decisions) for bot in seats]
        final = play(checked, rng, Variant(board))
        assert final.phase is Phase.OVER and final.winner is not None
        assert all(c.decisions > 0 for c in checked)


def test_random_and_greedy_stay_legal_over_many_games() -> None:
    for game in range(60):
        seats = [Checked(RandomBot(random.Random(game)), decisions), Checked(GreedyBot(), decisions)]
        play(seats[:: 1 if game % 2 else -1], random.Random(game))


# --- greedy's rule ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "kept"),
    [
        ((2, 2, 2, 5, 6), (2, 2, 2)),
        ((1, 3, 3, 6, 6), (6, 6)),  # two pairs: the higher face
        ((1, 2, 4, 5, 5), (5, 5)),
    ],
)
def test_greedy_keeps_its_largest_group(dice, kept) -> None:
    state = position(dice=dice, throws=1)
    assert GreedyBot().choose(state) == Keep(kept)


def test_greedy_keeps_the_higher_single_die_when_all_differ() -> None:
    assert GreedyBot().choose(position(dice=(1, 2, 3, 5, 6), throws=2)) == Keep((6,))


def test_greedy_skips_a_group_whose_counter_is_at_the_top() -> None:
    state = position(squares={0: {"6": 10}}, dice=(1, 3, 3, 6, 6), throws=1)
    assert GreedyBot().choose(state) == Keep((3, 3))
    assert largest_group(state) == (3, 3)


@pytest.mark.parametrize(
    ("dice", "taken"),
    [((4, 4, 4, 4, 2), "four"), ((2, 2, 5, 5, 5), "full-house"), ((1, 2, 3, 4, 6), "small"), ((2, 3, 4, 5, 6), "big")],
)
def test_greedy_takes_a_strong_option_at_once(dice, taken) -> None:
    move = GreedyBot().choose(position(dice=dice, throws=1))
    assert isinstance(move, Take) and move.option.kind == taken


def test_greedy_takes_the_best_scoring_option_after_the_third_throw() -> None:
    assert GreedyBot().choose(position(dice=(3, 3, 3, 5, 5), throws=3)) == parse_move("take full-house 3+5")
    assert GreedyBot().choose(position(dice=(1, 2, 3, 5, 6), throws=3)) == PASS


def test_greedy_counts_squares_past_the_top_as_lost() -> None:
    state = position(squares={0: {"1": 8}}, dice=(1, 1, 1, 1, 6), throws=1)  # column 1: two squares left
    assert squares_moved(state, parse_option("four 1")) == 2
    assert squares_moved(state, parse_option("pair 1")) == 1


# --- the advisor's exact expectation ----------------------------------------------------------


def test_throw_table_matches_enumeration() -> None:
    tables = dice_tables()
    for kept in [(), (4, 4, 4), (1, 2, 3, 4), (6,)]:
        thrown = 5 - len(kept)
        counts = Counter(tuple(sorted(kept + roll)) for roll in itertools.product(FACES, repeat=thrown))
        row = tables.throw_probs[tables.keep_index[kept]]
        assert row.sum() == pytest.approx(1.0)
        for result, count in counts.items():
            assert row[tables.result_index[result]] == pytest.approx(count / 6**thrown)
        assert np.count_nonzero(row) == len(counts)
    four_fours = [i for i, r in enumerate(tables.results) if r.count(4) >= 4]
    assert tables.throw_probs[tables.keep_index[(4, 4, 4)], four_fours].sum() == pytest.approx(11 / 36)


class FoursValue:
    """A hand-checkable board value: the squares of the counter in column 4, plus a hundredth per
    square anywhere (so a full house beats a plain triple)."""

    def __init__(self, board) -> None:
        self.geo = Geometry.of(board)

    def __call__(self, rows, me) -> float:
        return rows[me][3] + 0.01 * sum(rows[me])

    def settled(self, rows, me, rockets) -> float:
        return self(rows, me)


def fours_plan():
    state = position(dice=(1, 2, 4, 4, 4), throws=2)
    return state, plan_turn(FoursValue(state.board), state.positions, 0, wild=False)


def test_worth_of_keeping_three_fours_for_the_last_throw_by_hand() -> None:
    state, plan = fours_plan()
    tables = dice_tables()
    # five 4s: 1/36 (+4 squares), exactly four: 10/36 (+3), else the triple (+2), plus the full house's +1 (5/36)
    expected = (1 * 4.04 + 10 * 3.03 + 5 * 2.03 + 20 * 2.02) / 36
    assert plan.keep_worth[2][tables.keep_index[(4, 4, 4)]] == pytest.approx(float(expected))
    chances = dict(zip(KIND_ORDER, kind_chances(plan)[3][tables.keep_index[(4, 4, 4)]]))
    assert chances == pytest.approx(
        {Kind.PAIR: 0, Kind.TRIPLE: 20 / 36, Kind.FOUR: 10 / 36, Kind.FIVE: 1 / 36, Kind.TWO_PAIRS: 0,
         Kind.FULL_HOUSE: 5 / 36, Kind.SMALL: 0, Kind.BIG: 0}
    )


def test_turn_worth_matches_brute_force_enumeration() -> None:
    """Throw by throw, every ordered throw enumerated: the tables' expectations are exact."""
    _, plan = fours_plan()
    tables = dice_tables()
    take = {r: plan.take_worth[i] for i, r in enumerate(tables.results)}
    last = {r: (t if np.isfinite(t) else 0.0) for r, t in take.items()}  # the board is worth 0 when nothing moves

    def keep_worth(kept, after):
        thrown = 5 - len(kept)
        total = sum(after[tuple(sorted(kept + roll))] for roll in itertools.product(FACES, repeat=thrown))
        return total / 6**thrown

    def sub_keeps(result):
        return {c for size in range(5) for c in itertools.combinations(result, size)}

    sample = [k for k in tables.keeps if len(k) >= 2][::7]
    for kept in sample:
        assert plan.keep_worth[2][tables.keep_index[kept]] == pytest.approx(keep_worth(kept, last))
    second = {r: max(take[r], max(keep_worth(k, last) for k in sub_keeps(r))) for r in tables.results if r[0] >= 3}
    for result, worth in second.items():
        assert plan.worth[2][tables.result_index[result]] == pytest.approx(worth)


def test_effects_replay_the_engine() -> None:
    """The advisor's fast replay of an option gives the engine's positions and rocket squares."""
    rng = random.Random(5)
    for board in (default_board(), BLUE_AND_ROCKETS):
        geo = Geometry.of(board)
        for _ in range(300):
            players = rng.choice((2, 3, 4))
            rows = tuple(tuple(rng.randint(0, spec.top) for spec in board.columns) for _ in range(players))
            state = position(players, board=board, dice=tuple(rng.randint(1, 6) for _ in range(5)), throws=3)
            state = replace(state, positions=rows, current=rng.randrange(players))
            for move in legal_moves(state):
                if not isinstance(move, Take):
                    continue
                after = apply(state, move)
                moved, rockets = after_effect(geo, rows, state.current, effect_of(move.option))
                assert moved == after.positions
                if after.phase is not Phase.OVER:
                    assert rockets == (after.rockets if after.phase is Phase.ROCKET else 0)


# --- strength and hints -----------------------------------------------------------------------


def test_the_advisor_beats_greedy_in_a_short_match() -> None:
    advisor, greedy = Advisor(), GreedyBot()
    wins = 0
    for game in range(100):
        first = game % 2 == 0
        final = play((advisor, greedy) if first else (greedy, advisor), random.Random(game // 2))
        wins += (final.winner == 0) == first
    assert wins >= 55


def test_hints_give_ordered_chances_between_0_and_1() -> None:
    advisor = Advisor()
    hinted = 0

    class Hinting:
        name = "hinting"

        def choose(self, state: State):
            nonlocal hinted
            advice = advisor.advise(state)
            assert advice.move == advisor.choose(state)
            shares = [p for _, p in advice.chances]
            assert all(0 < p <= 1 for p in shares) and sum(shares) <= 1 + 1e-9
            assert shares == sorted(shares, reverse=True) and len(shares) <= 3
            assert all(isinstance(kind, Kind) for kind, _ in advice.chances)
            if isinstance(advice.move, Take):
                assert advice.chances == ((advice.move.option.kind, 1.0),)
            if isinstance(advice.move, Rocket) or state.phase is Phase.HANDICAP:
                assert advice.chances == ()
            hinted += isinstance(advice.move, Keep) and len(shares) >= 2
            return advice.move

    for game in range(4):
        play((Hinting(), GreedyBot()), random.Random(game))
    assert hinted > 20


def test_advice_needs_a_decision() -> None:
    with pytest.raises(ValueError, match="dice are due"):
        Advisor().advise(position())


def test_bench_prints_the_contract_line() -> None:
    from firmware.games.counters.bench_advisor import bench_lines

    lines = list(bench_lines(2, 1))
    assert re.fullmatch(r"best: advisor vs-greedy \d+\.\d% \+- \d+\.\d ms-per-decision \d+\.\d", lines[-1])
    assert any("random" in line for line in lines)
