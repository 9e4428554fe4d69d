"""The review of a game against the advisor (issue 54): right by construction, graded as the
README says, shown on the page and in the terminal, and a damaged game named, never a traceback."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cant_stop.advisor import Advisor as CantStopAdvisor
from engine.cant_stop.bots import RandomBot as CantStopRandom
from engine.counters.advisor import Advisor as CountersAdvisor
from engine.dice import Roll
from engine.yacht import Box, Keep, Phase, Score, State
from engine.yacht.advisor import Advisor as YachtAdvisor
from engine.yacht.boxes import BOXES
from firmware.core import catalogue
from firmware.core.game_setup import GameSetup
from firmware.core.reviewing import Grade, Thresholds
from firmware.games.cant_stop.selfplay import play as cant_stop_play
from firmware.games.yacht.advisor_table import advisor_table
from firmware.journal.journal import JOURNAL_NAME, UNDO, Journal
from firmware.review.chart import chart_svg
from firmware.review.game_review import NoReview, NoSuchGame, journaled_review, review_game
from firmware.review.text import review_lines
from firmware.web._app import create_app

ROOT = Path(__file__).resolve().parents[1]
Event = tuple[str, "str | None"]  # an event's text and its source (the journal's)


def journaled(path: Path, kind: str, names: tuple[str, ...], events: list[Event], **options: Any) -> int:
    """A game of ``kind`` journaled with ``events`` as given (each checked by the engine); its id."""
    setup = GameSetup(names, kind=kind, options=options) if options else GameSetup(names, kind=kind)
    journal = Journal(path)
    try:
        if (unfinished := journal.unfinished()) is not None:
            journal.abandon(unfinished.id)
        game = journal.start_game(setup)
        state, earlier = setup.new_state(), []
        engine = setup.game.engine
        for text, source in events:
            if text == UNDO:
                state = earlier.pop()
            else:
                earlier.append(state)
                state = engine.apply(state, engine.parse_move(text))
            journal.append(game, text, setup.game.progress(state), source=source)
        return game
    finally:
        journal.close()


def bot_events(kind: str, players: int, decide: Callable[[Any], Any], seed: int, until: int = 10**6) -> list[Event]:
    """A game played by ``decide`` in every seat on dice drawn from ``seed`` (at most ``until`` events)."""
    engine = catalogue.table_game(kind).engine
    state, rng, events = engine.new_game(players), random.Random(seed), []
    while engine.winner(state) is None and engine.legal_moves(state) + (("roll",) if engine.dice_due(state) else ()) \
            and len(events) < until:
        due = engine.dice_due(state)
        move = Roll(tuple(rng.randint(1, 6) for _ in range(due))) if due else decide(state)
        events.append((engine.move_text(move), "camera" if due else None))
        state = engine.apply(state, move)
    return events


def review_of(tmp_path: Path, kind: str, names: tuple[str, ...], events: list[Event], **options: Any):
    path = tmp_path / JOURNAL_NAME
    game = journaled(path, kind, names, events, **options)
    journal = Journal(path, read_only=True)
    try:
        return journaled_review(journal, game)
    finally:
        journal.close()


# --- right by construction -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_yacht_advisors_own_games_give_away_exactly_nothing(tmp_path, seed):
    advisor = YachtAdvisor(advisor_table())
    review = review_of(tmp_path, "yacht", ("Ann", "Bob"), bot_events("yacht", 2, advisor.choose, seed))
    assert len(review.decisions) >= 26, "every box at least, and the keeps"
    assert [d.given_away for d in review.decisions] == [0.0] * len(review.decisions)
    assert {d.grade for d in review.decisions} == {Grade.BEST}
    assert all(player.given_away == 0.0 for player in review.totals())


def test_the_cant_stop_and_counters_advisors_own_games_give_away_nothing(tmp_path):
    rng = random.Random(4)
    steps = list(cant_stop_play((CantStopAdvisor(), CantStopAdvisor()), rng))
    events = [(str(step.event.text()), "camera" if isinstance(step.event, Roll) else None) for step in steps]
    review = review_of(tmp_path, "cant-stop", ("Ann", "Bob"), events)
    assert review.decisions and all(d.given_away == 0.0 for d in review.decisions)
    counters = CountersAdvisor()
    review = review_of(tmp_path, "counters", ("Ann", "Bob"), bot_events("counters", 2, counters.choose, 5, until=120))
    assert review.decisions and all(d.given_away == 0.0 for d in review.decisions)


def last_turn_card() -> tuple[int | None, ...]:
    """Every box filled but Fives and Chance; the upper boxes with 0 (the bonus out of reach), the
    Yacht box with 0 (no extra-Yacht bonus to come)."""
    card = [0 if box not in (Box.FIVES, Box.CHANCE) else None for box in BOXES]
    return tuple(card)


def test_a_hand_worked_yacht_position_is_graded_with_its_exact_loss():
    """Third roll 5 5 5 6 6 with Fives and Chance open. Fives now: 15, then Chance over a last turn,
    each die kept from 5 up on the second roll and from 4 up on the third: 5 x 14/3 = 70/3. Chance
    now: 27, then Fives over a last turn, each die a 5 with chance 91/216: 25 x 91/216 = 2275/216.
    Scoring Chance gives away 15 + 70/3 - 27 - 2275/216 = 173/216 points: good, under 1."""
    state = State(cards=(last_turn_card(),), extra_yachts=(0,), phase=Phase.CHOOSE, dice=(5, 5, 5, 6, 6), rolls=3)
    judge = catalogue.reviewer("yacht").judge()
    chance = judge(state, Score(Box.CHANCE), False, None)
    assert chance.advised == Score(Box.FIVES)
    assert chance.advised_worth - chance.played_worth == pytest.approx(173 / 216, abs=1e-9)
    assert chance.advised_worth == pytest.approx(15 + 70 / 3, abs=1e-9)
    assert catalogue.reviewer("yacht").thresholds.grade(173 / 216) is Grade.GOOD
    fives = judge(state, Score(Box.FIVES), False, None)
    assert fives.played_worth == fives.advised_worth


def test_a_keep_worked_out_from_the_dice_left_lying_gets_the_benefit_of_the_doubt(tmp_path):
    """The advisor kept 6 6 6 and threw 1 and 4 again, which came up 1 and 4: the tray reads as
    "keep 1-4-6-6, roll 6" (every face still showing counts as kept). Chosen from the list, that
    keep is graded as made; worked out from the tray, as the best keep the dice allow."""
    opening = [("roll 3-4-4-6-6", "camera"), ("keep 4-6-6", None), ("roll 1-6", "camera")]
    lying = review_of(tmp_path, "yacht", ("Ann",), opening + [("keep 1-4-6-6", "camera"), ("roll 6", "camera")])
    listed = review_of(tmp_path, "yacht", ("Ann",), opening + [("keep 1-4-6-6", None), ("roll 6", "camera")])
    assert lying.decisions[-1].given_away == 0.0 and "kept 6 6 6" in lying.decisions[-1].played
    assert "left lying" in lying.decisions[-1].played
    assert listed.decisions[-1].given_away > 8 and listed.decisions[-1].grade is Grade.BLUNDER


def random_position(kind: str, seed: int, steps: int) -> Any | None:
    """A position of ``kind`` reached by random moves and dice from ``seed``, where a decision is due."""
    engine = catalogue.table_game(kind).engine
    rng = random.Random(seed)
    state = engine.new_game(2)
    for _ in range(steps):
        if engine.winner(state) is not None:
            return None
        due = engine.dice_due(state)
        moves = engine.legal_moves(state)
        if due and (not moves or rng.random() < 0.7):
            state = engine.apply(state, Roll(tuple(rng.randint(1, 6) for _ in range(due))))
        elif moves:
            state = engine.apply(state, rng.choice(moves))
        else:
            return None
    return state if len(choices(engine, state, rng)) > 1 else None


def choices(engine: Any, state: Any, rng: random.Random) -> list[Any]:
    """What the player to move may do: the legal moves, and a roll where dice may be thrown (in
    Can't Stop, rolling on is the other choice beside stopping)."""
    due = engine.dice_due(state)
    return list(engine.legal_moves(state)) + ([Roll(tuple(rng.randint(1, 6) for _ in range(due)))] if due else [])


def bots_choice(kind: str, state: Any) -> Any:
    """What the advisor (Columns: the search, its moves in their natural order) plays in ``state``."""
    if kind == "yacht":
        return YachtAdvisor(advisor_table()).choose(state)
    if kind == "counters":
        return CountersAdvisor().choose(state)
    if kind == "columns":
        from engine.columns.rules import legal_moves
        from engine.columns.search import Search, ordered

        return Search().best(state, ordered(state, legal_moves(state)))
    from engine.cant_stop import STOP, Phase as CantStopPhase, legal_moves as cant_stop_moves

    if state.phase is CantStopPhase.CHOOSE:
        return CantStopAdvisor().choose(state, cant_stop_moves(state))
    return STOP if CantStopAdvisor().should_stop(state) else "roll on"


@pytest.mark.parametrize("kind, most", [("yacht", 60), ("cant-stop", 60), ("counters", 40), ("columns", 8)])
def test_the_advisors_choice_is_worth_at_least_any_legal_choice(kind, most):
    engine = catalogue.table_game(kind).engine
    reviewer = catalogue.reviewer(kind)

    judged_moves: list[Any] = []

    @settings(max_examples=most, deadline=None, derandomize=True)
    @given(seed=st.integers(0, 10**6), steps=st.integers(1, 80))
    def check(seed, steps):
        state = random_position(kind, seed, steps)
        if state is None:
            return
        judge = reviewer.judge()
        for move in choices(engine, state, random.Random(seed))[:12]:
            judged = judge(state, move, False, None)
            if judged is None:  # a roll told in a position where rolling is no choice
                continue
            judged_moves.append(move)
            assert judged.advised_worth >= judged.played_worth, (kind, state, move)
            assert judged.advised == bots_choice(kind, state), "the advice is what the advisor plays"
            if move == judged.advised:
                assert judged.played_worth == judged.advised_worth

    check()
    assert len(judged_moves) >= most, "positions enough were judged"
    if kind == "cant-stop":
        assert any(isinstance(move, Roll) for move in judged_moves), "rolling on was judged too"


def test_a_stop_that_wins_is_the_advice_even_where_no_roll_can_bust():
    """Ann holds 5 and 7 and her runner tops 9: stopping wins. Some two of any four dice sum to an
    even number, so no roll busts, and the chances of rolling on summed to 1.0000000000000002
    against the stop's 1.0: the advisor said roll on."""
    from engine.cant_stop import HEIGHTS, Phase as CantStopPhase, State as CantStopState
    from engine.cant_stop.board import COLUMNS

    saved = tuple(HEIGHTS[c] if c in (5, 7) else 0 for c in COLUMNS)
    claimed = tuple(0 if c in (5, 7) else None for c in COLUMNS)
    state = CantStopState(players=2, saved=(saved, (0,) * len(COLUMNS)), claimed=claimed,
                          runners=((9, HEIGHTS[9]),), phase=CantStopPhase.ROLL)
    assert CantStopAdvisor().should_stop(state)
    judged = catalogue.reviewer("cant-stop").judge()(state, Roll((1, 2, 3, 4)), False, None)
    assert judged.advised == bots_choice("cant-stop", state) and judged.advised_worth > judged.played_worth - 1e-12
    stop, roll = CantStopAdvisor().stop_or_roll_worths(state)
    assert stop >= roll


def test_a_game_in_play_and_an_abandoned_one_are_reviewed_as_far_as_they_went(tmp_path):
    moves = [("roll 1-1-2-2", "camera"), ("2+4", None), ("roll 1-2-3-4", "camera"), ("4+6", None)]
    first = review_of(tmp_path, "cant-stop", ("Ann", "Bob"), moves)
    assert first.status == "playing" and "being played" in first.note and len(first.decisions) == 3
    second = review_of(tmp_path, "cant-stop", ("Ann", "Bob"), moves[:2])  # the one before is abandoned
    path = tmp_path / JOURNAL_NAME
    journal = Journal(path, read_only=True)
    try:
        abandoned = journaled_review(journal, first.game)
    finally:
        journal.close()
    assert abandoned.status == "abandoned" and abandoned.note == "" and abandoned.decisions == first.decisions
    assert second.status == "playing"


def test_a_keep_read_from_the_tray_whose_roll_was_taken_back_is_read_as_any_of_its_dice(tmp_path):
    events = [("roll 3-4-4-6-6", "camera"), ("keep 4-4-6-6", "camera"), ("roll 1", "camera"), (UNDO, None)]
    review = review_of(tmp_path, "yacht", ("Ann",), events)
    assert review.decisions[-1].given_away == 0.0 and "left lying" in review.decisions[-1].played


def test_roll_or_stop_is_a_decision_in_cant_stop(tmp_path):
    review = review_of(tmp_path, "cant-stop", ("Ann", "Bob"),
                       [("roll 1-1-2-2", "camera"), ("2+4", None), ("roll 1-2-3-4", "camera"), ("4+6", None), ("stop", None)])
    said = [d.played for d in review.decisions]
    assert "Ann rolled on" in said and "Ann stopped" in said


# --- graded as the README says --------------------------------------------------------------


def readme_thresholds() -> dict[str, tuple[float, float, float]]:
    """The README's table of grades: game -> (inaccuracy, mistake, blunder)."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("### How decisions are graded"):]
    rows = re.findall(r"^\| (Yacht|Can't Stop|Counters to Top|Columns)(?: \([^)]*\))? \| [^|]+ \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|",
                      section, re.MULTILINE)
    return {title: (float(a), float(b), float(c)) for title, a, b, c in rows}


def test_the_grades_thresholds_are_the_readmes():
    said = readme_thresholds()
    graded = [game for game in catalogue.games() if catalogue.reviewer(game.kind) is not None]
    assert set(said) == {game.title for game in graded}
    for game in graded:
        limits = catalogue.reviewer(game.kind).thresholds
        inaccuracy, mistake, blunder = said[game.title]
        assert (limits.inaccuracy, limits.mistake, limits.blunder) == (inaccuracy, mistake, blunder)
        assert limits.grade(0.0) is Grade.BEST
        assert limits.grade(inaccuracy / 2) is Grade.GOOD
        assert limits.grade(inaccuracy) is Grade.INACCURACY
        assert limits.grade(mistake - 1e-6) is Grade.INACCURACY
        assert limits.grade(mistake) is Grade.MISTAKE
        assert limits.grade(blunder) is Grade.BLUNDER
        assert limits.grade(blunder * 10) is Grade.BLUNDER


def test_thresholds_that_do_not_rise_are_refused():
    with pytest.raises(ValueError, match="rise"):
        Thresholds(1.0, 1.0, 2.0)


# --- what cannot be reviewed is said ---------------------------------------------------------


def test_tumblin_dice_says_it_has_no_choices_and_an_unmodelled_variant_says_so(tmp_path):
    tumblin = review_of(tmp_path, "tumblin", ("Ann", "Bob"), [])
    assert "game of skill" in tumblin.note and not tumblin.decisions
    assert chart_svg(tumblin, "/games/1") == ""
    jumping = review_of(tmp_path, "cant-stop", ("Ann", "Bob"), [("roll 1-1-2-2", "camera"), ("2+4", None)], rule="jumping")
    assert "standard rules" in jumping.note and "Jumping" in jumping.note and not jumping.decisions
    assert any("Jumping" in line for line in review_lines(jumping))


def test_a_damaged_game_is_named_and_not_reviewed(tmp_path):
    path = tmp_path / JOURNAL_NAME
    game = journaled(path, "cant-stop", ("Ann", "Bob"), [("roll 1-1-2-2", "camera"), ("2+4", None), ("stop", None)])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET names = 'not json' WHERE id = ?", (game,))
    journal = Journal(path, read_only=True)
    try:
        with pytest.raises(NoReview, match=f"game {game} is damaged"):
            journaled_review(journal, game)
        with pytest.raises(NoSuchGame, match="no game 99"):
            journaled_review(journal, 99)
    finally:
        journal.close()
    page = create_app(path).test_client().get(f"/games/{game}/review")
    assert page.status_code == 422 and f"game {game} is damaged" in page.get_data(as_text=True)
    assert create_app(path).test_client().get("/games/99/review").status_code == 404


def record_of(tmp_path: Path, kind: str, names: tuple[str, ...], events: list[Event]):
    """The journal's record of a game journaled with ``events``."""
    path = tmp_path / JOURNAL_NAME
    game = journaled(path, kind, names, events)
    journal = Journal(path, read_only=True)
    try:
        return journal.game(game)
    finally:
        journal.close()


@pytest.mark.parametrize("kind, names, events, why", [
    ("cant-stop", ("Ann", "Bob"), ["roll 1-1-2-2", "9+9"], "does not replay at step 2"),
    ("yacht", ("Ann",), ["roll 1-2-3-4-5", "fly away"], "holds an event that is no move of Yacht"),
])
def test_events_that_do_not_replay_are_named(tmp_path, kind, names, events, why):
    record = record_of(tmp_path, kind, names, [(events[0], "camera")])
    with pytest.raises(NoReview, match=f"game {record.id} {why}"):
        review_game(record, events)


# --- the terminal and the page ---------------------------------------------------------------


@pytest.fixture
def yacht_game(tmp_path) -> Iterator[tuple[Path, int]]:
    """A finished 2-player Yacht game, the advisor against a player who always scores at once."""
    advisor = YachtAdvisor(advisor_table())

    def decide(state: State) -> Any:
        if state.current == 0:
            return advisor.choose(state)
        return next(move for move in (m for m in advisor.choices(state)) if isinstance(move.move, Score)).move

    path = tmp_path / JOURNAL_NAME
    game = journaled(path, "yacht", ("Ann", "Bob"), bot_events("yacht", 2, decide, 7))
    yield path, game


def test_history_review_prints_totals_and_the_costliest_decisions(yacht_game, capsys):
    from firmware.cli import main

    path, game = yacht_game
    assert main(["history", "--data", str(path.parent), "--review", str(game)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"review of game {game}: Yacht, Ann, Bob, finished"
    assert re.fullmatch(r"Ann +\d+ +0\.0 +\d+ +0 +0 +0 +0", lines[3])
    assert re.fullmatch(r"Bob +\d+ +\d+\.\d +.*", lines[4])
    costly = [line for line in lines if line.startswith("step ")]
    assert costly and all("Bob" in line and "given away" in line for line in costly)
    assert main(["history", "--data", str(path.parent), "--review", "42"]) == 2
    assert "no game 42" in capsys.readouterr().err


def test_the_review_page_draws_the_chart_links_each_costly_decision_and_is_kept(yacht_game, monkeypatch):
    from firmware.review import game_review

    path, game = yacht_game
    client = create_app(path).test_client()
    assert f'href="/games/{game}/review"' in client.get(f"/games/{game}").get_data(as_text=True)
    computed = []
    real = game_review.review_game
    monkeypatch.setattr(game_review, "review_game", lambda *args: computed.append(1) or real(*args))
    page = client.get(f"/games/{game}/review").get_data(as_text=True)
    assert "<svg" in page and "expected final score" in page
    steps = re.findall(rf'<a href="/games/{game}\?step=(\d+)">Round \d+, Bob ', page)
    assert 1 <= len(steps) <= 10
    assert "Ann</b>: " in page and "0.0 points given away" in page
    assert "inaccuracy: 1.0 points or more" in page
    client.get(f"/games/{game}/review")
    assert computed == [1], "a finished game's review is computed once"


def test_a_seeded_cant_stop_games_review_reads_and_draws_as_its_references(tmp_path, update_golden):
    """The advisor against Rule of 28 on seeded dice: the terminal's lines and the chart, kept as
    references (looked at; rewritten only with --update-golden)."""
    from engine.cant_stop.rule28 import Rule28
    from golden import assert_matches_golden_text

    steps = list(cant_stop_play((CantStopAdvisor(), Rule28()), random.Random(11)))
    events = [(str(step.event.text()), "camera" if isinstance(step.event, Roll) else None) for step in steps]
    review = review_of(tmp_path, "cant-stop", ("Ann", "Bob"), events)
    assert_matches_golden_text("\n".join(review_lines(review)) + "\n", "review-cant-stop.txt", update_golden)
    assert_matches_golden_text(chart_svg(review, "/games/1") + "\n", "review-chart-cant-stop.svg", update_golden)

