"""The advisor at the table: hints on the OLED, and playing a seat against people."""

from __future__ import annotations

from dataclasses import replace

from engine.cant_stop import GAME, Phase
from engine.cant_stop.advisor import Advisor
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import draw
from firmware.games.cant_stop.screens import BotTurnScreen, ChoiceScreen, RollScreen
from firmware.journal.journal import Journal
from firmware.table.companion import Companion
from golden import assert_matches_golden
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from table_helpers import NAMES, play, press, show_frames, start_game, state_after


def test_hints_mark_the_advisors_split_and_say_roll_or_stop(update_golden):
    companion = Companion(dummy_display(), GameSetup(NAMES, hints=True))
    start_game(companion)
    play(companion, "roll 1-4-5-6")
    press(companion, Press.NEXT, Press.NEXT, Press.NEXT)  # a full turn of the cursor: the same screen
    screen = companion.screen
    assert isinstance(screen, ChoiceScreen)
    assert screen.options[screen.advice] == Advisor().choose(companion.state, screen.options)
    assert_matches_golden(draw(screen), "screen-choice-hint", update_golden)
    play(companion, GAME.move_text(screen.options[screen.advice]))
    press(companion, Press.NEXT, Press.NEXT)  # the board and back
    roll_screen = companion.screen
    assert isinstance(roll_screen, RollScreen)
    assert roll_screen.advice == ("STOP" if Advisor().should_stop(companion.state) else "ROLL")
    assert_matches_golden(draw(roll_screen), "screen-roll-hint", update_golden)


def test_without_hints_nothing_is_advised():
    companion = Companion(dummy_display(), GameSetup(NAMES))
    start_game(companion)
    play(companion, "roll 1-4-5-6")
    press(companion, Press.NEXT)
    assert companion.screen.advice is None


def test_the_advisor_plays_its_seat_and_the_people_throw_its_dice():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Robo"), bots=("Robo",)))
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10", "stop")
    assert companion.state.current == 1  # Robo's turn: it waits for its dice
    press(companion, Press.STOP)
    assert companion.screen.status == "Robo decides" and companion.state.current == 1
    tray = SyntheticCamera(seed=4)
    tray.place((2, 3, 4, 5))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    state = companion.state
    assert state.phase is Phase.ROLL and state.runners, "Robo chose a split at once"
    took = companion.journal.events(companion.game_id)[4]
    assert companion.journal.events(companion.game_id)[3] == "roll 2-3-4-5"
    assert companion.screen == BotTurnScreen(state, companion.names, 1, (2, 3, 4, 5), took), "its decision is shown"
    show_frames(companion, tray)
    assert isinstance(companion.screen, BotTurnScreen), "until its dice are thrown again"


def test_a_bots_stop_is_shown_with_its_split_until_the_next_roll():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Robo"), bots=("Robo",)))
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10", "stop")
    tray = SyntheticCamera(seed=4)
    for dice in ((1, 1, 1, 2), (6, 6, 6, 6)):  # Robo takes 2+3, then 12+12: with runners on 2, 3, 12 it stops
        tray.place(dice)
        press(companion, Press.ROLL)
        show_frames(companion, tray)
    after = companion.state
    assert after.current == 0 and after.saved_space(1, 12) == 2, "Robo stopped"
    assert companion.screen == BotTurnScreen(after, companion.names, 1, (6, 6, 6, 6), "12+12")
    press(companion, Press.NEXT, Press.NEXT)  # the board and back
    assert companion.screen == BotTurnScreen(after, companion.names, 1, (6, 6, 6, 6), "12+12")
    tray.place((1, 2, 3, 4))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen) and companion.state.current == 0


def test_after_an_undo_into_the_bots_turn_the_screen_says_the_people_decide_for_it():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Robo"), bots=("Robo",)))
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10", "stop", "roll 2-3-4-5")
    press(companion, Press.ROLL, Press.UNDO)  # Robo chose a split; the people undo it and choose for it
    assert isinstance(companion.screen, ChoiceScreen) and companion.screen.proxy
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, RollScreen) and companion.screen.proxy
    assert draw(companion.screen).tobytes() != draw(replace(companion.screen, proxy=False)).tobytes(), "the title says so"


def test_undo_steps_back_past_the_advisors_moves():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Robo"), bots=("Robo",)))
    start_game(companion)
    play(companion, "roll 1-4-5-6", "6+10", "stop", "roll 2-3-4-5")
    press(companion, Press.ROLL)  # any event lets Robo choose
    chosen = companion.journal.events(companion.game_id)[-1]
    press(companion, Press.UNDO)
    assert companion.state == state_after("roll 1-4-5-6", "6+10", "stop", "roll 2-3-4-5"), f"{chosen} undone"
    press(companion, Press.UNDO, Press.UNDO)
    assert companion.state == state_after("roll 1-4-5-6", "6+10"), "back into Ann's turn, Robo waits"
    assert companion.state.current == 0


def test_an_undone_advisor_move_stays_undone_after_a_restart(tmp_path):
    setup = GameSetup(("Ann", "Robo"), bots=("Robo",))
    first = Companion(dummy_display(), setup, journal=Journal(tmp_path / "j.sqlite3"))
    start_game(first)
    play(first, "roll 1-4-5-6", "6+10", "stop", "roll 2-3-4-5")
    press(first, Press.ROLL, Press.UNDO)  # Robo chose; the people undo it
    first.journal.close()
    second = Companion(dummy_display(), setup, journal=Journal(tmp_path / "j.sqlite3"))
    press(second, Press.SELECT)  # play on
    assert second.state == state_after("roll 1-4-5-6", "6+10", "stop", "roll 2-3-4-5")
    assert second.journal.events(second.game_id)[-1] == "undo"


def test_the_set_up_screen_never_leaves_only_bots():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob", "Cy"), bots=("Ann", "Bob")))
    press(companion, Press.SELECT, Press.NEXT, Press.NEXT)  # 3 -> 4 -> 2 players: Ann and Bob, both configured as bots
    start_game(companion)
    assert companion.names == ("Ann", "Bob") and companion.bot_seats == frozenset({1})
