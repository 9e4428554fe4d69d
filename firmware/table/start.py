"""The companion put together: ``demo`` on simulated hardware, ``run`` on the device, and the dice
lesson of ``calibrate --dice``.

Both run the same code: the companion, the event loop, the camera feed and the real reader;
only the devices differ.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from engine.dice import FACES
from engine.errors import EngineError
from firmware.calibration import camera_lean
from firmware.calibration.calibrate_board import Refusal, calibrate_board
from firmware.calibration.table_dice import TableDice, forget_files
from firmware.calibration.tray_file import TRAY_NAME, load_tray
from firmware.config import Config
from firmware.device_config import DeviceConfig
from firmware.core.autoplay import AutoPlayers
from firmware.core.game_setup import GameSetup
from firmware.core.regular_file import read_regular
from firmware.core.table_game import AutoSeats, TableGame
from firmware.devices import camera_opener, open_buttons, open_display, throwing_dice
from firmware.drawing.screens import NoticeScreen, draw, rows_of
from firmware.journal.journal import JOURNAL_NAME, Journal, JournalError, JournalLocked, replay
from firmware.journal.plain_files import NO_LINK_NO_WAIT, is_regular_or_set_aside
from firmware.table import dice_lesson
from firmware.table._loop import CameraFeed, EventQueue, run
from firmware.table._stall import StallGuard
from firmware.table.companion import Companion
from hardware.board_camera import SyntheticBoardCamera, board_from_json, board_json, landing
from hardware.camera import SyntheticCamera, Toss
from hardware.display import Display, RecordingDisplay, TerminalDisplay
from hardware.keyboard import HELP, KeyboardButtons, single_keys
from vision.scenes.synthetic_board import TrueDie
from vision.read.tray import TrayError, TrayOutline

LOG = logging.getLogger("dice_companion")
SIMULATED_FRAME_INTERVAL_S = 0.1  # the pace of cameras that do not wait for a sensor, when people play


@dataclass(frozen=True)
class Outcome:
    """How a game at the table ended (winner None: a draw if ``over``, else left before anyone won),
    with the round the screens were showing and every player's turns together."""

    winner: str | None
    turns: int
    over: bool = False
    rounds: int = 0
    unsaved: str | None = None  # why the last move could not be journaled (the game stopped there)
    interrupted: bool = False  # left with Ctrl-C rather than QUIT
    alone: str | None = None  # a game of one player, over: its result as the game says it ("Ann: 254 points")


def _outcome(companion: Companion) -> Outcome:
    state = companion.state
    if state is None:
        return Outcome(None, 0)
    progress = companion.game.progress(state)
    winner = None if progress.winner is None else companion.names[progress.winner]
    alone = companion.game.doing(state, companion.names) if progress.over and len(companion.names) == 1 else None
    return Outcome(winner, progress.turns, progress.over, companion.game.round(state), companion.unsaved, alone=alone)


def play_demo(
    setup: GameSetup,
    seed: int,
    auto: bool,
    out: TextIO | None = None,
    keys: TextIO | None = None,
    record: Path | None = None,
    data: Path | None = None,
) -> Outcome:
    """A whole game on simulated hardware: the synthetic camera read by the real reader, the
    terminal as the OLED (every screen also saved as a PNG in ``record``), and either bots or
    the keyboard as the players. With ``data``, games are journaled there and an unfinished
    one resumes, and the dice played on are kept there as the table's examples (a table's own
    layer of the reader is tuned on them); without, the journal lives in memory. A simulated board's levels are outlined
    in a temporary folder, never over a real board's calibration in ``data``."""
    out = out or sys.stdout
    terminal = TerminalDisplay(out, in_place=False if auto else None, footer="" if auto else HELP)
    display: Display = terminal if record is None else RecordingDisplay(record, terminal)
    with tempfile.TemporaryDirectory(prefix="dice-companion-") as scratch:
        journal = open_journal(data)
        played, seed, resumed = resumed_setup(journal, setup, seed, out)
        table_dice = TableDice(data, setup.dice_set) if data is not None else None
        companion = Companion(
            display, setup, journal=journal, data_dir=Path(scratch), offer_last_played=False,
            notice=dice_notice(table_dice), table_dice=table_dice,
        )
        tray = simulated_table(played.game, seed, Path(scratch))
        if resumed:
            restore_table(companion, tray, data)
        if isinstance(tray, SyntheticBoardCamera):
            tray.on_toss = lambda dice: board_tossed(terminal, data, companion.game_id, dice)
        try:
            if auto:
                interrupted = _until_interrupted(lambda: _say(
                    play_with_bots(companion, played.game.autoplayer(len(played.names), seed, tray), tray), out))
            else:
                keys = keys or sys.stdin
                inbox = EventQueue()
                with single_keys(keys):
                    KeyboardButtons(inbox.guarded(throwing_dice(inbox.press, tray, companion.throw_plan), "sim table"), keys)
                    interrupted = _until_interrupted(
                        lambda: run(companion, inbox, CameraFeed(lambda: tray, inbox, SIMULATED_FRAME_INTERVAL_S)))
        finally:
            if table_dice is not None:
                table_dice.close()
            journal.close()  # its lock too: never left to the garbage collector
    return replace(_outcome(companion), interrupted=interrupted)


def resumed_setup(journal: Journal, asked: GameSetup, seed: int, out: TextIO) -> tuple[GameSetup, int, bool]:
    """The set-up the demo plays (an unfinished game in the data folder resumes as it was set up,
    whatever ``--game`` and ``--players`` ask: said in one line; one that no longer replays is
    abandoned by the companion, and the game asked for is played) and the simulated table's seed:
    ``seed`` for a new game, one drawn from it and the moves journaled for a resumed one, so the
    throws go on afresh instead of repeating those already journaled; and whether it resumed."""
    record = journal.unfinished()
    if record is None:
        return asked, seed, False
    try:
        replay(record, journal.events(record.id))
    except EngineError:  # the companion abandons it and says so: the game asked for is played
        return asked, seed, False
    played = record.setup
    if (played.kind, played.names) != (asked.kind, asked.names):
        print(f"resuming the unfinished game of {played.game.title} ({', '.join(played.names)}) journaled here: "
              f"it is played out first, as it was set up", file=out)
    moves = len(journal.events(record.id))
    return played, seed * 1_000_003 + moves, True


SIMULATED_BOARD = "simulated-board.json"  # in a demo's data folder: the dice lying on its simulated board
BOARD_MOST_BYTES = 16 << 10  # 16 dice are about 3 KB: a longer file is no board, and is never read whole


def restore_table(companion: Companion, tray: SyntheticCamera | SyntheticBoardCamera, data: Path | None = None) -> None:
    """Put on a simulated table what the journal of the resumed game says lies there: a board's
    dice where they lay, as remembered in ``data`` for this game when as many of each colour as the
    journal says landed; else (a tray, or no such memory) thrown anew."""
    tosses = companion.game.lying(companion.state)
    wanted = Counter({toss.colour: toss.count for toss in tosses})
    if isinstance(tray, SyntheticBoardCamera) and data is not None and _laid_back(tray, data, companion.game_id, wanted):
        return
    for toss in tosses:
        tray.toss(toss)


def _laid_back(board: SyntheticBoardCamera, data: Path, game: int | None, wanted: Counter[str]) -> bool:
    """Whether the dice remembered in ``data`` for ``game``, as many of each colour as ``wanted``,
    were laid back on ``board``. A file that cannot be used (anything but a regular file of a few KB,
    damaged, or holding a die the board cannot have) is said once in the log: no board."""
    path = data / SIMULATED_BOARD
    try:
        kept, dice = _read_board(path)
        if kept != game or Counter(die.colour for die in dice) != wanted:  # another game's, or a round on
            return False
        board.put_back(dice)
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as error:
        LOG.warning("no board: the simulated board kept in %s cannot be used (%s); its dice are thrown anew", path, error)
        return False
    return True


def _read_board(path: Path) -> tuple[object, tuple[TrueDie, ...]]:
    """The game a simulated board was kept for, and its dice; ValueError when the file is no board."""
    try:
        kept = json.loads(read_regular(path, BOARD_MOST_BYTES).decode("utf-8"))
    except RecursionError:  # json parses nested lists by recursion
        raise ValueError("it nests too deeply") from None
    if not isinstance(kept, dict) or "dice" not in kept:
        raise ValueError("it holds no game's dice")
    return kept.get("game"), board_from_json(json.dumps(kept["dice"]))


def board_tossed(terminal: TerminalDisplay, data: Path | None, game: int | None, dice: tuple[TrueDie, ...]) -> None:
    """After a flick onto a demo's simulated board: where it landed said under the picture (the
    players cannot look at the board), and with ``data`` the board kept there for a resume."""
    terminal.tell(landing(dice[-1]))
    if data is not None:
        remember_board(data, game, dice)


def remember_board(data: Path, game: int | None, dice: tuple[TrueDie, ...]) -> None:
    """Keep the dice lying on a demo's simulated board in ``data``, written as the journal's mark is
    (:func:`firmware.journal.last_event.remember`): whole or not at all, through a partial file made
    afresh, never through a link or a pipe left there (set aside, said in the log). A failure is
    logged, and a resume then throws the dice anew."""
    path, partial = data / SIMULATED_BOARD, data / f".{SIMULATED_BOARD}.partial"
    text = json.dumps({"game": game, "dice": json.loads(board_json(dice))})
    try:
        if is_regular_or_set_aside(partial, "the simulated board's partial file"):
            partial.unlink()  # what a stop left of a write
        _write_afresh(partial, text)
        os.replace(partial, path)
    except OSError as error:
        LOG.warning("cannot keep the simulated board in %s (%s): a resumed round throws its dice anew", path, error)


def _write_afresh(path: Path, text: str) -> None:
    """``text`` in a file made afresh at ``path`` (nothing may stand there), fsync'd; a write cut short
    (a full disk, a file-size limit) leaves nothing there."""
    handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NO_LINK_NO_WAIT, 0o644)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as written:
            written.write(text)
            written.flush()
            os.fsync(written.fileno())
    except OSError:
        path.unlink(missing_ok=True)
        raise


def simulated_table(game: TableGame, seed: int, data_dir: Path) -> SyntheticCamera | SyntheticBoardCamera:
    """The simulated table a game is played on: a dice tray, or a board whose levels are outlined
    in ``data_dir`` by ``calibrate --game tumblin``'s own code, on a picture of it empty."""
    if game.camera != "board":
        return SyntheticCamera(seed)
    board = SyntheticBoardCamera(seed)
    try:
        calibrate_board(DeviceConfig(data_dir=data_dir), board.frame())
    except Refusal as refusal:  # its files could not be written (a full disk, a file-size limit)
        raise OSError(f"the simulated board: {refusal.message}") from None
    return board


def play_with_bots(
    companion: Companion, seats: AutoSeats, tray: SyntheticCamera | SyntheticBoardCamera, undo_rate: float = 0.0,
    seed: int = 0,
) -> str | None:
    """Bots at the buttons of ``companion`` over a simulated tray or board, until the game is won, or
    a screen on which nothing happens for a minute of play stops them: then where, in a line (the
    game stays journaled as it stands)."""
    inbox = EventQueue()
    players = AutoPlayers(seats, inbox.press, tray.toss, undo_rate=undo_rate, seed=seed, host=companion)
    companion.listeners.append(players.on_screen)
    players.on_screen(companion.screen)
    guard = StallGuard(companion)
    run(guard, inbox, CameraFeed(lambda: tray, inbox))
    return guard.stalled


def _say(line: str | None, out: TextIO) -> None:
    """Print ``line``, if any."""
    if line is not None:
        print(line, file=out)


def run_device(config: Config) -> Outcome:
    """The companion on the configured devices, until QUIT (keyboard) or the process is stopped."""
    opener = camera_opener(config.camera)
    try:  # the journal's lock first: a second companion must not reset the running one's display
        journal = open_journal(config.data_dir)
    except JournalLocked:
        raise
    except JournalError as error:  # say it where the players look, too
        display = open_display(config.display)
        display.show(draw(NoticeScreen("Journal refused", (*rows_of(str(error)), "See the log."))))
        display.close()
        raise
    display = open_display(config.display, keys=HELP if _keyboard(config) else "")
    web_notice = start_web_page(config)
    inbox = EventQueue()
    deliver = inbox.press
    at_table: list[Companion] = []  # the companion, once made: the simulated tray asks it what a throw takes
    if config.camera.backend == "synthetic" and opener is not None:
        plan = lambda: at_table[0].throw_plan() if at_table else Toss()  # noqa: E731
        deliver = inbox.guarded(throwing_dice(deliver, opener(), plan), "sim table")  # type: ignore[arg-type]  # the synthetic opener hands out its tray
    sensor_paced = config.camera.backend in ("picamera2", "usb")  # these wait for the next exposure
    try:
        with _keys_as_typed(config):
            buttons = open_buttons(config.buttons, deliver)
            table_dice: TableDice | None = None
            try:
                tray, notice = tray_at_table(config.data_dir) if opener is not None else (None, None)
                table_dice = TableDice(config.data_dir, config.game.dice_set) if opener is not None else None
                notice = notice or web_notice or dice_notice(table_dice)
                companion = Companion(
                    display, config.game, snapshots=config.data_dir / "refused-reads", journal=journal,
                    has_camera=opener is not None, tray=tray, notice=notice, data_dir=config.data_dir,
                    table_dice=table_dice,
                )
                at_table.append(companion)
                LOG.info("started: %s display, %s camera", config.display.type, config.camera.backend)
                interval = 0.0 if sensor_paced else SIMULATED_FRAME_INTERVAL_S
                interrupted = _until_interrupted(
                    lambda: run(companion, inbox, CameraFeed(opener, inbox, interval) if opener is not None else None))
            finally:
                buttons.close()
                if table_dice is not None:
                    table_dice.close()
    finally:
        display.close()
        journal.close()
    return replace(_outcome(companion), interrupted=interrupted)


def _until_interrupted(play: Callable[[], None]) -> bool:
    """Run ``play``; whether Ctrl-C ended it (said like any other way out, with the game's outcome)."""
    try:
        play()
    except KeyboardInterrupt:
        return True
    return False


def _keyboard(config: Config) -> bool:
    return config.buttons.source == "keyboard"


def _keys_as_typed(config: Config) -> contextlib.AbstractContextManager[None]:
    """With keyboard buttons, the terminal hands over each key as it is typed (not a line at a
    time, after Enter), and is restored on the way out."""
    return single_keys(sys.stdin) if _keyboard(config) else contextlib.nullcontext()


def dice_notice(table_dice: TableDice | None) -> NoticeScreen | None:
    """A notice of the table's dice files kept aside as damaged, if any (the log says more)."""
    if table_dice is None or not table_dice.notices:
        return None
    return NoticeScreen("Dice examples reset", ("A damaged file was", "kept aside; the dice", "are learned afresh."))


def start_web_page(config: Config) -> NoticeScreen | None:
    """The read-only web page on a thread beside the game, when ``[web] enabled``; a port that
    cannot be had is logged and shown, and the game goes on without the page."""
    if not config.web.enabled:
        return None
    from firmware.web.server import WebServer

    try:
        WebServer(config.data_dir, config.web.address, config.web.port, config.web.hosts).start()
    except OSError as error:
        LOG.error("%s; the game goes on without the page", error)
        return NoticeScreen("Web page failed", (f"port {config.web.port}:", "see the log.", "Game goes on."))
    return None


def tray_at_table(data_dir: Path) -> tuple[TrayOutline | None, NoticeScreen | None]:
    """The calibrated tray, if any; an unreadable tray file is logged and shown, and the whole frame
    is read; a camera that leans too far over the tray is logged and shown, and the tray is used."""
    try:
        tray = load_tray(data_dir)
    except TrayError as error:
        LOG.error("%s; the whole frame is read", error)
        return None, NoticeScreen("Tray file unreadable", ("Whole frame is read.", "Run calibrate again;", "the log says why."))
    if tray is None:
        return None, None
    LOG.info("tray outline from %s: only dice inside it count", data_dir / TRAY_NAME)
    tilt = camera_lean.leaning(tray)
    if tilt is None:
        return tray, None
    LOG.warning("%s", camera_lean.advice(tilt))
    return tray, camera_lean.notice(tilt)


def open_journal(data: Path | None) -> Journal:
    """The journal in the folder ``data`` (made if missing), or one in memory."""
    if data is None:
        return Journal(":memory:")
    data.mkdir(parents=True, exist_ok=True)
    return Journal(data / JOURNAL_NAME)


def teach_dice(config: Config, forget: bool = False) -> int:
    """Run the lesson on the configured camera, buttons and display (``forget``: drop what the
    table learned instead); returns the exit status."""
    if forget:  # without reading the files: forgetting is the way out of files that cannot be read
        removed = forget_files(config.data_dir)
        print(f"forgot the table's dice: removed {', '.join(removed)}" if removed else "no dice examples to forget")
        return 0
    table_dice = TableDice(config.data_dir, config.game.dice_set)
    try:
        opener = camera_opener(config.camera)
        if opener is None:
            print("dice-companion calibrate --dice: the configuration has no camera", file=sys.stderr)
            return 1
        display = open_display(config.display, keys=HELP if _keyboard(config) else "")
        inbox = EventQueue()
        deliver = inbox.press
        if config.camera.backend == "synthetic":  # a simulated tray: ROLL throws the dice, as at the table
            deliver = inbox.guarded(throwing_dice(deliver, opener(), lambda: Toss(dice_lesson.MOST_DICE - 1)), "sim table")  # type: ignore[arg-type]  # the synthetic opener hands out its tray
        try:
            with _keys_as_typed(config):
                buttons = open_buttons(config.buttons, deliver)
                try:
                    lesson = dice_lesson.DiceLesson(display, table_dice, tray_at_table(config.data_dir)[0])
                    run(lesson, inbox, CameraFeed(opener, inbox, SIMULATED_FRAME_INTERVAL_S))
                finally:
                    buttons.close()
        finally:
            display.close()
        counts = table_dice.counts()
        print(f"{sum(counts)} examples of {config.game.dice_set!r}: " + " ".join(f"{f}:{n}" for f, n in zip(FACES, counts)))
        return 0
    finally:
        table_dice.close()
