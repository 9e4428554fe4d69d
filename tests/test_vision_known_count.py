"""At the table the number of dice is known: the N likeliest dice, or a refusal (``vision.read.reader.likeliest``)."""

from dataclasses import replace

from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import likeliest
from vision.read.reading import DiceReading, Die

PARAMS = replace(DEFAULT_PARAMS, expected_min_presence=0.3, expected_max_extra_presence=0.6)


def die(x, value=3, presence=1.0):
    return Die(value, (x, 50.0), 20.0, 0.99, presence=presence)


CLEAR = (die(10, 1), die(40, 2), die(70, 3), die(100, 4))


def test_as_many_clear_dice_as_expected_are_the_reading():
    assert likeliest(DiceReading(CLEAR), 4, PARAMS).dice == CLEAR


def test_a_doubtful_candidate_likely_enough_is_the_missing_die():
    fourth = die(130, 6, presence=0.4)
    reading = likeliest(DiceReading(CLEAR[:3], (fourth, die(160, 5, presence=0.1))), 4, PARAMS)
    assert reading.values == (1, 2, 3, 6)


def test_a_missing_die_that_is_nowhere_likely_is_refused_with_the_dice_that_are_clear():
    reading = likeliest(DiceReading(CLEAR[:3], (die(130, 6, presence=0.2),)), 4, PARAMS)
    assert len(reading.dice) == 3


def test_one_die_too_many_that_is_clearly_a_die_is_refused():
    reading = likeliest(DiceReading(CLEAR + (die(130, 5, presence=0.7),)), 4, PARAMS)
    assert len(reading.dice) == 5


def test_of_one_too_many_the_least_likely_goes_when_it_is_clearly_less_than_the_others():
    key = die(130, 5, presence=0.55)  # a keyboard key read as a 5
    reading = likeliest(DiceReading(CLEAR + (key,)), 4, PARAMS)
    assert reading.dice == CLEAR


def test_an_unsure_die_stays_unsure():
    unsure = replace(CLEAR[3], value=None, reason="unsure: 4 (60%) or 6 (30%)")
    reading = likeliest(DiceReading(CLEAR[:3] + (unsure,)), 4, PARAMS)
    assert reading.unreadable == (unsure,)


def test_no_dice_expected_and_a_clear_die_there_is_one_too_many():
    assert likeliest(DiceReading(CLEAR[:1]), 0, PARAMS).dice == CLEAR[:1]
    assert likeliest(DiceReading((), (die(10, presence=0.2),)), 0, PARAMS).dice == ()
