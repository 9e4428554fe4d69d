"""The benchmarks' duel lines: a 95 % interval that says something at 0 % and 100 % too."""

from __future__ import annotations

import pytest

from firmware.bench.stats import Duel


def test_a_clean_sweep_is_not_reported_as_certain():
    sweep = Duel("search", "greedy", 1.0, 1.0, 200)
    assert sweep.line() == "  search vs greedy: search wins 100.0% moving first, 100.0% moving second, 100.0% +- 0.5 overall"


@pytest.mark.parametrize("share, half_width", [(0.5, 0.0489), (0.9, 0.0294), (0.0, 0.0048)])
def test_the_half_width_is_the_wilson_score_interval_s(share, half_width):
    # 400 games: Wilson's interval for 200 of 400 is 45.1 % to 54.9 %; for 360 of 400, 86.7 % to 92.6 %
    assert Duel("a", "b", share, share, 200).half_width == pytest.approx(half_width, abs=0.0002)
