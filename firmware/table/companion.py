"""The companion at the table, for any game: buttons and camera frames in, journaled moves and screens out.

It runs on the event loop's single thread and is driven by :meth:`Companion.handle`. Every
move is committed to the journal before the screen shows it, and the state is the replay of
the journal, so a game survives a power cut (it resumes at start) and any move can be undone
(a long press of STOP), a misread roll included. Rolls come from the camera
(:mod:`firmware.core.roll_watcher`) or, when it is missing or overruled, from the buttons
(:mod:`firmware.core.manual_entry`); a reading without exactly the dice the game needs is shown and
refused, never guessed. With the tray's outline (``dice-companion calibrate``) only dice inside
the tray count; an outline that does not fit the camera's frames is dropped with a notice. A game
played on a board (:class:`firmware.core.table_game.BoardGame`) reads the whole picture instead: the
core confirms the dice reader's reading over settled frames and hands it to the game with the
picture and the data folder (its calibration), and keeps what the game makes of it (a reading
the players correct) until the next move.

It knows no game: what a button means, what the screen shows and what a bot decides are asked of
the game being played (:class:`firmware.core.table_game.TableGame`).
"""

from __future__ import annotations

import itertools
import logging
import sqlite3
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.dice import Roll
from engine.errors import EngineError
from firmware.calibration.table_dice import TableDice
from firmware.core.events import ButtonEvent, CameraFailed, DeviceFault, Event, FrameEvent
from firmware.core.manual_entry import entry_after, start_entry
from firmware.core.roll_watcher import Reader, RollWatcher, Seen
from firmware.core.statuses import CAMERA_TROUBLE, NOT_SAVED, READING
from firmware.core.table_game import (
    Action,
    BoardGame,
    ByHand,
    Cursor,
    Look,
    NewGame,
    Play,
    Say,
    Scratch,
    ShowBoard,
    Sight,
    TableGame,
    Throw,
    UNDONE,
    TrayRefused,
    View,
)
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import BadReadScreen, ManualEntryScreen, NoticeScreen, ResumeScreen, Screen, draw, rows_of, wrapped
from firmware.journal.journal import UNDO, Journal, play_through, replay
from firmware.journal.last_event import FILE_LOST
from firmware.journal.rows import CAMERA, HAND
from firmware.journal.write_limits import write_trouble
from firmware.table._confirmed_dice import ConfirmedDice
from firmware.table.dice_lesson import DiceLesson
from firmware.table._setup_menu import chosen_setup, first_menu, menu_after
from hardware.buttons import Press
from hardware.camera import Toss
from hardware.display import Display, DisplayError
from vision import annotate, read_dice
from vision.read.reading import DiceReading
from vision.read.settle import SettleParams
from vision.read.tray import TrayError, TrayOutline

LOG = logging.getLogger("dice_companion")


class Companion:
    """One companion at one table; :attr:`screen` is what the OLED shows.

    ``journal`` defaults to one in memory (nothing survives the process); ``has_camera`` False
    makes ROLL open the manual dice entry; ``tray`` limits the camera to the calibrated tray (in
    games played in a tray); ``notice`` is shown first (a problem met while starting, such as an
    unreadable tray file); ``data_dir`` holds calibrations a game reads (the board's levels). The
    set-up screen offers the game last played first, unless ``setup``'s game was asked for by name
    (``offer_last_played`` False: the demo's ``--game``). With ``table_dice`` the dice are read with
    the table's own layer, and the throws played on are kept as its examples.
    """

    def __init__(
        self,
        display: Display,
        setup: GameSetup | None = None,
        reader: Reader = read_dice,
        settle: SettleParams = SettleParams(),
        snapshots: Path | None = None,
        journal: Journal | None = None,
        has_camera: bool = True,
        tray: TrayOutline | None = None,
        notice: NoticeScreen | None = None,
        data_dir: Path | None = None,
        offer_last_played: bool = True,
        table_dice: TableDice | None = None,
    ) -> None:
        self.display = display
        self.defaults = setup = setup if setup is not None else GameSetup()  # None: the catalogue's first game, two players
        self.snapshots = snapshots
        self.journal = journal or Journal(":memory:")
        self.has_camera = has_camera
        self.data_dir = data_dir
        self._tray = tray
        self._scratch: Any = None  # the game's work in progress before its next move
        self.listeners: list[Callable[[Screen], None]] = []
        self.finished = False
        self.unsaved: str | None = None  # why the last move could not be journaled, until one is
        self.state: Any = None
        self.setup: GameSetup | None = None  # the game being played
        self._game: int | None = None
        self._standing: list[Any] = []
        self._menu = first_menu(setup, self._last_kind() if offer_last_played else None, learn_dice=table_dice is not None)
        self._table_dice = table_dice
        self._lesson: DiceLesson | None = None  # the dice lesson, opened from the set-up screen
        self._banner: Any = None  # a notice, the resume screen, or the game's banner (a bust, a bot's turn)
        self._waiting_notices: list[NoticeScreen | ResumeScreen] = []  # shown once the notice on screen is dismissed
        self._entry: ManualEntryScreen | None = None
        self._showing_board = False
        self._cursor = 0
        self._status = ""
        self._camera_problem = ""
        self._display_failing = False
        self.watcher = (RollWatcher(reader, settle, tray) if table_dice is None
                        else RollWatcher(table_dice.read, settle, tray, table_dice.params))
        self._confirmed = ConfirmedDice(table_dice) if table_dice is not None else None
        self.bot_seats: frozenset[int] = frozenset()
        self._bots_paused = False
        self._snapshot_numbers = itertools.count(1)
        self._shown: Screen | None = None
        self._resume_or_warn()
        if notice is not None:
            self._notify(notice)
        self.screen: Screen = self._menu.screen()  # set by _refresh
        self._refresh()

    @property
    def names(self) -> tuple[str, ...]:
        return self.setup.names if self.setup is not None else ()

    @property
    def game(self) -> TableGame:
        """The game being played."""
        assert self.setup is not None
        return self.setup.game

    def _last_kind(self) -> str | None:
        """The kind of the last game in the journal: the set-up screen offers it first."""
        games = self.journal.games()
        return games[-1].setup.kind if games else None

    def _resume_or_warn(self) -> None:
        if self.journal.moved_aside is not None:
            name = self.journal.moved_aside.name
            self._banner = NoticeScreen("Journal damaged", ("kept aside as", *rows_of(name)), "new journal")
        self._resume()
        lost = self.journal.lost
        if lost is not None:  # said first: the resume screen (or a notice) follows
            events = f"event {lost.first}" if lost.first == lost.last else f"events {lost.first}-{lost.last}"
            if self._banner is not None:
                self._waiting_notices.insert(0, self._banner)
            if lost.cause == FILE_LOST:
                earlier = {0: "the journal file was", 1: "and 1 earlier game:"}.get(lost.earlier_games,
                                                                                 f"and {lost.earlier_games} earlier games:")
                ending = "empty or missing" if lost.earlier_games == 0 else "journal file emptied"
                self._banner = NoticeScreen("Games lost", (f"game {lost.game} {events}", earlier, ending),
                                            "new journal")
            else:
                self._banner = NoticeScreen("Events lost", wrapped(f"game {lost.game}'s {events}. The log was damaged."),
                                            "played on")

    def _resume(self) -> None:
        """Resume the journal's unfinished game, if any (abandoned if it does not replay)."""
        record = self.journal.unfinished()
        if record is None:
            return
        events = self.journal.events(record.id)
        try:
            state, standing = replay(record, events)
        except EngineError as error:
            LOG.error("game %d does not replay (%s): abandoned", record.id, error)
            self.journal.abandon(record.id)
            self._banner = NoticeScreen("Saved game broken", ("It does not replay,", "so it was abandoned.", "The log says why."))
            return
        self._set_game(record.id, record.setup, state, standing)
        self._bots_paused = bool(events) and events[-1] == UNDO  # an undo of the advisor's move stands
        if self.game.camera == "tray":
            self.watcher.resumed()  # a board, unlike a throw, may be read as it lies
        self._banner = self._resume_screen()
        LOG.info("resumed game %d (%s) at turn %d, %d moves", record.id, record.setup.kind,
                 self.game.progress(state).turns, len(standing))

    def _resume_screen(self) -> ResumeScreen:
        return ResumeScreen(self.names, self.game.round(self.state), self.game.doing(self.state, self.names))

    def _notify(self, notice: NoticeScreen) -> None:
        """Show ``notice`` now, or after the notice (or resume screen) already showing."""
        if isinstance(self._banner, (ResumeScreen, NoticeScreen)):
            self._waiting_notices.append(notice)
        else:
            self._banner = notice

    @property
    def game_id(self) -> int | None:
        """The journal's id of the game being played, if any."""
        return self._game

    def _set_game(self, game: int, setup: GameSetup, state: Any, standing: list[Any]) -> None:
        self._game = game
        self.setup = setup
        self.bot_seats = frozenset(seat for seat, name in enumerate(setup.names) if name in setup.bots)
        self._bots_paused = False
        self.state = state
        self._standing = standing
        self._cursor = 0
        self._scratch = None
        self.watcher.use_tray(self._tray if self.game.camera == "tray" else None)
        self.watcher.expect_roll()

    # --- events -------------------------------------------------------------------------

    def handle(self, event: Event) -> None:
        """Take one event and update the screen."""
        if self._lesson is not None and not (isinstance(event, ButtonEvent) and event.press is Press.QUIT):
            self._lesson.handle(event)
            if self._lesson.finished:
                self._lesson = None
            self._refresh()
            return
        if isinstance(event, ButtonEvent):
            self._status = ""
            self._press(event.press)
        elif isinstance(event, FrameEvent):
            self._frame(event.frame)
        elif isinstance(event, CameraFailed):
            if event.message != self._camera_problem:
                LOG.warning("camera: %s", event.message)
            self._camera_problem = event.message
            self.watcher.camera_gap()
        elif isinstance(event, DeviceFault):  # logged whole where it failed
            self._status = f"{event.source}: see log"
        self._let_bots_play()
        self._refresh()

    @property
    def bot_decides(self) -> bool:
        """Whether the advisor decides for the seat to move now (not after an UNDO, when the people
        decide for it): the players only throw its dice, and its decisions are refused at the buttons."""
        state = self.state
        return (
            state is not None
            and self.game.engine.current_player(state) in self.bot_seats
            and not self.game.progress(state).over
            and not self._bots_paused
        )

    def _let_bots_play(self) -> None:
        """The advisor makes the decisions of its seats (the players throw the dice for it); what
        it decided stays on the screen until the next roll. After an UNDO it waits for the next
        roll or a person's own move, so the humans can step back past its moves (the screen says
        they decide for it meanwhile)."""
        decided: Screen | None = None
        while self.bot_decides and (self._banner is None or self._banner is decided) and self._entry is None:
            state = self.state
            move = self.game.bot_move(state)
            if move is None:
                return  # its dice are to be thrown
            if not self._apply(state, move):
                self._bots_paused = True  # not again at every frame while the journal refuses
                return
            decided = self._banner = self.game.bot_screen(decided, state, move, self.state, self.names)

    def _press(self, press: Press) -> None:
        if press is Press.QUIT:
            self.finished = True
        elif isinstance(self._banner, (ResumeScreen, NoticeScreen)):
            self._press_on_notice(press, self._banner)
        elif press is Press.UNDO:
            self._undo()
        elif self._showing_board and press is Press.NEXT:
            self._showing_board = False
        elif self._showing_board:
            self._showing_board = False
            self._press(press)
        elif self.state is None:
            self._press_in_setup(press)
        elif self._entry is not None:
            self._press_entering(press, self.state, self._entry)
        else:
            self._act(self.game.press(self.state, press, self._view()), self.state)

    def _act(self, action: Action, state: Any) -> None:
        """Do what a press on the game's screen asked."""
        if isinstance(action, Play):
            self._apply(state, action.move)
        elif isinstance(action, Throw) and self.has_camera:
            self.watcher.request()  # dice never seen thrown are refused once the camera sees them lie still
        elif isinstance(action, (Throw, ByHand)):
            self._entry = start_entry(self.names[self.game.engine.current_player(state)], self.game.tray_dice(state))
        elif isinstance(action, ShowBoard):
            self._showing_board = True
        elif isinstance(action, Cursor):
            self._cursor = action.index
        elif isinstance(action, Say):
            self._status = action.status
        elif isinstance(action, NewGame):
            self._leave_game()
        elif isinstance(action, Look) and self.has_camera:
            self.watcher.request()
        elif isinstance(action, Look):
            self._status = "no camera"
        elif isinstance(action, Scratch):
            self._scratch, self._cursor, self._status = action.value, action.cursor, action.status
            self.watcher.expect_roll()  # a reading still to come must not replace what the players do

    def _press_on_notice(self, press: Press, banner: ResumeScreen | NoticeScreen) -> None:
        """SELECT goes on (to the next waiting notice, if any); on the resume screen STOP asks, and
        STOP again abandons the game (it stays in the history); anything else there keeps it."""
        if press is Press.SELECT and self._waiting_notices:
            self._banner = self._waiting_notices.pop(0)
        elif isinstance(banner, ResumeScreen) and press is Press.STOP and not banner.confirming:
            self._banner = replace(banner, confirming=True)
        elif isinstance(banner, ResumeScreen) and press is Press.STOP:
            self._abandon()
        elif isinstance(banner, ResumeScreen):
            self._banner = None if press is Press.SELECT else replace(banner, confirming=False)
        elif press is Press.SELECT:
            self._banner = None
        elif press is Press.UNDO and banner.undoes:
            self._banner = None
            self._undo()

    def _abandon(self) -> None:
        assert self._game is not None
        try:
            self.journal.abandon(self._game)
        except (sqlite3.Error, OSError) as error:
            self._journal_refused(f"could not abandon game {self._game}", error)
            return
        LOG.info("game %d abandoned", self._game)
        self._leave_game()

    def _journal_refused(self, what: str, error: Exception) -> None:
        LOG.error("%s: %s", what, write_trouble(error))
        self._banner = NoticeScreen("Cannot save games", ("The journal refused:", *wrapped(str(error), 2)))

    def _press_in_setup(self, press: Press) -> None:
        if press is Press.SELECT and self._menu.field == self._menu.start_field:
            self._start(chosen_setup(self.defaults, self._menu))
        elif press is Press.NEXT and self._menu.field == self._menu.lesson_field and self._table_dice is not None:
            self._lesson = DiceLesson(None, self._table_dice, self._tray)
        else:
            self._menu = menu_after(self._menu, press, self.defaults)

    def _start(self, setup: GameSetup) -> None:
        try:
            state = setup.new_state()  # before the journal has a game it could not replay
        except EngineError as error:
            LOG.error("cannot start %s: %s", setup.describe(), error)
            self._banner = NoticeScreen("Cannot start", wrapped(str(error), 3))
            return
        try:
            game = self.journal.start_game(setup)
        except (sqlite3.Error, OSError) as error:
            self._journal_refused("could not journal a new game", error)
            return
        self._set_game(game, setup, state, [])
        LOG.info("new game %d: %s, %s", game, ", ".join(setup.names), setup.describe())

    def _leave_game(self) -> None:
        kind = self.setup.kind if self.setup is not None else None
        self.state, self.setup, self._game, self._standing = None, None, None, []
        self._banner = self._entry = self._scratch = None
        self._menu = first_menu(self.defaults, kind)

    def _press_entering(self, press: Press, state: Any, entry: ManualEntryScreen) -> None:
        after = entry_after(entry, press)
        if isinstance(after, Roll):
            self._entry = None
            if self._apply_tray(state, after.dice, HAND):
                self.watcher.rolled(None)
                if self._confirmed is not None:
                    self._confirmed.by_hand(after.dice)
        else:
            self._entry = after

    def throw_plan(self) -> Toss:
        """What the players throw before ROLL now (for a simulated table)."""
        state = self.state
        if state is None or self._entry is not None or isinstance(self._banner, (ResumeScreen, NoticeScreen)):
            return Toss()
        if isinstance(self._banner, BadReadScreen) and self.game.camera == "tray":
            return Toss(self._banner.needed)
        return self.game.throw(state, self._view())

    # --- the camera ---------------------------------------------------------------------

    def _frame(self, frame: np.ndarray) -> None:
        self._camera_problem = ""
        self._check_tray(frame)
        state = self.state
        playing = state is not None and self._entry is None and not isinstance(self._banner, (ResumeScreen, NoticeScreen))
        board = playing and self.game.camera == "board"
        if board and self._scratch is None and not self.watcher.requested and self._board_game.board_due(state):
            self.watcher.request()
        needed = self.game.tray_dice(state) if playing else 0
        roll_due = board and self.watcher.requested or (
            needed > 0 and (self.game.throw_due(state) or self.watcher.requested)
        )
        seen = self.watcher.frame(frame, roll_due, None if board else needed or None)
        if seen is not None and state is not None and board:
            self._act(self._board_game.looked(state, Sight(frame, seen.reading, self.data_dir, self._options), self._view()), state)
        elif seen is not None and state is not None:
            self._use(seen, frame, state)

    @property
    def _options(self) -> dict[str, Any]:
        assert self.setup is not None
        return self.setup.game_options()

    @property
    def _board_game(self) -> BoardGame:
        """The game being played, which reads a board (``camera`` is "board")."""
        game = self.game
        assert game.camera == "board"
        return game  # type: ignore[return-value]  # its camera says it is a BoardGame

    def _check_tray(self, frame: np.ndarray) -> None:
        """A tray outline made for frames of another shape is dropped: the whole frame is read."""
        tray = self.watcher.tray
        if tray is None:
            return
        width, height = frame.shape[1], frame.shape[0]
        try:
            tray.scaled_to((width, height))
        except TrayError as error:
            LOG.error("%s; until then the whole frame is read", error)
            self.watcher.use_tray(None)
            self._tray = None
            made_for = f"made for {tray.frame_size[0]}x{tray.frame_size[1]},"
            self._notify(NoticeScreen("Tray does not fit", (made_for, f"camera: {width}x{height}.", "Whole frame read."), "calibrate"))

    def _use(self, seen: Seen, frame: np.ndarray, state: Any) -> None:
        reading = seen.reading
        if seen.unmoved:
            LOG.info("read the last roll's dice again (%s): waiting for a throw", reading.summary())
            self._status = "throw the dice first" if seen.asked else ""
            return
        needed = self.game.tray_dice(state)
        LOG.info("read %s", reading.summary())
        if len(reading.dice) != needed or reading.unreadable:
            self._showing_board = False
            self._banner = BadReadScreen(len(reading.dice), reading.values, len(reading.unreadable), needed)
            self._snapshot(frame, reading)
            if self._confirmed is not None:
                self._confirmed.refused(frame, reading)
            return
        if self._apply_tray(state, tuple(reading.values), CAMERA):
            self._status = ""  # "throw the dice first" was answered
            self.watcher.rolled(reading)
            if self._confirmed is not None:
                self._confirmed.read(frame, reading)
        elif isinstance(self._banner, NoticeScreen):
            self._snapshot(frame, reading)

    def _snapshot(self, frame: np.ndarray, reading: DiceReading) -> None:
        """Keep an annotated picture of a refused reading, to look at later."""
        if self.snapshots is None:
            return
        try:
            self.snapshots.mkdir(parents=True, exist_ok=True)
            path = self.snapshots / time.strftime(f"refused-%Y%m%d-%H%M%S-{next(self._snapshot_numbers)}.png")
            if not cv2.imwrite(str(path), annotate(frame, reading, tray=self.watcher.tray)):
                raise OSError(f"cannot write {path}")
        except OSError as error:
            LOG.warning("snapshot not saved: %s", error)

    # --- the engine and the journal -----------------------------------------------------

    def _commit(self, event: str, after: Any, source: str | None = None) -> bool:
        """Journal an event (a roll with where its dice were read); False (and a message) if it could
        not be saved, so it did not happen."""
        assert self._game is not None
        try:
            self.journal.append(self._game, event, self.game.progress(after), source)
        except (sqlite3.Error, OSError) as error:
            where = "" if str(self.journal.path) == ":memory:" else f" in {self.journal.path}"  # SQLite names no file
            self.unsaved = f"could not journal {event!r}{where}: {write_trouble(error)}"
            LOG.error("%s", self.unsaved)
            self._status = f"{NOT_SAVED}: try again"
            self._shown = None  # refused again, the screen looks the same: shown and told anew all the same
            return False
        self.unsaved = None
        return True

    def _apply_tray(self, state: Any, dice: tuple[int, ...], source: str) -> bool:
        """Journal and apply the moves the tray's dice make, the rolls among them with ``source``
        (CAMERA or HAND); True if all were committed. Dice that cannot be this throw are refused
        with a notice that says why."""
        try:
            moves = self.game.told(state, dice)
        except TrayRefused as error:
            LOG.warning("tray refused: %s", error)
            self._banner = NoticeScreen("Dice do not fit", wrapped(str(error)), "UNDO:unkeep", undoes=True)
            return False
        for move in moves:
            if not self._apply(state, move, source):  # a keep worked out from the tray keeps its source too
                return False
            state = self.state
        return True

    def _apply(self, state: Any, move: Any, source: str | None = None) -> bool:
        """Journal and apply a move (a roll with where its dice were read); True if it was committed."""
        engine = self.game.engine
        after = engine.apply(state, move)  # the flow offers only legal moves; an error here is a bug
        text = engine.move_text(move)
        if not self._commit(text, after, source):
            return False
        LOG.info("%s: %s", self.names[engine.current_player(state)], text)
        self.state = after
        self._standing.append(move)
        self._cursor = 0
        self._scratch = None
        self._showing_board = False  # what the move brings (a choice, a winner) must be seen
        self._banner = self.game.after_move(state, move, after, self.names)
        if isinstance(move, Roll) or engine.current_player(state) not in self.bot_seats:
            self._bots_paused = False  # a new roll, or a person moving for themselves: the bots play on after an undo
        if self.game.tray_dice(after) or self.game.camera == "board":
            self.watcher.expect_roll()  # (a board: a reading asked before this move is of the board before it)
        return True

    def _undo(self) -> None:
        """Step back one move, across turns if pressed again; the undo is journaled too."""
        if self.state is None or self._entry is not None:
            self._entry = None
            return
        if not self._standing:
            self._status = "nothing to undo"
            return
        assert self.setup is not None
        undone = self._standing[-1]
        state = play_through(self.game.engine, self.setup.new_state(), self._standing[:-1])
        if not self._commit(UNDO, state):
            return
        text = self.game.engine.move_text(undone)
        words = self.game.undone_words(state, undone)
        self._standing.pop()
        self.state = state
        self._cursor = 0
        self._scratch = self._board_game.undone(state, undone) if self.game.camera == "board" else None
        self._banner = None
        self._showing_board = False
        self.watcher.expect_roll()
        if isinstance(undone, Roll):
            self.watcher.forget_last_roll()  # "that is not what we rolled": the same dice may be read again
            if self._confirmed is not None:
                self._confirmed.undone()
        self._status = f"{UNDONE}{words}"
        self._bots_paused = True
        LOG.info("undo %s", text)

    # --- the screen ---------------------------------------------------------------------

    def _view(self) -> View:
        state = self.state
        current = self.game.engine.current_player(state)
        bot = current in self.bot_seats
        status = self._status or (READING if self.watcher.requested else "")
        if self._camera_problem and self.game.camera and not self._status:  # what the game said stays in view
            status = CAMERA_TROUBLE
        return View(
            self.names, self._cursor, status, hints=self.defaults.hints and not bot,
            proxy=self._bots_paused and bot, bot_to_decide=self.bot_decides, scratch=self._scratch,
            camera=self.has_camera,
        )

    def _current_screen(self) -> Screen:
        state = self.state
        if self._lesson is not None:
            return self._lesson.screen
        if isinstance(self._banner, (ResumeScreen, NoticeScreen)):
            return self._banner
        if state is None:
            return self._menu.screen()
        if self._showing_board:
            return self.game.board(state, self.names)
        if self._entry is not None:
            return self._entry
        view = self._view()
        if self._banner is not None and not self.game.progress(state).over:
            return replace(self._banner, status=view.status)
        return self.game.screen(state, view)

    def _refresh(self) -> None:
        self.screen = self._current_screen()
        if self.screen == self._shown and not self._display_failing:
            return
        self._shown = self.screen
        try:
            self.display.show(draw(self.screen))
            if self._display_failing:
                LOG.info("display works again")
            self._display_failing = False
        except DisplayError as error:
            if not self._display_failing:
                LOG.error("%s; the game goes on and the display is retried", error)
            self._display_failing = True
        for listener in self.listeners:
            listener(self.screen)
