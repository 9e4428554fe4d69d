"""A roll written wrong: each game shows a roll of its own dice as the example."""

import pytest

from engine.errors import StateFormatError


@pytest.mark.parametrize(("game", "example"), [("cant_stop", "roll 1-4-5-6"), ("counters", "roll 1-3-3-5-6"),
                                                ("yacht", "roll 1-3-3-5-6")])
def test_a_roll_written_wrong_is_shown_as_a_roll_of_the_game_own_dice(game, example):
    """Issue 43: the five-dice games' messages quoted Can't Stop's four dice."""
    import importlib

    engine = importlib.import_module(f"engine.{game}").GAME
    with pytest.raises(StateFormatError, match=f"a roll is written like '{example}', got 'roll 1-2-x'"):
        engine.parse_move("roll 1-2-x")
