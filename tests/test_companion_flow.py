"""The game flow at the table, event by event: set-up, reading rolls, choices, stops, faults."""

from __future__ import annotations

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from engine.cant_stop import GAME, Phase
from firmware.core.events import ButtonEvent, CameraFailed, FrameEvent
from firmware.core.statuses import CAMERA_TROUBLE, READING
from firmware.drawing.screens import BadReadScreen, SetupScreen
from firmware.games.cant_stop.screens import (
    BoardScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    RollScreen,
    WinnerScreen,
)
from firmware.core.game_setup import GameSetup
from firmware.table.companion import Companion
from hardware.buttons import ButtonTiming, GpioButtons, Press
from hardware.camera import SyntheticCamera
from hardware.display import DisplayError, dummy_display
from table_helpers import NAMES, ManualClock, play, press, show_frames, start_game
from vision.read.reading import DiceReading, Die


@pytest.fixture
def tray() -> SyntheticCamera:
    return SyntheticCamera(seed=5)


@pytest.fixture
def companion() -> Companion:
    companion = Companion(dummy_display(), GameSetup(NAMES))
    start_game(companion)
    return companion


def menu(players: int, columns: int, rule: str, field: int) -> SetupScreen:
    """Can't Stop's set-up screen: the game, players, columns to win, rules; ``field`` highlighted."""
    return SetupScreen(
        (("Game", "Can't Stop"), ("Players", str(players)), ("Columns to win", str(columns)), ("Rules", rule)), field
    )


def test_setup_screen_changes_players_columns_and_rules_then_starts():
    companion = Companion(dummy_display(), GameSetup(NAMES, options={"columns_to_win": 5}))
    assert companion.screen == menu(2, 5, "standard", 0)
    press(companion, Press.SELECT, Press.NEXT, Press.NEXT)  # 2 -> 3 -> 4 players; 4 players play to at most 3 columns
    assert companion.screen == menu(4, 3, "standard", 1)
    press(companion, Press.SELECT, Press.NEXT, Press.SELECT, Press.NEXT, Press.NEXT)
    assert companion.screen == menu(4, 3, "forced-move", 3)
    press(companion, Press.STOP, Press.STOP, Press.NEXT, Press.NEXT)  # back to players: 4 -> 2 -> 3
    assert companion.screen == menu(3, 3, "forced-move", 1)
    press(companion, Press.SELECT, Press.SELECT, Press.SELECT, Press.SELECT)
    assert companion.state is not None and companion.state.players == 3 and companion.state.variant.forced_move
    assert companion.names == ("Ann", "Bob", "P3")
    assert isinstance(companion.screen, RollScreen)


def test_roll_button_reads_the_settled_dice_and_lists_the_legal_choices(companion, tray):
    tray.place((1, 4, 5, 6))
    press(companion, Press.ROLL)
    assert companion.screen.status == READING
    show_frames(companion, tray)
    screen = companion.screen
    assert isinstance(screen, ChoiceScreen)
    assert [GAME.move_text(m) for m in screen.options] == ["5+11", "6+10", "7+9"]
    press(companion, Press.NEXT, Press.SELECT)
    assert companion.state.runners == ((6, 1), (10, 1))
    assert isinstance(companion.screen, RollScreen) and companion.screen.status == ""


def test_dice_that_tumble_and_settle_are_read_without_a_press(companion, tray):
    show_frames(companion, tray)  # an empty tray at rest: nothing happens
    assert isinstance(companion.screen, RollScreen)
    tray.place((2, 2, 3, 3))
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen)
    assert companion.state.dice.dice == (2, 2, 3, 3)


def test_roll_pressed_twice_while_reading_is_one_roll(companion, tray):
    tray.place((1, 2, 3, 4))
    press(companion, Press.ROLL, Press.ROLL)
    show_frames(companion, tray, 30)
    assert companion.state.phase is Phase.CHOOSE and companion.state.dice.dice == (1, 2, 3, 4)
    press(companion, Press.SELECT)
    show_frames(companion, tray, 30)  # the same dice, still at rest: not a new roll
    assert companion.state.phase is Phase.ROLL


def test_three_dice_ask_for_a_reroll_and_never_guess(companion, tray):
    tray.place((2, 4, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert companion.screen == BadReadScreen(3, (2, 4, 6), 0, 4)
    assert companion.state == GAME.new_game(2)
    tray.place((3, 3, 4, 6))  # thrown again: read on its own once settled
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen)


def test_an_unreadable_die_is_refused_with_its_count(companion):
    dice = tuple(Die(v, (10.0 * i, 0.0), 20.0, 0.99, ((0, 0),) * 4) for i, v in enumerate((1, 2, 3)))
    cocked = Die(None, (50.0, 0.0), 20.0, 0.4, ((0, 0),) * 4, "unsure: 4 (40%) or 5 (38%)")
    companion.watcher.reader = lambda frame, up=None, closer=0: DiceReading(dice + (cocked,))  # four dice, one unreadable
    press(companion, Press.ROLL)
    still = np.zeros((48, 64, 3), np.uint8)
    for _ in range(10):
        companion.handle(FrameEvent(still))
    assert companion.screen == BadReadScreen(4, (1, 2, 3), 1, 4)


def test_a_bust_gets_its_own_screen_and_passes_the_dice(tray):
    companion = Companion(dummy_display(), GameSetup(NAMES))
    start_game(companion)
    play(companion, "roll 2-2-2-2", "4+4", "roll 3-3-3-3", "6+6", "roll 4-4-4-4", "8+8")
    tray.place((1, 1, 1, 1))  # only 2, and all three runners are out on 4, 6 and 8
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    screen = companion.screen
    assert isinstance(screen, BustScreen) and screen.loser == 0 and screen.dice == (1, 1, 1, 1)
    assert companion.state.current == 1 and companion.state.runners == ()


def test_stop_banks_and_a_claimed_column_gets_its_own_screen(companion):
    play(companion, "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2")
    press(companion, Press.STOP)
    assert companion.screen == ClaimScreen(companion.state, NAMES, 0, (2,))
    assert companion.state.current == 1


def test_stop_with_nothing_to_bank_says_so(companion):
    press(companion, Press.STOP)
    assert companion.screen.status == "nothing to bank"
    assert companion.state == GAME.new_game(2)


def test_next_shows_the_board_then_returns(companion):
    press(companion, Press.NEXT)
    assert companion.screen == BoardScreen(companion.state, NAMES)
    press(companion, Press.NEXT)
    assert isinstance(companion.screen, RollScreen)
    press(companion, Press.NEXT, Press.ROLL)  # any other button leaves the board and acts
    assert isinstance(companion.screen, RollScreen) and companion.screen.status == READING


def test_the_winner_screen_then_select_sets_up_a_new_game(companion):
    play(
        companion,
        "roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1",  # A claims 2, B busts
        "roll 6-6-6-6", "12+12", "roll 6-6-6-6", "12", "stop", "roll 1-1-1-1",  # A claims 12, B busts
        "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3",
    )
    press(companion, Press.STOP)
    assert isinstance(companion.screen, WinnerScreen) and companion.state.winner == 0
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, SetupScreen) and companion.state is None


def test_a_camera_fault_is_shown_and_clears_when_frames_return(companion, tray):
    companion.handle(CameraFailed("USB camera /dev/video0 gave no frame (unplugged?)"))
    assert companion.screen.status == CAMERA_TROUBLE
    tray.place((1, 2, 3, 4))
    press(companion, Press.ROLL)
    assert companion.screen.status == CAMERA_TROUBLE
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen)


def test_a_failing_display_does_not_stop_the_game_and_is_retried(tray):
    class FlakyDisplay:
        def __init__(self) -> None:
            self.broken = False
            self.shown = 0

        def show(self, image) -> None:
            if self.broken:
                raise DisplayError("display write failed: [Errno 121] Remote I/O error")
            self.shown += 1

        def close(self) -> None:
            pass

    display = FlakyDisplay()
    companion = Companion(display, GameSetup(NAMES))
    start_game(companion)
    display.broken = True
    tray.place((1, 4, 5, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen)
    shown = display.shown
    display.broken = False
    show_frames(companion, tray, 1)
    assert display.shown == shown + 1, "the screen is drawn again once the display answers"


def test_the_last_rolls_dice_still_lying_there_are_never_read_as_a_new_roll(companion, tray):
    tray.place((1, 4, 5, 6))
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    press(companion, Press.SELECT)  # 5+11; the dice stay in the tray
    resting = tray.frame()
    darker = (resting * 0.8).astype(resting.dtype)  # a shadow passes: the picture "moves"
    companion.handle(FrameEvent(darker))
    show_frames(companion, tray)
    assert companion.state.phase is Phase.ROLL, "the same dice, unmoved, are not a roll"
    press(companion, Press.ROLL)
    show_frames(companion, tray)
    assert companion.state.phase is Phase.ROLL and companion.screen.status == "throw the dice first"
    tray.place((1, 4, 5, 6))  # thrown again, the same values by chance: a new roll
    show_frames(companion, tray)
    assert companion.state.phase is Phase.CHOOSE


def test_a_choice_arriving_while_the_board_is_shown_replaces_it(companion, tray):
    tray.place((1, 4, 5, 6))
    press(companion, Press.ROLL, Press.NEXT)
    assert isinstance(companion.screen, BoardScreen)
    show_frames(companion, tray)
    assert isinstance(companion.screen, ChoiceScreen), "a pending choice is never hidden"


def test_a_bounced_press_and_a_double_press_each_count_once():
    companion = Companion(dummy_display(), GameSetup(NAMES))
    factory, clock = MockFactory(), ManualClock()
    buttons = GpioButtons({Press.SELECT: 23}, lambda p: companion.handle(ButtonEvent(p)), ButtonTiming(), factory, clock)
    pin = factory.pin(23)
    for _ in range(3):  # a press whose contact chatters
        pin.drive_low()
        clock.advance(0.003)
        pin.drive_high()
        clock.advance(0.003)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    assert companion.screen.field == 1
    clock.advance(0.05)
    pin.drive_low()  # pressed again at once: a double press
    clock.advance(0.05)
    pin.drive_high()
    assert companion.screen.field == 1
    clock.advance(1.0)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    assert companion.screen.field == 2, "a deliberate later press counts"
    buttons.close()
