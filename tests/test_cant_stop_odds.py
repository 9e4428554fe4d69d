"""Exact bust odds against known counts."""

from fractions import Fraction

import pytest

from engine.cant_stop import HEIGHTS, bust_probability
from positions import position


@pytest.mark.parametrize(
    ("runners", "busting"),
    [({6: 1, 7: 1, 8: 1}, 104), ({2: 1, 11: 1, 12: 1}, 728), ({2: 1, 3: 1, 12: 1}, 728)],
)
def test_three_runner_bust_counts(runners, busting):
    assert bust_probability(position(runners=runners)) == Fraction(busting, 1296)


def test_no_runners_never_bust_on_an_open_board():
    assert bust_probability(position()) == 0


def test_runners_at_the_top_and_claimed_columns_count_as_blocked():
    topped = position(runners={6: HEIGHTS[6], 7: 1, 8: 1})
    assert bust_probability(topped) > bust_probability(position(runners={6: 1, 7: 1, 8: 1}))
    all_claimed_but_7 = position(claimed={c: 1 for c in range(2, 13) if c != 7})
    # only 7 can be placed: a roll busts unless some split makes 7
    assert bust_probability(all_claimed_but_7) == bust_probability(position(runners={7: 1, 2: 3, 12: 3}))
