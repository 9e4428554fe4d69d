"""Bots' play that stalls ends: a screen on which nothing happens for a minute of play (counted in
camera frames, so a slow machine is never cut short) stops it with a line that says where, and the
game stays journaled as it stood. A resumed Can't Stop kept the CPU busy for ever on one screen."""

from __future__ import annotations

from waiting import within_hang_s

from firmware.core.events import ButtonEvent, FrameEvent
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import Screen
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table._stall import STALL_FRAMES, StallGuard
from firmware.table.companion import Companion
from firmware.table.start import play_with_bots
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display


class IdleSeats:
    """Bots that do nothing on a game's own screens (the core's they answer as ever)."""

    names = ("Ann", "Bob")

    def presses_for(self, screen: Screen) -> None:
        return None


def test_a_minute_of_frames_on_one_screen_stops_the_play_and_a_new_screen_starts_the_minute_again():
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob"), kind="cant-stop"))
    guard = StallGuard(companion)
    frame = FrameEvent(SyntheticCamera(1).frame())
    for _ in range(STALL_FRAMES - 1):
        guard.handle(frame)
    guard.handle(ButtonEvent(Press.NEXT))  # the set-up screen's next field
    for _ in range(STALL_FRAMES - 1):
        guard.handle(frame)
    assert not guard.finished and guard.stalled is None
    guard.handle(frame)
    assert guard.finished and not companion.finished
    assert guard.stalled == "stopped: nothing happened for a minute of play on the set-up screen"


def test_bots_that_wait_on_a_screen_for_ever_stop_saying_where_and_the_game_stays_journaled(tmp_path):
    setup = GameSetup(IdleSeats.names, kind="cant-stop")
    journal = Journal(tmp_path / JOURNAL_NAME)
    game, engine = journal.start_game(setup), setup.game.engine
    journal.append(game, "roll 2-3-4-5", setup.game.progress(engine.apply(setup.new_state(), engine.parse_move("roll 2-3-4-5"))))
    companion = Companion(dummy_display(), setup, journal=journal)
    said = within_hang_s(lambda: play_with_bots(companion, IdleSeats(), SyntheticCamera(1)))
    assert said == "stopped: nothing happened for a minute of play in Can't Stop, round 1, Ann: choosing"
    unfinished = journal.unfinished()
    assert unfinished is not None and unfinished.id == game and journal.events(game) == ["roll 2-3-4-5"]
    journal.close()
