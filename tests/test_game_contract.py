"""Each game drives through the game-agnostic contract alone, as the firmware will."""

from engine import Game, Roll
from engine.cant_stop import GAME
from engine.columns import GAME as COLUMNS
from engine.counters import GAME as COUNTERS


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


def test_counters_to_the_top_implements_the_contract():
    assert isinstance(COUNTERS, Game) and COUNTERS.name == "counters"


def test_a_counters_turn_through_the_contract():
    state = COUNTERS.new_game(2)
    assert COUNTERS.current_player(state) == 1 and COUNTERS.dice_due(state) == 0
    assert len(COUNTERS.legal_moves(state)) == 7  # the second player's handicap: one column of seven
    state = COUNTERS.apply(state, COUNTERS.parse_move("handicap S"))
    assert COUNTERS.current_player(state) == 0 and COUNTERS.dice_due(state) == 5
    state = COUNTERS.apply(state, COUNTERS.parse_move("roll 2-2-2-4-6"))
    moves = [COUNTERS.move_text(m) for m in COUNTERS.legal_moves(state)]
    assert moves[:2] == ["take pair 2", "take triple 2"] and "keep 2-2-2" in moves
    state = COUNTERS.apply(state, COUNTERS.parse_move("keep 2-2-2"))
    assert COUNTERS.dice_due(state) == 2
    state = COUNTERS.apply(state, COUNTERS.parse_move("roll 2-6"))
    state = COUNTERS.apply(state, COUNTERS.parse_move("take four 2"))
    assert COUNTERS.current_player(state) == 1 and COUNTERS.winner(state) is None
    assert state.positions[0][1] == 3 and COUNTERS.dice_due(state) == 5
    assert COUNTERS.from_json(COUNTERS.to_json(state)) == state
    assert COUNTERS.move_text(Roll((6, 1, 5, 4, 4))) == "roll 1-4-4-5-6"


def test_columns_implements_the_contract():
    assert isinstance(COLUMNS, Game) and COLUMNS.name == "columns"


def test_a_columns_placement_through_the_contract():
    state = COLUMNS.new_game(2)
    assert COLUMNS.current_player(state) == 0 and COLUMNS.dice_due(state) == 0
    assert COLUMNS.move_text(COLUMNS.legal_moves(state)[0]) == "R A1"
    state = COLUMNS.apply(state, COLUMNS.parse_move("S B3"))
    assert COLUMNS.current_player(state) == 1 and COLUMNS.winner(state) is None and COLUMNS.dice_due(state) == 0
    assert COLUMNS.parse_move("R B3") not in COLUMNS.legal_moves(state), "not on the opponent's blocker"
    assert COLUMNS.from_json(COLUMNS.to_json(state)) == state


def test_yacht_implements_the_contract():
    from engine.yacht import GAME as YACHT

    assert isinstance(YACHT, Game) and YACHT.name == "yacht"


def test_each_game_and_its_options_are_described_in_a_players_words():
    """The log and ``history`` said "cant-stop standard to 3", "tumblin 4 rounds": the codes, not the words."""
    import firmware.games  # noqa: F401  (lists the games)
    from firmware.core.game_setup import GameSetup

    described = {
        "cant-stop": "Can't Stop, standard rules, 3 columns to win",
        "columns": "Columns, 3x4 grid",
        "tumblin": "Tumblin' Dice, 4 rounds",
        "yacht": "Yacht",
    }
    assert {kind: GameSetup(kind=kind).describe() for kind in described} == described
    jumping = GameSetup(("Ann", "Bob"), kind="cant-stop", options={"rule": "jumping", "columns_to_win": 5})
    assert jumping.describe() == "Can't Stop, jumping variant, 5 columns to win"
    assert jumping.rules_words() == "jumping variant, 5 columns to win"
    assert GameSetup(kind="yacht").rules_words() == ""
