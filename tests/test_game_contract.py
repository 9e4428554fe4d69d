"""Can't Stop drives through the game-agnostic contract alone, as the firmware will."""

from engine import Game, Roll
from engine.cant_stop import GAME


def test_cant_stop_implements_the_contract():
    assert isinstance(GAME, Game)


def test_a_turn_through_the_contract():
    state = GAME.new_game(3, columns_to_win=4)
    assert GAME.dice_due(state) == 4 and GAME.legal_moves(state) == ()
    state = GAME.apply(state, GAME.parse_move("roll 1-4-5-6"))
    assert GAME.dice_due(state) == 0
    assert [GAME.move_text(m) for m in GAME.legal_moves(state)] == ["5+11", "6+10", "7+9"]
    state = GAME.apply(state, GAME.parse_move("6+10"))
    assert [GAME.move_text(m) for m in GAME.legal_moves(state)] == ["stop"]
    state = GAME.apply(state, GAME.parse_move("stop"))
    assert GAME.current_player(state) == 1 and GAME.winner(state) is None
    assert GAME.from_json(GAME.to_json(state)) == state
    assert GAME.move_text(Roll((6, 1, 5, 4))) == "roll 1-4-5-6"
