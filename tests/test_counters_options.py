"""Recorded throws with their exact options, and the text form of every kind of move."""

from itertools import combinations

import pytest

from engine.counters import (
    PASS,
    STRAIGHT,
    Handicap,
    Keep,
    Kind,
    Rocket,
    Take,
    make_option,
    move_text,
    options,
    parse_move,
)
from engine.dice import Roll, all_rolls
from engine.errors import StateFormatError


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((2, 2, 2, 4, 6), ["pair 2", "triple 2"]),  # Emma: the 4 and the 6 are of no use
        ((2, 2, 4, 4, 6), ["pair 2", "pair 4", "two-pairs 2+4"]),  # Sam
        ((2, 2, 2, 4, 4), ["pair 2", "pair 4", "triple 2", "two-pairs 2+4", "full-house 2+4"]),  # Emma
        ((1, 2, 3, 4, 4), ["pair 4", "small", "small+4"]),  # Sam
        ((2, 2, 3, 3, 3), ["pair 2", "pair 3", "triple 3", "two-pairs 2+3", "full-house 3+2"]),  # Ben
        ((1, 2, 3, 4, 5), ["small", "big"]),  # 1-2-3-4 and 2-3-4-5 are one small straight
        ((2, 3, 4, 5, 6), ["small", "big"]),
        ((3, 4, 5, 6, 6), ["pair 6", "small", "small+6"]),
        ((1, 1, 2, 3, 4), ["pair 1", "small", "small+1"]),
        ((1, 3, 4, 5, 6), ["small"]),
        ((5, 5, 5, 5, 1), ["pair 5", "triple 5", "four 5"]),
        ((6, 6, 6, 6, 6), ["pair 6", "triple 6", "four 6", "five 6"]),
        ((1, 1, 1, 1, 2), ["pair 1", "triple 1", "four 1"]),
        ((1, 1, 3, 3, 5), ["pair 1", "pair 3", "two-pairs 1+3"]),
        ((4, 4, 4, 2, 6), ["pair 4", "triple 4"]),
        ((1, 2, 4, 5, 6), []),
        ((1, 2, 3, 5, 6), []),
    ],
)
def test_recorded_options(dice, expected):
    assert [o.text() for o in options(tuple(sorted(dice)))] == expected


def test_option_groups_say_face_squares_and_column():
    (full_house,) = [o for o in options((2, 2, 3, 3, 3)) if o.kind is Kind.FULL_HOUSE]
    assert [(g.home, g.squares, g.column) for g in full_house.groups] == [(2, 2, 2), (1, 1, 1)]
    small_pair = make_option(Kind.SMALL, (3,))
    assert [(g.home, g.squares) for g in small_pair.groups] == [(STRAIGHT, 2), (3, 1)]
    assert [g.squares for g in make_option(Kind.BIG).groups] == [3]


MOVE_TEXTS = [
    "handicap 4",
    "handicap 1-3-S",
    "keep none",
    "keep 4-4-6",
    "keep 1-1-1-1",
    "take pair 4",
    "take pair 2>4",
    "take pair 2>S",
    "take triple 2",
    "take four 5",
    "take five 6",
    "take two-pairs 2+4",
    "take two-pairs 2>5+4>1",
    "take full-house 2+4",
    "take full-house 3>1+2>4",
    "take small",
    "take small+4",
    "take small>3",
    "take small>3+4>S",
    "take big",
    "take big>2",
    "rocket 5",
    "rocket S",
    "pass",
    "roll 1-2-4-4-6",
    "roll 3-5",
]


@pytest.mark.parametrize("text", MOVE_TEXTS)
def test_every_move_kind_round_trips_through_its_text(text):
    move = parse_move(text)
    assert move_text(move) == text
    assert parse_move(move_text(move)) == move
    assert hash(move) == hash(parse_move(text))


def test_text_is_read_forgivingly_but_written_one_way():
    assert parse_move("  Handicap s-3-1 ") == Handicap((0, 2, 6))
    assert parse_move("KEEP 6-4-4") == Keep((4, 4, 6))
    assert parse_move("take  SMALL+4") == Take(make_option(Kind.SMALL, (3,)))
    assert parse_move("rocket s") == Rocket(STRAIGHT)
    assert parse_move("Pass") is PASS
    assert parse_move("roll 6-1-4-2-4") == Roll((1, 2, 4, 4, 6))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("keep 1-2-3-4-5", "keep at most 4 dice: keeping all 5 throws nothing"),
        ("keep 7", "a move is written like"),
        ("handicap 1-1", "a handicap names 1 to 3 different columns, got 1-1"),
        ("handicap 1-2-3-4", "a handicap names 1 to 3 different columns, got 1-2-3-4"),
        ("rocket 7", "a move is written like"),
        ("rocket 1-2", "a move is written like"),
        ("take pair 2>2", "a group moving its own column is written without '>'"),
        ("take small>S", "a group moving its own column is written without '>'"),
        ("take big+3", "big has 1 group"),
        ("take pair S", "only a straight's dice belong to the Straight column"),
        ("take triple 2+3", "triple has 1 group"),
        ("take full-house 2+2", "a full house is a triple and a pair of different faces"),
        ("take two-pairs 4+2", "two pairs are two different faces, the lower first"),
        ("take two-pairs 2>5+4>5", "the groups of one option move different columns"),
        ("take small>4+4", "the groups of one option move different columns"),
        ("take seven 4", "an option is written like"),
        ("take pair", "an option is written like"),
        ("take", "a move is written like"),
        ("stop", "a move is written like"),
    ],
)
def test_bad_texts_are_refused_with_the_reason(text, message):
    with pytest.raises(StateFormatError, match=message):
        parse_move(text)


def naive_options(dice: tuple[int, ...]) -> set[str]:
    """The rules text read literally: look at every handful of the dice and name what it shows."""
    found = set()
    handfuls = [sorted(dice[i] for i in picked) for n in (2, 3, 4, 5) for picked in combinations(range(5), n)]
    runs = [h for h in handfuls if len(h) >= 4 and all(b == a + 1 for a, b in zip(h, h[1:]))]
    for hand in handfuls:
        faces = sorted(set(hand), key=hand.count)
        if len(faces) == 1:
            found.add(f"{['pair', 'triple', 'four', 'five'][len(hand) - 2]} {hand[0]}")
        elif len(hand) == 4 and [hand.count(f) for f in faces] == [2, 2]:
            found.add(f"two-pairs {min(faces)}+{max(faces)}")
        elif len(hand) == 5 and [hand.count(f) for f in faces] == [2, 3]:
            found.add(f"full-house {faces[1]}+{faces[0]}")
        if len(hand) == 2 and len(faces) == 1 and any(len(r) == 4 for r in runs):
            found.add(f"small+{hand[0]}")
    found.update({4: "small", 5: "big"}[len(r)] for r in runs)
    return found


def test_options_match_a_literal_reading_for_every_throw():
    for roll, _ in all_rolls(5):
        assert {o.text() for o in options(roll.dice)} == naive_options(roll.dice), roll
