"""Every rule of the Tumblin' Dice text, each option and each card, as recorded cases."""

import pytest

from engine import Game
from engine.dice import Roll
from engine.errors import IllegalMoveError, VariantError
from engine.tumblin import (
    GAME,
    Die,
    MineKind,
    apply,
    dice_due,
    dice_left,
    die_value,
    legal_moves,
    make_variant,
    parse_move,
    round_number,
    round_scores,
    tally_due,
    team_totals,
    totals,
    winner,
    winners,
)
from tumblin_positions import flick_all, game, play, rounds


def texts(state) -> list[str]:
    return [move.text() for move in legal_moves(state)]


def refused(state, text: str, message: str) -> None:
    """``text`` is not listed, and applying it raises the message (a regular expression)."""
    assert parse_move(text) not in legal_moves(state)
    with pytest.raises(IllegalMoveError, match=message):
        play(state, text)


def dice(text: str) -> tuple[Die, ...]:
    return parse_move(f"tally {text}").dice


def flickers(state, count: int) -> list[int]:
    """Who flicks the next ``count`` dice (all leave the launch level)."""
    seats = []
    for _ in range(count):
        seats.append(state.current)
        state = play(state, "flick")
    return seats


# Set-up and the contract.


def test_two_to_four_players_and_no_dice_to_roll():
    assert isinstance(GAME, Game) and GAME.name == "tumblin"
    for players in (1, 5, True, "2"):
        with pytest.raises(VariantError, match="Tumblin' Dice is for 2 to 4 players"):
            GAME.new_game(players)
    state = GAME.new_game(4)
    assert state.variant.colours == ("red", "green", "blue", "black") and GAME.new_game(2).variant.colours == ("red", "green")
    assert GAME.current_player(state) == 0 and GAME.winner(state) is None and dice_due(state) == 0
    assert dice_left(state) == (4, 4, 4, 4) and round_number(state) == 1 and totals(state) == (0, 0, 0, 0)
    assert texts(state) == ["flick", "flick stayed"]
    with pytest.raises(IllegalMoveError, match="not a Tumblin' Dice move"):
        apply(state, Roll((3, 4)))


@pytest.mark.parametrize(
    ("players", "settings", "message"),
    [
        (2, {"board": "big"}, "unknown variant setting 'board'"),
        (3, {"colours": ["red", "blue"]}, "3 players need 3 colours"),
        (2, {"colours": ["red", "red"]}, "each player needs a colour of their own"),
        (2, {"colours": ["Red!", "blue"]}, "colours must be short lower-case words"),
        (2, {"colours": ["flick", "blue"]}, "colours must be short lower-case words"),
        (2, {"target": 0}, "target must be a score above 0"),
        (2, {"target": True}, "target must be a score above 0"),
        (2, {"scoring": "divide"}, "scoring must be one of multiply, add"),
        (3, {"teams": True}, "teams are two pairs: they need 4 players, got 3"),
        (4, {"teams": [[0, 1], [1, 2]]}, "teams are two pairs of the seats 0 to 3, each seat once"),
        (4, {"teams": [[0, 1, 2], [3]]}, "teams are two pairs"),
        (2, {"mines": 3}, "land mines need both a number \\(1 to 6\\) and a kind"),
        (2, {"mine_kind": "trip"}, "land mines need both a number"),
        (2, {"mines": 7, "mine_kind": "trip"}, "mines must be a whole number from 0 to 6"),
        (2, {"mines": 2, "mine_kind": "sea"}, "mine_kind must be one of pressure, trip, proximity"),
        (2, {"breed_cards": 2, "multiplier_cards": 1}, "the rules place 1 or 2 breeding cards"),
        (2, {"multiplier_cards": 3}, "multiplier_cards must be a whole number from 0 to 2"),
    ],
)
def test_set_ups_the_rules_do_not_allow_are_refused(players, settings, message):
    with pytest.raises(VariantError, match=message):
        GAME.new_game(players, **settings)


def test_the_variant_may_name_the_colours():
    state = game(3, colours=["yellow", "white", "pink"])
    assert round_scores(state.variant, dice("pink 2@2 yellow 1@1")) == (1, 0, 4)


def test_colours_named_for_more_seats_seat_the_first():
    """A set-up names a colour for every seat there could be; a smaller game takes the first ones."""
    assert game(2, colours=["yellow", "white", "pink"]).variant.colours == ("yellow", "white")


# Scoring.


def test_the_rules_example_a_4_on_the_3x_level_counts_12():
    assert die_value(make_variant().seated(2), Die("red", 4, 3)) == 12


def test_adding_for_younger_players_a_4_on_the_3x_level_counts_7():
    assert die_value(make_variant(scoring="add").seated(2), Die("red", 4, 3)) == 7


@pytest.mark.parametrize("scoring", ["multiply", "add"])
def test_a_die_on_the_0x_level_scores_nothing(scoring):
    assert die_value(make_variant(scoring=scoring).seated(2), Die("red", 6, 0)) == 0


def test_the_standing_of_any_board_sums_each_players_dice():
    variant = make_variant().seated(3)
    assert round_scores(variant, dice("red 4@3 green 6@1 red 2@4 blue 5@0")) == (20, 6, 0)
    assert round_scores(variant, ()) == (0, 0, 0)
    with pytest.raises(IllegalMoveError, match="no player has colour 'black': the colours are red, green, blue"):
        round_scores(variant, dice("black 4@3"))


# A round.


def test_a_whole_two_player_round():
    state = game(2)
    assert flickers(state, 8) == [0, 1, 0, 1, 0, 1, 0, 1]
    state = play(state, "flick", "flick", "flick stayed")
    assert dice_left(state) == (2, 3) and state.current == 1 and not tally_due(state)
    refused(state, "tally red 4@3", "the board is read after the last flick: 5 dice are still to flick")
    state = flick_all(state)
    assert tally_due(state) and legal_moves(state) == () and state.current == 1, "the last flicker confirms"
    refused(state, "flick", "flick: every die of the round is flicked: the board reading \\(tally\\) is due")
    state = play(state, "tally red 4@3 green 6@1 green 2@2")
    assert totals(state) == (12, 10) and state.history[0].scores == (12, 10) and round_number(state) == 2
    assert dice_left(state) == (4, 4) and not tally_due(state) and state.current == 0


def test_a_die_that_stays_on_the_launch_level_is_a_throw_but_cannot_score():
    state = play(game(2), "flick stayed", "flick")
    assert dice_left(state) == (3, 3) and state.current == 0
    state = flick_all(state)
    refused(state, "tally red 1@1 red 1@1 red 1@1 red 1@1", "4 red dice are read on the board, but only 3 red dice left the launch level")
    assert totals(play(state, "tally red 1@1 red 1@1 red 1@1 green 1@1 green 1@1 green 1@1 green 1@1")) == (3, 4)


def test_a_die_that_does_not_drop_off_the_0x_level_is_removed():
    # "If a die does not drop off of the "0x level", it counts as a throw, but it is removed and set off to the side."
    state = flick_all(game(2))
    refused(state, "tally red 4@3 red 5@0", 'red 5@0 did not drop off the 0x level: "it counts as a throw, but it is '
            'removed and set off to the side": take it off the board')
    assert totals(play(state, "tally red 4@3")) == (12, 0)


def test_games_played_before_the_0x_rule_was_read_let_such_a_die_lie_there():
    state = flick_all(game(2, zero="stays"))
    assert totals(play(state, "tally red 4@3 red 5@0")) == (12, 0)
    with pytest.raises(VariantError, match="zero must be one of removed, stays, got 'kept'"):
        game(2, zero="kept")


def test_the_reading_names_only_the_players_colours():
    refused(flick_all(game(2)), "tally blue 4@3", "no player has colour 'blue': the colours are red, green")


def test_the_highest_total_goes_first_next_round():
    # "The player with the highest total score at the end of the prior round goes first."
    state = rounds(game(3), "green 2@3 blue 3@4")  # totals 0, 6, 12
    assert state.order == (2, 1, 0)
    state = rounds(state, "red 3@2 green 6@1 blue 2@3")  # rounds all 6; totals 6, 12, 18
    assert state.order == (2, 1, 0)
    state = rounds(state, "red 5@1 blue 5@1")  # round: red 5, blue 5, green 0; totals 11, 12, 23
    assert state.order == (2, 1, 0) and flickers(state, 3) == [2, 1, 0]


def test_players_tied_on_their_total_keep_their_order_of_the_prior_round():
    # "If two or more players have the same score, then the order of play between those tied players reverts
    # back to that of the prior round."
    state = rounds(game(2), "red 5@2", "green 5@2")  # 10 and 10: green scored more in round 2, red flicked first
    assert totals(state) == (10, 10) and state.history[-1].order == (0, 1)
    assert state.order == (0, 1) and state.current == 0
    state = rounds(game(3), "blue 6@4", "red 6@2 green 4@3")  # 12, 12, 24: blue first, then red and green as they were
    assert state.history[-1].order == (2, 0, 1) and state.order == (2, 0, 1)


def test_games_played_before_the_tie_rule_was_read_put_the_higher_rounds_score_first():
    state = rounds(game(2, ties="round"), "red 5@2", "green 5@2")
    assert totals(state) == (10, 10) and state.order == (1, 0)
    with pytest.raises(VariantError, match="ties must be one of prior, round, got 'score'"):
        game(2, ties="score")


def test_by_the_last_rounds_score_the_order_of_older_games_ties_keeping_the_last_order():
    state = rounds(game(3, order="round"), "green 2@3 blue 3@4")  # 0, 6, 12
    assert state.order == (2, 1, 0) and state.current == 2
    state = rounds(state, "red 3@2 green 6@1 blue 2@3")  # all 6: the order of the last round stays
    assert state.order == (2, 1, 0)
    state = rounds(state, "red 5@1 blue 5@1")  # red and blue tie, green none: blue flicked before red
    assert state.order == (2, 0, 1) and flickers(state, 3) == [2, 0, 1]


def test_four_rounds_then_the_highest_total_wins():
    state = rounds(game(2), "red 4@3", "green 6@4", "red 1@1", "red 6@2")
    assert totals(state) == (25, 24) and state.over and winner(state) == 0 and winners(state) == (0,)
    assert round_number(state) == 4 and legal_moves(state) == ()
    refused(state, "flick", "the game is over: player 1 \\(red\\) won")


def test_tied_leaders_play_overtime_rounds_alone_until_one_leads():
    state = rounds(game(3), "red 4@3", "blue 6@2", "green 4@3", "green 1@1 blue 1@1")  # 12, 13, 13
    assert state.history[-1].order == (0, 2, 1), "all three tied on 12 after round 3: round 3's order"
    assert not state.over and state.overtime and round_number(state) == 5
    assert state.order == (2, 1) and dice_left(state) == (0, 4, 4), "only the tied play, in their last order"
    assert flickers(state, 8) == [2, 1, 2, 1, 2, 1, 2, 1]
    state = flick_all(state)
    refused(state, "tally red 6@4", "1 red dice are read on the board, but only 0 red dice")
    state = play(state, "tally green 3@1 blue 1@3")  # still tied: another overtime round, in the same order
    assert state.overtime and round_number(state) == 6 and state.order == (2, 1)
    state = rounds(state, "blue 2@1")
    assert state.over and winner(state) == 2 and totals(state) == (12, 16, 18)
    assert [r.order for r in state.history[4:]] == [(2, 1), (2, 1)]
    assert state.history[5].scores == (0, 0, 2)


# Option 1: a target score.


def test_a_target_score_ends_play_the_round_someone_reaches_it():
    state = rounds(game(3, target=30), "red 6@4", "red 1@1 green 6@4")
    assert not state.over and totals(state) == (25, 24, 0) and round_number(state) == 3
    state = rounds(state, "red 5@1 green 6@1 blue 4@4")  # 30 and 30: both over; blue 16
    assert state.overtime and state.order == (0, 1), "tied: red flicked before green in round 3"
    state = rounds(state, "red 2@1 green 3@1")
    assert state.over and winner(state) == 1


def test_with_several_over_the_target_the_one_over_by_most_wins():
    state = rounds(game(3, target=20), "red 6@4 green 6@4 blue 5@4 blue 1@1")  # 24, 24, 21
    assert state.overtime
    state = rounds(game(3, target=20), "red 6@4 green 5@4 blue 4@4 green 1@1")  # 24, 21, 16
    assert state.over and winner(state) == 0 and len(state.history) == 1


# Option 2: teams.


def test_teams_alternate_and_score_their_dice_together():
    state = game(4, teams=True)
    assert state.variant.teams == ((0, 2), (1, 3)) and flickers(state, 16) == [0, 1, 2, 3] * 4
    state = rounds(state, "red 4@1 blue 1@1 green 3@2 black 2@1")  # team red+blue 5, green+black 8
    assert totals(state) == (4, 6, 1, 2) and team_totals(state) == (5, 8)
    assert state.order == (1, 0, 3, 2), "the leading team first, each team's shooters in their order"


def test_teams_may_be_any_two_pairs_in_shooting_order():
    state = game(4, teams=[[3, 0], [2, 1]])
    assert state.order == (3, 2, 0, 1)
    state = rounds(state, "black 6@4", "black 6@4", "red 1@1", "red 1@1")
    assert state.over and team_totals(state) == (50, 0) and winner(state) == 3 and winners(state) == (3, 0)
    refused(state, "flick", "the game is over: player 4 \\(black\\) and player 1 \\(red\\) won")


def test_tied_teams_both_play_the_overtime_round():
    state = rounds(game(4, teams=True), "red 1@1 green 1@1", "", "", "")
    assert state.overtime and state.order == (0, 1, 2, 3) and dice_left(state) == (4, 4, 4, 4)
    state = rounds(state, "black 1@1")
    assert state.over and winners(state) == (1, 3)


def test_teams_with_a_target_score():
    state = rounds(game(4, teams=True, target=10), "red 3@2 blue 2@2 green 6@1")
    assert state.over and team_totals(state) == (10, 6) and winner(state) == 0


# Land mines.


@pytest.mark.parametrize(
    ("kind", "effect"),
    [
        ("pressure", "remove the mine and the die that landed on it"),
        ("trip", "remove the mine and the die that rolled across it"),
        ("proximity", "remove the mine and all dice on the mine's level"),
    ],
)
def test_each_kind_of_mine_tells_the_table_what_to_remove(kind, effect):
    state = game(2, mines=2, mine_kind=kind)
    assert state.variant.mine_kind is MineKind(kind) and MineKind(kind).effect == effect


def test_mines_explode_once_each_after_a_die_has_landed():
    state = game(2, mines=2, mine_kind="pressure")
    refused(state, "mine", "mine: no die has landed on the board this round to set a mine off")
    refused(play(state, "flick stayed"), "mine", "no die has landed")
    state = play(state, "flick")
    assert texts(state) == ["flick", "flick stayed", "mine"]
    state = play(state, "mine")
    assert state.mines_left == 1 and state.current == 1, "a mine changes nobody's turn"
    state = flick_all(state)
    assert texts(state) == ["mine"], "the last flick may set one off before the reading"
    state = play(state, "mine", "tally green 2@2")
    assert state.mines_left == 0 and totals(state) == (0, 4)
    refused(play(state, "flick"), "mine", "all 2 land mines have exploded")


def test_no_mine_explodes_in_a_game_without_mines():
    refused(play(game(2), "flick"), "mine", "there are no land mines in this game")


# Dice breed.


def test_a_die_on_a_breed_card_breeds_one_of_its_players_unflicked_dice():
    state = game(2, breed_cards=1)
    refused(state, "breed red", "no red die has landed on the board this round to trigger the card")
    state = play(state, "flick")
    assert texts(state) == ["flick", "flick stayed", "breed red"]
    state = play(state, "breed red")
    assert dice_left(state) == (2, 4) and state.current == 1, "counted as flicked, without a flick"
    assert flickers(state, 6) == [1, 0, 1, 0, 1, 1]
    state = flick_all(state)
    assert totals(play(state, "tally red 2@1 red 2@1 red 1@1 red 1@1")) == (6, 0)


def test_breeding_the_current_players_last_die_passes_the_turn():
    state = play(game(3, breed_cards=2), *["flick"] * 10)  # red, green, blue x3, then red
    assert dice_left(state) == (0, 1, 1) and state.current == 1
    state = play(state, "breed green")
    assert dice_left(state) == (0, 0, 1) and state.current == 2
    state = play(state, "breed blue")
    assert tally_due(state) and state.current == 0, "the last flicker"
    refused(state, "breed green", "green has no un-flicked die left this round")


def test_breeding_is_refused_without_a_breed_card_or_for_another_colour():
    refused(play(game(2), "flick"), "breed red", "there is no breed card in this game")
    refused(play(game(2, breed_cards=1), "flick"), "breed pink", "no player has colour 'pink'")
    refused(play(game(2, multiplier_cards=1), "flick"), "breed red", "there is no breed card")


def test_bred_teams_still_alternate():
    state = play(game(4, teams=True, breed_cards=1), "flick", "breed red", "breed red", "breed red")
    assert dice_left(state) == (0, 4, 4, 4) and state.current == 1
    assert flickers(state, 12) == [1, 2, 3, 2, 3, 2, 3, 2, 3, 1, 1, 1], "never teammates while blue has dice"


# Multiplier.


def test_the_rules_multiplier_example_a_blue_4_and_a_red_3_on_the_card_are_8_and_6():
    variant = make_variant(multiplier_cards=1).seated(3)
    assert round_scores(variant, dice("blue 4@1*1 red 3@1*1")) == (6, 0, 8)


def test_a_multiplier_card_multiplies_the_dices_value_on_its_level_and_each_card_counts_its_own():
    state = flick_all(game(3, multiplier_cards=2))
    state = play(state, "tally red 2@3*1 red 1@3*1 green 5@2*1 blue 6@1*2 blue 1@4")
    assert totals(state) == (27, 30, 10)  # card 1 holds three: 6x3 + 3x3, 10x3; card 2 one: 6; 4
    assert round_scores(make_variant(multiplier_cards=1, scoring="add").seated(2), dice("red 4@3*1 green 3@1*1")) == (14, 8)
    assert round_scores(make_variant(multiplier_cards=1).seated(2), dice("red 4@0*1 green 3@1*1")) == (0, 6)


def test_a_die_on_a_card_the_game_does_not_have_is_refused():
    refused(flick_all(game(2)), "tally red 4@1*1", "red 4@1\\*1 lies on multiplier card 1, but the game has 0 multiplier cards")
    refused(flick_all(game(2, multiplier_cards=1)), "tally red 4@1*2", "but the game has 1 multiplier card$")


@pytest.mark.parametrize("key, new, older", [("order", "total", "round"), ("ties", "prior", "round"),
                                             ("zero", "removed", "stays")])
def test_a_game_journaled_before_a_reading_was_an_option_keeps_being_played_as_then(tmp_path, key, new, older):
    import json
    import sqlite3

    from firmware.core.game_setup import GameSetup
    from firmware.journal.journal import Journal

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    game_id = journal.start_game(GameSetup(("Ann", "Bob"), kind="tumblin"))
    assert getattr(journal.unfinished().setup.new_state().variant, key) == new, "a new game: the rules' reading"
    journal.close()
    db = sqlite3.connect(path)
    options = json.loads(db.execute("SELECT options FROM games WHERE id = ?", (game_id,)).fetchone()[0])
    del options[key]
    db.execute("UPDATE games SET options = ? WHERE id = ?", (json.dumps(options), game_id))
    db.commit()
    db.close()
    journal = Journal(path)
    assert getattr(journal.unfinished().setup.new_state().variant, key) == older
    journal.close()
