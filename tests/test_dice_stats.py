"""Dice statistics from the journal: standing rolls with their sources, face counts, the chi-square
test checked against numbers computed here another way, and Can't Stop's bust calibration."""

from __future__ import annotations

import itertools
import math
import sqlite3
from fractions import Fraction
from pathlib import Path

import pytest

from engine.cant_stop import GAME
from engine.dice import Roll
from firmware.core.game_setup import GameSetup
from firmware.journal.dice_stats import (
    Band,
    ChiSquare,
    RollRecord,
    bust_calibration,
    chi_square,
    chi_square_p,
    face_band,
    face_counts,
    fairness_sentence,
    rolls,
)
from firmware.journal.journal import UNDO, Journal
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from table_helpers import NAMES, press, show_frames, start_game
from test_journal import journal_with
from test_journal_damage import WIN


def chi_square_density_tail(statistic: float, dof: int, steps: int = 4000) -> float:
    """1 minus the integral of the chi-square density from 0 to ``statistic``, by Simpson's rule
    after x = u**2 (which makes the integrand smooth at 0): an independent check of the p-value."""
    norm = 2 ** (dof / 2) * math.gamma(dof / 2)
    top = math.sqrt(statistic)

    def integrand(u: float) -> float:
        return (u * u) ** (dof / 2 - 1) * math.exp(-u * u / 2) / norm * 2 * u

    h = top / steps
    total = integrand(0.0) + integrand(top)
    total += sum((4 if i % 2 else 2) * integrand(i * h) for i in range(1, steps))
    return 1 - total * h / 3


@pytest.mark.parametrize(("statistic", "p_value"), [(11.0705, 0.05), (15.0863, 0.01), (1.1455, 0.95), (9.2364, 0.10)])
def test_the_p_value_at_5_degrees_of_freedom_matches_the_published_table(statistic, p_value):
    assert chi_square_p(statistic, 5) == pytest.approx(p_value, abs=1e-5)  # the table's statistics have 4 decimals


@pytest.mark.parametrize("statistic", [0.01, 0.3, 1.1455, 4.0, 6.99, 7.01, 13.4, 30.0, 60.0])
def test_the_p_value_at_5_degrees_of_freedom_is_the_integral_of_the_density(statistic):
    assert chi_square_p(statistic, 5) == pytest.approx(chi_square_density_tail(statistic, 5), rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("statistic", [0.001, 0.5, 2.0, 3.9, 10.0, 45.0, 150.0])
def test_the_p_value_matches_closed_forms_at_1_2_and_4_degrees_of_freedom(statistic):
    half = statistic / 2
    assert chi_square_p(statistic, 1) == pytest.approx(math.erfc(math.sqrt(half)), rel=1e-10, abs=1e-300)
    assert chi_square_p(statistic, 2) == pytest.approx(math.exp(-half), rel=1e-10, abs=1e-300)
    assert chi_square_p(statistic, 4) == pytest.approx(math.exp(-half) * (1 + half), rel=1e-10, abs=1e-300)


def test_the_statistic_of_fixed_counts():
    counts = (5, 8, 9, 8, 10, 20)  # 60 dice, 10 expected a face
    result = chi_square(counts)
    assert result.statistic == pytest.approx((25 + 4 + 1 + 4 + 0 + 100) / 10) and result.dof == 5 and result.dice == 60
    assert result.p_value == pytest.approx(chi_square_density_tail(13.4, 5), rel=1e-9)
    assert chi_square((10,) * 6) == ChiSquare(0.0, 5, 1.0, 60)
    assert chi_square((0,) * 6) == ChiSquare(0.0, 5, 1.0, 0)


@pytest.mark.parametrize("counts", [(3,), (1, 2, -1, 4, 5, 6), (1, 2, 2.5, 4, 5, 6)])
def test_counts_that_are_not_counts_are_refused(counts):
    with pytest.raises(ValueError, match="allowed is a count"):
        chi_square(counts)


@pytest.mark.parametrize(
    ("counts", "sentence"),
    [
        ((180, 220, 200, 210, 190, 204), "With 1,204 dice read, faces this uneven would turn up by chance in 41 % of fair "
         "sets: no sign of a biased die."),
        ((170, 230, 200, 215, 185, 204), "With 1,204 dice read, faces this uneven would turn up by chance in 4.6 % of "
         "fair sets: a hint of bias, worth watching as more dice are read."),
        ((160, 240, 195, 215, 185, 209), "With 1,204 dice read, faces this uneven would turn up by chance in 0.2 % of "
         "fair sets: these dice may be biased (or the reader misreads one face)."),
        ((150, 250, 195, 215, 185, 209), "With 1,204 dice read, faces this uneven would turn up by chance in less than "
         "0.1 % of fair sets: these dice may be biased (or the reader misreads one face)."),
        ((200, 201, 199, 200, 202, 202), "With 1,204 dice read, faces this uneven would turn up by chance in more than "
         "99 % of fair sets: no sign of a biased die."),
        ((5, 5, 5, 5, 5, 4), "Too few dice (29) to tell: at least 30 are needed (5 expected per face)."),
    ],
)
def test_the_fairness_sentence(counts, sentence):
    assert fairness_sentence(chi_square(counts)) == sentence


def test_the_expected_band_of_a_face():
    spread = 1.96 * math.sqrt(1204 * (1 / 6) * (5 / 6))
    band = face_band(1204)
    assert band.expected == pytest.approx(1204 / 6)
    assert (band.low, band.high) == pytest.approx((1204 / 6 - spread, 1204 / 6 + spread))
    assert face_band(0) == Band(0.0, 0.0, 0.0) and face_band(2).low == 0.0


# --- rolls read at the table, from games played through the companion ----------------------


def camera_roll(companion: Companion, tray: SyntheticCamera, dice: tuple[int, ...]) -> None:
    tray.place(dice)
    press(companion, Press.ROLL)
    show_frames(companion, tray)


def hand_roll(companion: Companion, dice: tuple[int, ...]) -> None:
    """SELECT opens the dice entry (as when the camera is overruled), each die set with NEXT, SELECT."""
    press(companion, Press.SELECT)
    for value in dice:
        press(companion, *(Press.NEXT,) * (value - 1), Press.SELECT)


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A journal of two games played at the companion. Can't Stop with the red casino dice (later
    abandoned): Ann's camera roll, a misread undone, her roll by hand, banked; Bob's roll by hand.
    Counters with the green dice: the handicap, a camera throw, a rethrow keeping four (misread,
    undone), the last die entered by hand."""
    path = tmp_path_factory.mktemp("played") / "journal.sqlite3"
    tray = SyntheticCamera(seed=5)
    ann = Companion(dummy_display(), GameSetup(NAMES, dice_set="red casino"), journal=Journal(path))
    start_game(ann)
    camera_roll(ann, tray, (1, 4, 5, 6))
    press(ann, Press.SELECT)  # the first choice
    camera_roll(ann, tray, (2, 2, 3, 3))
    press(ann, Press.UNDO)  # "that is not what we rolled"
    hand_roll(ann, (2, 3, 3, 5))
    press(ann, Press.SELECT, Press.STOP)  # the first choice, then bank
    hand_roll(ann, (6, 6, 6, 6))  # Bob's
    press(ann, Press.SELECT)
    ann.journal.close()
    bob = Companion(dummy_display(), GameSetup(NAMES, kind="counters", dice_set="green"), journal=Journal(path))
    press(bob, Press.STOP, Press.STOP)  # the resumed game abandoned
    while bob._menu.kind != "counters":
        press(bob, Press.NEXT)
    start_game(bob)
    press(bob, Press.SELECT)  # Bob's handicap in column 1
    camera_roll(bob, tray, (2, 2, 4, 4, 6))
    camera_roll(bob, tray, (2, 2, 4, 4, 4))  # keeps 2-2-4-4 and throws one
    press(bob, Press.UNDO)
    hand_roll(bob, (2, 2, 4, 4, 1))
    bob.journal.close()
    return path


def test_each_roll_is_journaled_with_where_its_dice_were_read(played):
    journal = Journal(played, read_only=True)
    assert journal.sourced_events(1) == [
        ("roll 1-4-5-6", "camera"), ("5+11", None), ("roll 2-2-3-3", "camera"), (UNDO, None),
        ("roll 2-3-3-5", "hand"), ("5+8", None), ("stop", None), ("roll 6-6-6-6", "hand"), ("12+12", None),
    ]
    assert journal.sourced_events(2) == [
        ("handicap 1", None), ("roll 2-2-4-4-6", "camera"), ("keep 2-2-4-4", "camera"), ("roll 4", "camera"), (UNDO, None),
        ("roll 1", "hand"),
    ]  # the keep was worked out from the dice left lying in the tray: its source says so
    assert [(game.setup.kind, game.setup.dice_set, game.status) for game in journal.games()] == [
        ("cant-stop", "red casino", "abandoned"), ("counters", "green", "playing"),
    ]


def test_only_the_rolls_still_standing_are_counted(played):
    found = rolls(Journal(played, read_only=True))
    assert [(r.game, r.seq, r.kind, r.dice_set, r.source, r.dice) for r in found] == [
        (1, 1, "cant-stop", "red casino", "camera", (1, 4, 5, 6)),
        (1, 5, "cant-stop", "red casino", "hand", (2, 3, 3, 5)),
        (1, 8, "cant-stop", "red casino", "hand", (6, 6, 6, 6)),
        (2, 2, "counters", "green", "camera", (2, 2, 4, 4, 6)),
        (2, 6, "counters", "green", "hand", (1,)),
    ]
    assert [r.busted for r in found] == [False, False, False, None, None]
    counts = face_counts(found)
    assert counts == {
        (None, None): (2, 3, 2, 3, 2, 6),
        (None, "camera"): (1, 2, 0, 3, 1, 2),
        (None, "hand"): (1, 1, 2, 0, 1, 4),
        ("green", None): (1, 2, 0, 2, 0, 1),
        ("green", "camera"): (0, 2, 0, 2, 0, 1),
        ("green", "hand"): (1, 0, 0, 0, 0, 0),
        ("red casino", None): (1, 1, 2, 1, 2, 5),
        ("red casino", "camera"): (1, 0, 0, 1, 1, 1),
        ("red casino", "hand"): (0, 1, 2, 0, 1, 4),
    }
    assert face_counts([]) == {(None, None): (0,) * 6}


def brute_force_odds(state) -> Fraction:
    """The chance of a bust before a roll, by throwing all 1296 ways: a bust is a throw after which
    the engine passes the dice to the next player."""
    busts = sum(GAME.apply(state, Roll(throw)).current != state.current for throw in itertools.product(range(1, 7), repeat=4))
    return Fraction(busts, 6**4)


def test_the_bust_calibration_of_a_recorded_game(tmp_path):
    moves = (*WIN[:5], "roll 2-2-2-2", UNDO, *WIN[5:])  # Bob's first roll misread, taken back, then the bust
    journal, game = journal_with(tmp_path / "j.sqlite3", *moves)
    journal.close()
    found = rolls(Journal(tmp_path / "j.sqlite3", read_only=True))
    assert {r.source for r in found} == {"unknown"} and len(found) == sum(move.startswith("roll") for move in WIN)
    state = GAME.new_game(2)
    expected: list[tuple[Fraction, bool]] = []
    for move in WIN:
        parsed = GAME.parse_move(move)
        after = GAME.apply(state, parsed)
        if isinstance(parsed, Roll):
            expected.append((brute_force_odds(state), after.current != state.current))
        state = after
    assert [(r.bust_odds, r.busted) for r in found] == expected
    assert [busted for _, busted in expected].count(True) == 2, "Bob's 1-1-1-1 twice, after Ann claimed column 2"
    bins = bust_calibration(found)
    assert [(b.low, b.high) for b in bins] == [(i / 10, (i + 1) / 10) for i in range(10)]
    for number, tally in enumerate(bins):
        inside = [(odds, busted) for odds, busted in expected if number <= odds * 10 < number + 1]
        assert (tally.rolls, tally.busts) == (len(inside), sum(busted for _, busted in inside))
        assert tally.expected == pytest.approx(float(sum(odds for odds, _ in inside)))
    assert sum(b.rolls for b in bins) == len(expected)


def test_bins_fall_on_the_exact_odds():
    at = [RollRecord(1, 1, "cant-stop", "dice", "hand", (1, 1, 1, 1), odds, odds == 1) for odds in
          (Fraction(0), Fraction(1, 10), Fraction(99, 100), Fraction(1))]
    bins = bust_calibration(at, bins=10)
    assert [b.rolls for b in bins] == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert bins[9].busts == 1 and bins[9].odds == pytest.approx(0.995) and bins[9].rate == 0.5 and bins[5].rate is None


def test_a_damaged_game_and_one_that_does_not_replay_are_left_out(tmp_path):
    path = tmp_path / "j.sqlite3"
    for _ in range(3):
        journal_with(path, *WIN[:6])[0].close()
    db = sqlite3.connect(path)
    db.execute("UPDATE games SET names = '[\"Ann\", \"Bo' WHERE id = 1")
    db.execute("INSERT INTO events (game, seq, event, at) VALUES (2, 7, 'stop', 0)")  # a move the rules refuse
    db.commit()
    db.close()
    journal = Journal(path, read_only=True)
    assert [game.id for game in journal.damaged()] == [1]
    assert {r.game for r in rolls(journal)} == {3}


def test_the_page_says_a_keep_worked_out_from_the_tray_was_the_dice_left_lying(played):
    """It named the inferred keep as the seat's choice ("kept 2 2 2 4 ... kept 2 2 2 2")."""
    from firmware.web import _views as views

    record, events, sources = views.steps(Journal(played, read_only=True), 2)
    said = views.replay(record, events, sources).steps
    assert [step for step in said if "kept" in step] == [f"{record.setup.names[0]} kept 2, 2, 4 and 4 (the dice left lying)"]
    assert not any("left lying" in step for step in views.replay(record, events).steps), "without sources: as before"
