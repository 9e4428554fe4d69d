"""The bots: legal over many games, Rule of 28 counted by hand, the advisor right where it is clear."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from engine.cant_stop import GAME, HEIGHTS, Advance, State, Variant, bust_probability, can_stop, choices
from engine.cant_stop.advisor import Advisor, AdvisorParams, TurnSearch, _choices, board_value, outcomes
from engine.dice import all_rolls
from engine.cant_stop.bots import Bot, RandomBot
from engine.cant_stop.rule28 import Rule28, progress_score, split_score
from firmware.cli import main
from firmware.games.cant_stop.selfplay import play, solitaire_turns


@dataclass
class Checked:
    """Wraps a bot and checks each decision against the rules."""

    bot: Bot
    decisions: int = 0

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self, state: State, options: tuple[Advance, ...]) -> Advance:
        choice = self.bot.choose(state, options)
        assert choice in options
        self.decisions += 1
        return choice

    def should_stop(self, state: State) -> bool:
        assert can_stop(state), "asked only when stopping is legal"
        self.decisions += 1
        return self.bot.should_stop(state)


VARIANTS = (Variant(), Variant(jumping=True), Variant(forced_move=True), Variant(columns_to_win=4))


def test_random_and_rule28_play_thousands_of_legal_games():
    rng = random.Random(11)
    for game in range(2000):
        players = 2 + game % 3
        variant = VARIANTS[game % len(VARIANTS)] if players < 4 or game % len(VARIANTS) != 3 else Variant()
        bots = [Checked(RandomBot(rng) if seat % 2 else Rule28()) for seat in range(players)]
        *_, last = play(bots, rng, variant)
        assert last.after.winner is not None


def test_the_advisor_plays_legal_games_under_every_variant():
    rng = random.Random(12)
    checked = Checked(Advisor())
    for game in range(60):
        players = 2 + game % 3
        variant = VARIANTS[game % len(VARIANTS)] if players < 4 or game % len(VARIANTS) != 3 else Variant()
        seats = [checked] + [Checked(Rule28()) for _ in range(players - 1)]
        *_, last = play(seats, rng, variant)
        assert last.after.winner is not None
    assert checked.decisions > 1000


def test_rule28_scores_on_hand_built_positions():
    ann_even_high = State(players=2, runners=((8, 1), (10, 1), (12, 1)))
    assert progress_score(ann_even_high) == 2 * 2 + 4 * 2 + 6 * 2 - 2 + 4  # 26: all even, all >= 7
    ann_odd_low = State(players=2, runners=((3, 2), (5, 1), (7, 1)))
    assert progress_score(ann_odd_low) == 5 * 3 + 3 * 2 + 1 * 2 + 2 + 4  # 29: odd, all <= 7
    ann_mixed = State(players=2, runners=((2, 1), (7, 2), (12, 1)))
    assert progress_score(ann_mixed) == 6 * 2 + 1 * 3 + 6 * 2  # 27: mixed parity, both sides of 7
    assert not Rule28().should_stop(ann_mixed) and Rule28().should_stop(ann_odd_low)
    fresh = State(players=2)
    assert split_score(fresh, Advance((6, 8))) == 5 + 5 - 12
    assert split_score(ann_mixed, Advance((7, 7))) == 12
    assert Rule28().choose(ann_mixed, (Advance((6,)), Advance((7, 7)))) == Advance((7, 7))


def test_rule28_never_stops_with_a_runner_slot_open_and_always_when_stopping_wins():
    one_runner_far = State(players=2, runners=((2, 2), (12, 2)))
    assert progress_score(one_runner_far) >= 28 and not Rule28().should_stop(one_runner_far)
    two_claimed = State(players=2, claimed=(0, 0) + (None,) * 9, saved=((3, 5) + (0,) * 9, (0,) * 11),
                        runners=((12, 3),))
    assert Rule28().should_stop(two_claimed)


def test_the_advisor_stops_when_stopping_wins_and_rolls_on_a_first_small_step():
    wins = State(players=2, claimed=(0, 0) + (None,) * 9, saved=((3, 5) + (0,) * 9, (0,) * 11), runners=((12, 3),))
    assert Advisor().should_stop(wins)
    first_step = State(players=2, runners=((7, 1),))
    assert not Advisor().should_stop(first_step)


def test_the_advisor_banks_a_big_turn_when_the_next_roll_is_risky():
    # runners high on 2, 3 and 12, where few throws land: banking six spaces beats the 44 % bust risk
    risky = State(players=2, runners=((2, 2), (3, 4), (12, 2)))
    assert Advisor().should_stop(risky)


def test_the_advisor_takes_the_split_that_wins():
    # Ann has claimed 2 and 3 and stands one below the top of 7: 7+7 climbs it (and wins on a stop)
    state = State(players=2, claimed=(0, 0) + (None,) * 9, saved=((3, 5, 0, 0, 0, 12) + (0,) * 5, (0,) * 11))
    state = GAME.apply(state, GAME.parse_move("roll 3-4-3-4"))
    options = GAME.legal_moves(state)
    assert Advance((7,)) in options and Advance((6, 8)) in options
    assert Advisor().choose(state, options) == Advance((7,))


def test_the_advisor_values_progress_claims_and_wins_in_that_order():
    params = AdvisorParams()
    empty = {c: 0 for c in range(2, 13)}
    climbing = empty | {7: 6}
    higher = empty | {7: 9}
    claimed = empty | {2: 3}
    won = empty | {2: 3, 3: 5, 12: 3}
    values = [board_value(board, frozenset(), 3, params) for board in (empty, climbing, higher, claimed, won)]
    assert values == sorted(values) and len(set(values)) == 5
    assert board_value(climbing, frozenset({7}), 3, params) == 0, "a column an opponent claimed is worth nothing"
    search = TurnSearch(State(players=2, runners=((7, 2),)), params)
    value = board_value(empty | {7: 2}, frozenset(), 3, params)
    assert search.banked(search.runners) == search.worth(value)
    assert 0 < search.worth(0) < search.worth(value) < search.worth(3) < search.top == 1.0, "a chance of winning the race"
    assert search.worth(params.turns_left_at_zero / params.turns_per_value) > 0.5, "a turn's lead is worth more than even"


def test_the_advisors_rules_model_gives_the_engines_choices():
    """The lookahead's own model of the standard rules leads to the same runners as the engine's choices."""
    rng = random.Random(21)
    states = [step.before for step in play((RandomBot(rng), RandomBot(rng)), rng) if step.before.phase.value == "roll"]
    for state in states[:: max(1, len(states) // 40)]:
        search = TurnSearch(state, AdvisorParams())
        rooms = tuple((c, min(HEIGHTS[c] - s, 2)) for c, s in search.runners)
        groups, bust = outcomes(rooms, search.blocked)
        assert abs(bust - float(bust_probability(state))) < 1e-12
        for roll, _ in all_rolls(4):
            engine = {tuple(sorted(GAME.apply(GAME.apply(state, roll), move).runners)) for move in choices(state, roll)}
            model = {search.advanced(search.runners, o) for o in _choices(dict(rooms), search.blocked, roll.dice)}
            assert model == engine, (state, roll)


def test_the_advisor_needs_fewer_solitaire_turns_than_rule28():
    rng_a, rng_b = random.Random(5), random.Random(5)
    advisor = sum(solitaire_turns(Advisor(), rng_a) for _ in range(60)) / 60
    rule28 = sum(solitaire_turns(Rule28(), rng_b) for _ in range(60)) / 60
    assert advisor < rule28


def test_bench_advisor_prints_its_figures_and_the_contract_line(capsys):
    assert main(["bench-advisor", "--games", "6", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"best: \w+ solitaire-turns \d+\.\d\d vs-rule28 \d+\.\d% ms-per-decision \d+\.\d", lines[-1])
    assert any(line.startswith("  rule28 vs advisor") or line.startswith("  advisor vs rule28") for line in lines)
