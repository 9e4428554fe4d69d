"""Every example of the rules text, and each rule where the text is silent, as a recorded case."""

from dataclasses import replace

import pytest

from engine.counters import (
    PASS,
    Handicap,
    Keep,
    Phase,
    Rocket,
    Take,
    apply,
    column_index,
    dice_due,
    legal_moves,
    new_game,
    parse_move,
)
from engine.counters.variant import Variant
from engine.errors import IllegalMoveError, InvalidRollError, StateFormatError
from counters_positions import plain_board, play, position, squares_of


def texts(moves):
    return [m.text() for m in moves]


# The examples of the rules text.


def test_emma_triple_moves_two_squares_and_the_4_and_6_are_lost():
    state = position(dice=(2, 2, 2, 4, 6))
    assert [t for t in texts(legal_moves(state)) if t.startswith("take")] == ["take pair 2", "take triple 2"]
    after = play(state, "take triple 2")
    assert squares_of(after, 0) == {"2": 2}
    assert after.current == 1 and after.phase is Phase.THROW and after.throws == 0


def test_sam_two_pairs_move_one_square_each():
    after = play(position(dice=(2, 2, 4, 4, 6)), "take two-pairs 2+4")
    assert squares_of(after, 0) == {"2": 1, "4": 1}


def test_emma_full_house_moves_two_for_the_triple_and_one_for_the_pair():
    after = play(position(dice=(2, 2, 2, 4, 4)), "take full-house 2+4")
    assert squares_of(after, 0) == {"2": 2, "4": 1}


def test_sam_small_straight_with_a_pair():
    state = position(dice=(1, 2, 3, 4, 4))
    assert squares_of(play(state, "take small+4"), 0) == {"4": 1, "S": 2}
    assert squares_of(play(state, "take small"), 0) == {"S": 2}


@pytest.mark.parametrize(
    ("dice", "take", "moved"),
    [
        ((1, 2, 3, 4, 5), "take big", {"S": 3}),
        ((2, 3, 4, 5, 6), "take big", {"S": 3}),
        ((5, 5, 5, 5, 1), "take four 5", {"5": 3}),
        ((6, 6, 6, 6, 6), "take five 6", {"6": 4}),
        ((6, 6, 6, 6, 6), "take pair 6", {"6": 1}),
    ],
)
def test_straights_and_many_of_a_kind(dice, take, moved):
    assert squares_of(play(position(dice=dice), take), 0) == moved


def test_ben_uses_a_blue_star_as_a_wild_card():
    board = plain_board(**{"5": {"blue_stars": [4]}})
    ben = {"2": 10, "3": 10, "5": 4}  # at the tops of columns 2 and 3, and on a blue star
    state = position(squares={0: ben}, dice=(2, 2, 3, 3, 3), board=board)
    assert "take full-house 3>1+2>4" in texts(legal_moves(state))
    after = play(state, "take full-house 3>1+2>4")
    assert squares_of(after, 0) == {**ben, "1": 2, "4": 1}


def test_wild_cards_keep_the_combination_and_different_columns():
    board = plain_board(**{"5": {"blue_stars": [4]}})
    state = position(squares={0: {"5": 4}}, dice=(2, 2, 4, 4, 6), board=board)
    takes = texts(m for m in legal_moves(state) if isinstance(m, Take))
    assert "take two-pairs 2>5+4>1" in takes and "take pair 2>S" in takes
    assert not any(t.startswith("take four") for t in takes)  # two pairs never become four of a kind
    with pytest.raises(StateFormatError, match="different columns"):
        parse_move("take two-pairs 2>5+4>5")
    assert len(takes) == 7 + 7 + 7 * 6  # each pair to any column, the two pairs to two columns


def test_straights_are_wild_too():
    board = plain_board(**{"5": {"blue_stars": [4]}})
    state = position(squares={0: {"5": 4}}, dice=(1, 2, 3, 4, 4), board=board)
    assert squares_of(play(state, "take small>3+4>S"), 0) == {"3": 2, "5": 4, "S": 1}


def test_without_a_blue_star_dice_stay_in_their_columns():
    state = position(dice=(2, 2, 3, 3, 3))
    with pytest.raises(IllegalMoveError, match="the 3s move column 3, not 1: only a counter on a blue star"):
        play(state, "take full-house 3>1+2>4")
    with pytest.raises(IllegalMoveError, match="the straight move column S, not 3"):
        play(position(dice=(1, 2, 3, 4, 6)), "take small>3")


def test_a_blue_star_reached_in_the_handicap_counts_later():
    board = plain_board(**{"5": {"blue_stars": [1]}})
    state = play(new_game(2, Variant(board)), "handicap 5")
    state = play(state, "roll 1-1-3-3-6", "take two-pairs 1+3")  # player 1's turn
    state = play(state, "roll 2-2-4-4-6")
    assert "take two-pairs 2>S+4>6" in texts(legal_moves(state))


def test_the_rest_of_a_move_is_forfeit_at_the_top():
    state = position(squares={0: {"2": 9}}, dice=(2, 2, 2, 2, 5))
    assert squares_of(play(state, "take four 2"), 0) == {"2": 10}
    at_top = position(squares={0: {"2": 10}}, dice=(2, 2, 2, 2, 5))
    assert squares_of(play(at_top, "take four 2"), 0) == {"2": 10}


# Cool down.


def test_cool_down_sends_the_others_down_one_square():
    others = {"4": 3}
    state = position(players=4, squares={1: others, 2: {"4": 1}, 3: {"4": 0, "3": 5}}, dice=(4, 4, 4, 1, 6))
    after = play(state, "take triple 4")
    assert squares_of(after, 0) == {"4": 2}
    assert squares_of(after, 1) == {"4": 2}
    assert squares_of(after, 2) == {}  # down to the bottom row
    assert squares_of(after, 3) == {"3": 5}  # not below the bottom row, other columns untouched


def test_a_straight_cools_down_the_straight_column():
    state = position(squares={1: {"S": 4}}, dice=(1, 2, 3, 4, 6))
    assert squares_of(play(state, "take small"), 1) == {"S": 3}


def test_one_square_does_not_cool_down():
    state = position(squares={1: {"2": 3, "4": 3}}, dice=(2, 2, 4, 4, 6))
    assert squares_of(play(state, "take two-pairs 2+4"), 1) == {"2": 3, "4": 3}


def test_counters_on_stars_are_invisible_to_a_cool_down():
    board = plain_board(**{"4": {"pink_stars": [3], "blue_stars": [5]}})
    state = position(players=3, squares={1: {"4": 3}, 2: {"4": 5}}, dice=(4, 4, 4, 1, 6), board=board)
    after = play(state, "take triple 4")
    assert squares_of(after, 1) == {"4": 3} and squares_of(after, 2) == {"4": 5}


def test_no_cool_down_when_the_second_square_came_from_a_rocket():
    board = plain_board(**{"4": {"rockets": [3]}})
    state = position(squares={0: {"4": 2}, 1: {"4": 5}}, dice=(4, 4, 1, 2, 6), board=board)
    state = play(state, "take pair 4")
    assert state.phase is Phase.ROCKET and state.rockets == 1
    after = play(state, "rocket 4")
    assert squares_of(after, 0) == {"4": 4} and squares_of(after, 1) == {"4": 5}


def test_no_cool_down_when_the_top_stopped_the_counter_after_one_square():
    state = position(squares={0: {"4": 9}, 1: {"4": 5}}, dice=(4, 4, 4, 1, 6))
    after = play(state, "take triple 4")
    assert squares_of(after, 0) == {"4": 10} and squares_of(after, 1) == {"4": 5}


def test_a_wild_group_cools_down_the_column_it_moves():
    board = plain_board(**{"5": {"blue_stars": [4]}})
    state = position(squares={0: {"5": 4}, 1: {"1": 3, "3": 3}}, dice=(3, 3, 3, 1, 6), board=board)
    assert squares_of(play(state, "take triple 3>1"), 1) == {"1": 2, "3": 3}


# Rockets.


def test_a_rocket_gives_one_more_square_to_any_counter_not_at_the_top():
    board = plain_board(**{"4": {"rockets": [2]}})
    state = position(squares={0: {"1": 10}}, dice=(4, 4, 4, 1, 6), board=board)
    state = play(state, "take triple 4")
    assert state.phase is Phase.ROCKET and state.current == 0 and dice_due(state) == 0
    assert texts(legal_moves(state)) == ["rocket 2", "rocket 3", "rocket 4", "rocket 5", "rocket 6", "rocket S", "pass"]
    with pytest.raises(IllegalMoveError, match="rocket 1: that counter is already at the top"):
        play(state, "rocket 1")
    after = play(state, "rocket S")
    assert squares_of(after, 0) == {"1": 10, "4": 2, "S": 1}
    assert after.phase is Phase.THROW and after.current == 1


def test_rockets_chain_and_the_same_counter_may_ride_again():
    board = plain_board(**{"4": {"rockets": [2, 3]}, "6": {"rockets": [1]}})
    state = play(position(squares={0: {"4": 1}}, dice=(4, 4, 1, 2, 6), board=board), "take pair 4")
    state = play(state, "rocket 4")  # lands on the rocket at 3
    assert state.phase is Phase.ROCKET and state.rockets == 1
    state = play(state, "rocket 6")  # lands on the rocket at 1
    assert state.phase is Phase.ROCKET
    after = play(state, "rocket 2")
    assert squares_of(after, 0) == {"2": 1, "4": 3, "6": 1} and after.current == 1


def test_two_groups_on_rockets_give_two_squares():
    board = plain_board(**{"2": {"rockets": [1]}, "4": {"rockets": [1]}})
    state = play(position(dice=(2, 2, 4, 4, 6), board=board), "take two-pairs 2+4")
    assert state.phase is Phase.ROCKET and state.rockets == 2
    state = play(state, "rocket 1")
    assert state.rockets == 1
    assert squares_of(play(state, "rocket 1"), 0) == {"1": 2, "2": 1, "4": 1}


def test_passing_over_a_rocket_gives_nothing():
    board = plain_board(**{"4": {"rockets": [1]}})
    after = play(position(dice=(4, 4, 4, 1, 6), board=board), "take triple 4")
    assert after.phase is Phase.THROW and after.current == 1


def test_no_rocket_for_a_counter_sent_down_onto_one():
    board = plain_board(**{"4": {"rockets": [3]}})
    state = position(squares={0: {"4": 4}}, current=1, dice=(4, 4, 4, 1, 6), board=board)
    after = play(state, "take triple 4")  # player 2 cools player 1 down onto the rocket
    assert squares_of(after, 0) == {"4": 3} and squares_of(after, 1) == {"4": 2}
    assert after.phase is Phase.THROW and after.current == 0 and after.rockets == 0


def test_no_rocket_in_the_handicap():
    board = plain_board(**{"3": {"rockets": [1]}})
    state = play(new_game(2, Variant(board)), "handicap 3")
    assert state.phase is Phase.THROW and state.current == 0 and state.rockets == 0


def test_a_rocket_moves_only_counters_below_the_top():
    board = plain_board(**{"4": {"rockets": [10]}})
    tops = {"2": 10, "3": 10, "5": 10, "6": 10, "S": 8}
    state = position(squares={0: {**tops, "4": 9}}, dice=(4, 4, 1, 2, 6), board=board)
    after = play(state, "take pair 4")
    assert after.phase is Phase.ROCKET and texts(legal_moves(after)) == ["rocket 1", "pass"]


def test_a_rocket_may_be_left_unused():
    # "you *can* move any counter up one more square": a counter kept off its rocket square stays put
    board = plain_board(**{"2": {"rockets": [1]}, "4": {"rockets": [1]}})
    state = play(position(dice=(2, 2, 4, 4, 6), board=board), "take two-pairs 2+4")
    state = play(state, "pass")
    assert state.phase is Phase.ROCKET and state.rockets == 1 and squares_of(state, 0) == {"2": 1, "4": 1}
    after = play(state, "pass")
    assert after.phase is Phase.THROW and after.current == 1 and squares_of(after, 0) == {"2": 1, "4": 1}


# The handicap.


@pytest.mark.parametrize(("players", "combinations"), [(2, [7]), (3, [7, 15]), (4, [7, 15, 4])])
def test_the_players_after_the_first_move_one_two_three_counters(players, combinations):
    state = new_game(players)
    assert state.phase is Phase.HANDICAP and dice_due(state) == 0
    for player, expected in enumerate(combinations, start=1):
        assert state.current == player
        moves = legal_moves(state)
        assert len(moves) == expected and all(len(set(m.columns)) == player for m in moves)
        state = apply(state, moves[-1])
    assert state.phase is Phase.THROW and state.current == 0 and state.turn == 1 and dice_due(state) == 5
    for player in range(1, players):
        assert sorted(state.positions[player]) == [0] * (7 - player) + [1] * player
    assert state.positions[0] == (0,) * 7


def test_the_handicap_counters_of_all_players_stand_in_different_columns():
    # "You should all select counters in different columns for this."
    state = play(new_game(4), "handicap 2", "handicap 1-3")
    assert all(not {0, 1, 2} & set(m.columns) for m in legal_moves(state))
    with pytest.raises(IllegalMoveError) as refused:
        play(state, "handicap 2-5-S")
    assert str(refused.value) == ("handicap 2-5-S: an earlier player's handicap counter already stands in column 2: "
                                  '"You should all select counters in different columns for this."')
    assert play(state, "handicap 4-5-S").phase is Phase.THROW


def test_games_played_before_that_reading_keep_their_own():
    state = play(new_game(3, Variant(handicap="own")), "handicap S")
    assert len(legal_moves(state)) == 21 and play(state, "handicap 1-S").phase is Phase.THROW


def test_a_handicap_of_the_wrong_size_is_refused():
    state = play(new_game(3), "handicap 1")
    with pytest.raises(IllegalMoveError, match="player 3 moves 2 counter"):
        play(state, "handicap 1-2-3")
    with pytest.raises(IllegalMoveError, match="roll 1-2-3-4-5 is not possible now: player 3 first moves the handicap"):
        play(state, "roll 1-2-3-4-5")
    with pytest.raises(StateFormatError, match="different columns"):
        Handicap((1, 1))


# Throws and keeps.


def test_keeping_dice_throws_the_others_and_counts_the_throws():
    state = position(squares={}, dice=None)
    assert dice_due(state) == 5 and legal_moves(state) == ()
    state = play(state, "roll 2-4-6-4-1")
    assert state.dice == (1, 2, 4, 4, 6) and state.throws == 1
    state = play(state, "keep 4-4-6")
    assert state.phase is Phase.THROW and state.kept == (4, 4, 6) and dice_due(state) == 2
    with pytest.raises(InvalidRollError, match="dice must be two values from 1 to 6"):
        play(state, "roll 1-2-3")
    state = play(state, "roll 6-4")
    assert state.dice == (4, 4, 4, 6, 6) and state.kept == () and state.throws == 2
    with pytest.raises(IllegalMoveError, match="keep 4: there is no fourth throw; take an option for 4-4-4-6-6"):
        play(replace(state, throws=3), "keep 4")
    state = play(state, "keep none", "roll 1-2-3-5-6")
    assert state.throws == 3 and not any(isinstance(m, Keep) for m in legal_moves(state))
    with pytest.raises(IllegalMoveError, match="keep 1: there is no fourth throw; 1-2-3-5-6 forms no option, so pass"):
        play(state, "keep 1")


def test_every_keep_of_up_to_four_dice_is_listed_once():
    state = position(dice=(1, 2, 4, 4, 6))
    keeps = [m for m in legal_moves(state) if isinstance(m, Keep)]
    assert len(keeps) == len(set(keeps)) == 1 + 4 + 7 + 7 + 4  # sizes 0..4 of {1,2,4,4,6}
    assert keeps[0] == Keep(()) and Keep((1, 2, 4, 4)) in keeps


def test_keeping_dice_that_are_not_on_the_table_is_refused():
    state = position(dice=(2, 3, 4, 5, 6))
    with pytest.raises(IllegalMoveError, match=r"keep 6-6: only one 6 on the table \(2-3-4-5-6\)"):
        play(state, "keep 6-6")
    with pytest.raises(IllegalMoveError, match=r"keep 1: no 1s on the table"):
        play(state, "keep 1")
    with pytest.raises(StateFormatError, match="keeping all 5 throws nothing"):
        Keep((2, 3, 4, 5, 6))


def test_rolls_and_decisions_out_of_turn_are_refused():
    with pytest.raises(IllegalMoveError, match="5 dice are due: throw them"):
        play(position(), "take pair 2")
    with pytest.raises(IllegalMoveError, match="first keep dice or take an option for 2-2-3-4-6"):
        play(position(dice=(2, 2, 3, 4, 6)), "roll 1-2-3-4-5")
    with pytest.raises(IllegalMoveError, match=r"take triple 3: 2-2-3-4-6 does not form triple 3 \(options: pair 2\)"):
        play(position(dice=(2, 2, 3, 4, 6)), "take triple 3")


# Passing.


def test_pass_only_after_a_third_throw_that_forms_nothing():
    nothing = (1, 2, 4, 5, 6)
    state = position(dice=nothing, throws=3)
    assert legal_moves(state) == (PASS,)
    after = play(state, "pass")
    assert after.current == 1 and after.phase is Phase.THROW and after.positions == state.positions
    with pytest.raises(IllegalMoveError, match="pass: this was throw 2 of 3"):
        play(position(dice=nothing, throws=2), "pass")
    assert PASS not in legal_moves(position(dice=nothing, throws=2))


def test_no_pass_when_the_dice_form_an_option_even_a_useless_one():
    state = position(squares={0: {"2": 10}}, dice=(2, 2, 1, 4, 5), throws=3)
    assert texts(legal_moves(state)) == ["take pair 2"]
    with pytest.raises(IllegalMoveError, match=r"pass: 1-2-2-4-5 forms an option \(take pair 2\)"):
        play(state, "pass")
    assert play(state, "take pair 2").positions == state.positions


# The end.


def test_two_players_need_five_counters_in_space_and_none_on_the_bottom_row():
    near = {"1": 8, "2": 8, "3": 8, "4": 8, "5": 7, "6": 1, "S": 1}
    state = position(squares={0: near}, dice=(5, 5, 1, 2, 6))
    after = play(state, "take pair 5")
    assert after.phase is Phase.OVER and after.winner == 0 and legal_moves(after) == ()
    with pytest.raises(IllegalMoveError, match="the game is over: player 1 won"):
        play(after, "roll 1-2-3-4-5")
    four = play(position(squares={0: near}, dice=(6, 6, 1, 2, 3)), "take pair 6")
    assert four.phase is Phase.THROW and four.winner is None


@pytest.mark.parametrize("players", [3, 4])
def test_three_or_four_players_need_four_counters_in_space(players):
    near = {"1": 8, "2": 8, "3": 8, "4": 7, "5": 1, "6": 1, "S": 1}
    state = position(players=players, squares={0: near}, dice=(4, 4, 1, 2, 6))
    assert play(state, "take pair 4").winner == 0
    three = play(position(players=players, squares={0: near}, dice=(5, 5, 1, 2, 6)), "take pair 5")
    assert three.phase is Phase.THROW


def test_no_winner_with_a_counter_still_on_the_bottom_row():
    near = {"1": 10, "2": 10, "3": 10, "4": 10, "5": 10, "6": 10}
    state = position(squares={0: near}, dice=(5, 5, 1, 2, 6))
    assert play(state, "take pair 5").phase is Phase.THROW
    straight = position(squares={0: near}, dice=(1, 2, 3, 4, 6))
    assert play(straight, "take small").winner == 0  # the Straight counter leaves the bottom row


def test_the_game_ends_at_once_even_with_a_rocket_due():
    board = plain_board(**{"4": {"rockets": [8]}})
    near = {"1": 8, "2": 8, "3": 8, "4": 7, "5": 1, "6": 1, "S": 1}
    after = play(position(players=3, squares={0: near}, dice=(4, 4, 1, 2, 6), board=board), "take pair 4")
    assert after.phase is Phase.OVER and after.rockets == 0


def test_a_rocket_square_can_win():
    board = plain_board(**{"4": {"rockets": [2]}})
    near = {"1": 8, "2": 8, "3": 8, "4": 1, "5": 1, "6": 1, "S": 5}
    state = play(position(players=3, squares={0: near}, dice=(4, 4, 1, 2, 6), board=board), "take pair 4")
    assert state.phase is Phase.ROCKET
    assert play(state, "rocket S").winner == 0
    assert column_index("S") == 6 and Rocket(6).text() == "rocket S"


def test_a_finished_turn_passes_the_dice_round_the_table():
    state = position(players=3, current=2, dice=(1, 1, 2, 5, 6))
    after = play(state, "take pair 1")
    assert after.current == 0 and after.turn == state.turn + 1 and dice_due(after) == 5


def test_a_game_journaled_before_the_reading_replays_as_it_was_played(tmp_path):
    """A journal row without the handicap option: player 3's handicap beside player 2's, as the bots
    used to play it, still replays (the option's legacy value), and a new game reads the rule apart."""
    import json
    import sqlite3

    from firmware.core.game_setup import GameSetup
    from firmware.journal.journal import Journal, replay

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    game = journal.start_game(GameSetup(("Ann", "Bob", "Cy"), kind="counters"))
    journal.close()
    db = sqlite3.connect(path)
    options = json.loads(db.execute("SELECT options FROM games WHERE id = ?", (game,)).fetchone()[0])
    assert options["handicap"] == "apart", "a new game keeps its reading"
    del options["handicap"]
    db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game))
    db.commit()
    db.close()
    journal = Journal(path)
    record = journal.unfinished()
    state, _ = replay(record, ["handicap S", "handicap 1-S"])
    assert state.handicap == "own" and state.phase is Phase.THROW
    journal.close()
