"""What a game at the table answers for the companion's core, which knows no game.

The core (:mod:`firmware.table.companion`: buttons, camera, journal, undo, resume, dice by hand, bot
seats, the set-up screen) asks a :class:`TableGame` the few things that differ between games:
what its set-up asks, how many dice the camera must see after a throw and which moves a reading
makes (or, for a game played on a board, what it reads in a picture of it: :class:`BoardGame`),
what the screen is for a state, what a button means there, what its bots decide. Each
game answers in one folder of its own under ``firmware/games/``; adding a game adds a folder
and one line in :mod:`firmware.games`, never a change here or in the core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from engine.game import Game
from firmware.drawing.screens import CHAR_PX, WIDTH, Screen
from hardware.buttons import Press
from hardware.camera import Toss
from vision.read.reading import DiceReading

Options = Mapping[str, Any]  # a game's set-up options by key, values as the journal stores them (JSON)


@dataclass(frozen=True)
class SetupOption:
    """One set-up option of a game: on the set-up screen when it has ``choices``, and in the
    configuration's ``[game]`` section under ``key``. ``parse`` reads a configuration's value
    (paths in it are relative to ``base``, the file's folder), raising EngineError if it cannot."""

    key: str
    label: str  # on the set-up screen: "Rules"
    default: Any
    choices: Callable[[int], tuple[Any, ...]] | None = None  # the values for n players; None: not on the screen
    parse: Callable[[Any, Path], Any] = field(default=lambda value, base: value)  # a config value -> the option
    allowed: str = ""  # what the configuration may give, for messages
    shown: Callable[[Any], str] = str  # a value as the set-up screen shows it
    needs: str | None = None  # on the set-up screen only while this other option is set (not 0, False, "none")
    legacy: Any = None  # the value games journaled before this option existed were played with (None: the default)


@dataclass(frozen=True)
class View:
    """What the core keeps that a game's screens show."""

    names: tuple[str, ...]
    cursor: int = 0  # the highlighted entry of a list of choices
    status: str = ""  # a camera problem, a refused button, "undone: ..."
    hints: bool = False  # show the advisor's tips to this seat
    proxy: bool = False  # a bot's seat after an UNDO: the people decide for it
    bot_to_decide: bool = False  # a bot's seat that decides by itself: buttons other than ROLL wait
    scratch: Any = None  # the game's work in progress before a move (a reading being corrected), see Scratch
    camera: bool = True  # a camera is there (without one, what it would read is entered by hand)


# What a press asks of the core.
@dataclass(frozen=True)
class Play:
    """Journal and apply this move."""

    move: Any


@dataclass(frozen=True)
class Throw:
    """Read the tray after a throw (the camera; without one, the dice by hand)."""


@dataclass(frozen=True)
class ByHand:
    """Enter the tray's dice with the buttons."""


@dataclass(frozen=True)
class ShowBoard:
    """Show the whole board until NEXT."""


@dataclass(frozen=True)
class Cursor:
    """Highlight another entry of the list of choices."""

    index: int


@dataclass(frozen=True)
class Say:
    """Put a short message in the footer."""

    status: str


@dataclass(frozen=True)
class NewGame:
    """Leave the finished game for the set-up screen."""


@dataclass(frozen=True)
class Look:
    """Read the camera's picture now, for the game's own reading of it (:meth:`BoardGame.looked`)."""


@dataclass(frozen=True)
class Scratch:
    """Keep ``value`` (shown as ``View.scratch``) until the next move or undo, with the cursor at
    ``cursor`` and ``status`` in the footer: a board reading the players correct before it counts."""

    value: Any
    cursor: int = 0
    status: str = ""


Action = Play | Throw | ByHand | ShowBoard | Cursor | Say | NewGame | Look | Scratch | None


class TrayRefused(ValueError):
    """The tray's dice cannot be this throw (dice said to be kept are gone); the message says why."""


@dataclass(frozen=True)
class Progress:
    """What the journal records of a state besides its events."""

    winner: int | None
    turns: int  # turns begun so far
    turn_over: bool  # between two turns (or over): the journal's log is checkpointed here
    drawn: bool = False  # over with no winner (a game whose rules allow a draw)

    @property
    def over(self) -> bool:
        return self.winner is not None or self.drawn


CameraUse = Literal["tray", "board", ""]


@dataclass(frozen=True)
class Sight:
    """A settled picture of the board, the dice reader's confirmed reading of it, the data folder
    where its calibration lies (None: a companion without one) and the game's set-up options."""

    frame: np.ndarray
    reading: DiceReading
    data_dir: Path | None
    options: Options


UNDONE = "undone: "
UNDONE_ROOM = WIDTH // CHAR_PX - len(UNDONE)  # the footer's characters after "undone: "


def opened_on(moves: Sequence[Any], pick: Any, offset: int) -> int:
    """The list's row ``offset`` steps after the one it opens on: the advisor's ``pick`` (with hints;
    None: the first), wrapping round, so the list keeps its order and still opens on the pick."""
    start = moves.index(pick) if pick in moves else 0
    return (start + offset) % len(moves)


def roll_words(dice: Sequence[int]) -> str:
    """A roll as the footer says it: "roll 1-4-5-6", five dice without dashes ("roll 23566") to fit."""
    return "roll " + ("-" if len(dice) <= 4 else "").join(map(str, dice))


class TableGame(Protocol):
    """One game at the table. Banners (what :meth:`after_move` and :meth:`bot_screen` return) are
    dataclasses with a ``status`` field, which the core fills."""

    kind: str  # the journal's name for the game, e.g. "cant-stop"
    camera: CameraUse  # what the camera sees: "tray", "board" (the game is a BoardGame), "" (no dice to read)
    draws: bool  # whether a game may end with no winner
    advised: bool  # whether an advisor can play seats and give hints (not in a game of skill)
    title: str  # on the set-up screen, e.g. "Can't Stop"
    engine: Game[Any, Any]
    players: range
    options: tuple[SetupOption, ...]

    def variant(self, options: Options) -> dict[str, Any]:
        """The engine's ``new_game`` keywords for these options (EngineError if they do not fit)."""
        ...

    def summary(self, options: Options) -> str:
        """The options in a player's words, for the log, the history and the page: "standard rules,
        3 columns to win" ("" for a game without any). Display only: nothing reads it back."""
        ...

    def progress(self, state: Any) -> Progress: ...

    def round(self, state: Any) -> int:
        """The round being played, for the resume screen."""
        ...

    def doing(self, state: Any, names: Sequence[str]) -> str:
        """Where the game stands, in a line: "Ann: to roll"."""
        ...

    def undone_words(self, before: Any, move: Any) -> str:
        """The move taken back (``before``: the state it was made in) in the screen's own words, whole
        and at most UNDONE_ROOM characters: the footer says "undone: FH 25"."""
        ...

    def tray_dice(self, state: Any) -> int:
        """How many dice the camera must see in the tray after a throw now; 0: no throw is due."""
        ...

    def throw_due(self, state: Any) -> bool:
        """Whether a throw is expected now, so the camera reads the tray once dice moved and came to
        rest; otherwise (a throw that is allowed, not expected) it reads only when ROLL asks."""
        ...

    def throw(self, state: Any, view: View) -> Toss:
        """What the players throw before ROLL now, for a simulated table (a camera just reads it)."""
        ...

    def lying(self, state: Any) -> tuple[Toss, ...]:
        """What a simulated table must be given when a journaled game resumes, so that it shows
        what the journal says lies there (a simulated table starts empty)."""
        ...

    def told(self, state: Any, dice: tuple[int, ...]) -> tuple[Any, ...]:
        """The moves that the tray's dice (``tray_dice`` of them) make, in order; TrayRefused if
        they cannot be this throw."""
        ...

    def screen(self, state: Any, view: View) -> Screen:
        """What the OLED shows when nothing else (a banner, the board, a notice) is up."""
        ...

    def press(self, state: Any, press: Press, view: View) -> Action:
        """What ROLL, STOP, NEXT or SELECT means now (UNDO and QUIT are the core's)."""
        ...

    def after_move(self, before: Any, move: Any, after: Any, names: Sequence[str]) -> Screen | None:
        """A banner that shows what a move did (a bust, a claim), or None."""
        ...

    def board(self, state: Any, names: Sequence[str]) -> Screen: ...

    def bot_move(self, state: Any) -> Any | None:
        """The advisor's decision for the seat to move, or None when it has none to make now (its
        dice are to be thrown, the game is over)."""
        ...

    def bot_screen(
        self, shown: Screen | None, before: Any, move: Any, after: Any, names: Sequence[str]
    ) -> Screen | None:
        """The banner of a bot's turn after one more of its moves (``shown``: the one up so far);
        None where the game's own screen shows what the bot did."""
        ...

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        """``bench-advisor``'s report: the advisor against the game's other bots, with figures."""
        ...

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> AutoSeats:
        """Bots that press the buttons for every seat, for the demo and the kill test; ``table`` is
        the simulated table they play on (a board game's bots check the camera's reading against it)."""
        ...


class BoardGame(TableGame, Protocol):
    """A game whose dice lie on a board the camera reads whole (faces, colours, places), rather
    than a throw of a known number of dice in the tray."""

    def board_due(self, state: Any) -> bool:
        """Whether the board is to be read now without asking (the camera reads it once at rest)."""
        ...

    def looked(self, state: Any, sight: Sight, view: View) -> Action:
        """What a reading of the board (asked by :class:`Look`, or due) does."""
        ...

    def undone(self, state: Any, move: Any) -> Any:
        """The work in progress to show again after ``move`` was undone (the reading a count was
        made from: the board may be cleared by now), or None."""
        ...


@dataclass(frozen=True)
class AutoPress:
    """Buttons a bot at the table presses; with ``toss``, it first does that on the simulated table."""

    presses: tuple[Press, ...]
    toss: Toss | None = None
    decision: bool = False  # a decision the players may take back (the kill test's UNDO presses)


class AutoSeats(Protocol):
    """Bots at the buttons: what they press on one of their game's screens (None: not theirs)."""

    names: tuple[str, ...]

    def presses_for(self, screen: Screen) -> AutoPress | None: ...
