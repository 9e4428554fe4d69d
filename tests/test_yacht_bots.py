"""Yacht's greedy bot: a fair baseline for the advisor's benchmark."""

from __future__ import annotations

from engine.yacht import BOXES, Box, Phase, State
from engine.yacht.bots import GreedyBot
from engine.yacht.moves import Keep, Score

ONLY_MADE_OPEN = tuple(None if box in (Box.YACHT, Box.FULL_HOUSE, Box.LARGE_STRAIGHT) else 0 for box in BOXES)


def test_greedy_rolls_on_when_its_open_made_boxes_would_score_nothing():
    """It took a 0 in Yacht, Full house or Large straight after its first roll, giving up two rolls."""
    state = State((ONLY_MADE_OPEN,), (0,), phase=Phase.CHOOSE, dice=(1, 2, 3, 5, 5), rolls=1)
    assert isinstance(GreedyBot().choose(state), Keep)
    last = State((ONLY_MADE_OPEN,), (0,), phase=Phase.CHOOSE, dice=(1, 2, 3, 5, 5), rolls=3)
    assert isinstance(GreedyBot().choose(last), Score), "after the last roll a 0 must be taken"
    made = State((ONLY_MADE_OPEN,), (0,), phase=Phase.CHOOSE, dice=(2, 2, 3, 3, 3), rolls=1)
    assert GreedyBot().choose(made) == Score(Box.FULL_HOUSE), "a made full house is scored at once"
