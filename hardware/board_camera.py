"""The camera over a stepped dice board, simulated: players flick dice onto the board drawn by
:mod:`vision.scenes.synthetic_board`, and every frame is read by the real board reader.

Like :class:`hardware.camera.SyntheticCamera` the picture shows the dice of a toss moving for a
few frames, then at rest (the same picture each time, so the settle detector sees them stop).
The light over the board stays as it was: only the dice change between tosses. Players may toss
from one thread while the camera feed takes frames on another.
"""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, replace

import numpy as np

from hardware.camera import Toss
from vision.board.board_levels import LEVELS, LevelMap
from vision.scenes.synthetic import PlacedDie
from vision.scenes.synthetic_board import BOX_DICE, TrueDie, Where, board_levels, draw_scene, place_die

DIE_SIDE_SHARE = 0.075  # of the frame's height: a die's side when none is given (45 px at 800x600)
TUMBLE_SIDES = 1.5  # die sides: how far a moving die is from where it comes to rest, per frame left
SIDE_TOLERANCE = 0.25  # share of the board's die side by which a die laid back may differ from it


class SyntheticBoardCamera:
    """A simulated stepped board seen from above; :meth:`toss` flicks dice onto it.

    Each die flicked lands (seeded) well inside a random level, or with ``off_board_share`` on the
    table beside the board, or with ``on_border_share`` across a step; always clear of the dice
    lying there, which stay where they are (with no room left on the board it lands beside it).
    """

    def __init__(
        self,
        seed: int,
        size: tuple[int, int] = (800, 600),
        tumbling_frames: int = 2,
        *,
        die_side_px: float | None = None,
        off_board_share: float = 0.08,
        on_border_share: float = 0.04,
        white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0),
    ) -> None:
        if not (0 <= off_board_share and 0 <= on_border_share and off_board_share + on_border_share <= 1):
            raise ValueError(
                f"the shares of dice landing beside the board ({off_board_share}) and across a step "
                f"({on_border_share}) must be 0 or more, together at most 1"
            )
        self._lock = threading.Lock()
        self._rng = np.random.default_rng(seed)
        self._scene_seed = int(self._rng.integers(2**32))  # the light, blur and noise of every picture
        self.size = size
        self.tumbling_frames = tumbling_frames
        self.die_side_px = die_side_px if die_side_px is not None else DIE_SIDE_SHARE * size[1]
        self.off_board_share, self.on_border_share = off_board_share, on_border_share
        self.white_balance = white_balance
        self._levels = board_levels(size)
        self._truth: tuple[TrueDie, ...] = ()
        self._moving = 0  # the last dice of the truth: those of the last toss
        self._tumbling = 0
        self._tumble_seed = 0
        self._at_rest: np.ndarray | None = None
        self.on_toss: Callable[[tuple[TrueDie, ...]], None] | None = None  # told every die lying after each toss

    @property
    def truth(self) -> tuple[TrueDie, ...]:
        """Every die lying on the board or beside it, in the order they were flicked."""
        with self._lock:
            return self._truth

    def put_back(self, dice: Sequence[TrueDie]) -> None:
        """Lay ``dice`` on the board at rest, where they lay (a resumed round's, remembered).
        ValueError, and nothing changes, for a die this board cannot have: drawn, it would raise in
        the camera's thread and stall the game."""
        for number, die in enumerate(dice, start=1):
            wrong = self._wrong(die)
            if wrong:
                raise ValueError(f"die {number} ({die.colour!r}) {wrong}")
        with self._lock:
            self._truth, self._moving, self._tumbling, self._at_rest = tuple(dice), 0, 0, None

    @property
    def levels(self) -> LevelMap:
        """The level map of the board as drawn in this camera's frames."""
        return self._levels

    def toss(self, toss: Toss) -> tuple[int, ...]:
        """Pick up the dice first if ``toss.new_round``, then flick ``toss.count`` dice of
        ``toss.colour``; returns the faces of every die lying (the truth, for tests)."""
        if toss.count < 0:
            raise ValueError(f"a toss flicks 0 or more dice, got {toss.count}")
        if toss.count and toss.colour not in BOX_DICE:
            raise ValueError(f"no {toss.colour!r} dice on the simulated board: its dice are {', '.join(BOX_DICE)}")
        with self._lock:
            lying = [] if toss.new_round else list(self._truth)
            for _ in range(toss.count):
                lying.append(self._land(toss.colour, int(self._rng.integers(1, 7)), lying))
            self._truth, self._moving = tuple(lying), toss.count
            self._tumbling = self.tumbling_frames
            self._tumble_seed = int(self._rng.integers(2**32))
            self._at_rest = None
            lying_now = self._truth
        if self.on_toss is not None:  # told outside the lock: it may write a file
            self.on_toss(lying_now)
        return tuple(die.face for die in lying_now)

    def frame(self) -> np.ndarray:
        with self._lock:
            if self._tumbling:
                self._tumbling -= 1
                return self._draw(self._tumbled(self._tumbling + 1))
            if self._at_rest is None:
                self._at_rest = self._draw(self._truth)
            return self._at_rest.copy()

    def close(self) -> None:
        """Nothing to release."""

    def _wrong(self, die: TrueDie) -> str:
        """What this board cannot draw of ``die`` ("" when nothing): one of its colours, faces 1-6
        showing its value, a level the board has, a finite centre in the frame, a size near the
        board's dice, a finite angle, a lean shorter than its side."""
        placed, (width, height) = die.placed, self.size
        x, y = placed.centre
        checks = (
            (die.colour in BOX_DICE, f"is none of the board's colours ({', '.join(BOX_DICE)})"),
            (die.face in range(1, 7), f"shows {die.face}, not a face 1-6"),
            (placed.value == die.face, f"is drawn showing {placed.value}, not its face {die.face}"),
            (die.level is None or die.level in range(LEVELS), f"lies on level {die.level}, which the board has not"),
            (0 <= x <= width and 0 <= y <= height, f"lies at ({x:g}, {y:g}), outside the {width}x{height} frame"),
            (abs(placed.side / self.die_side_px - 1) <= SIDE_TOLERANCE,
             f"is {placed.side:g} px, not near the board's dice ({self.die_side_px:g} px)"),
            (math.isfinite(placed.angle), f"is turned {placed.angle:g} degrees"),
            (math.hypot(*placed.lean) <= placed.side, f"leans {math.hypot(*placed.lean):g} px, past its side"),
        )
        return next((why for fine, why in checks if not fine), "")

    def _land(self, colour: str, face: int, lying: list[TrueDie]) -> TrueDie:
        """Where a flicked die comes to rest."""
        roll = float(self._rng.random())
        where: Where = "off" if roll < self.off_board_share else (
            "border" if roll < self.off_board_share + self.on_border_share else "level"
        )
        try:
            return place_die(colour, face, where, self.die_side_px, self.size, lying, self._rng)
        except ValueError:
            if where == "off":
                raise
            return place_die(colour, face, "off", self.die_side_px, self.size, lying, self._rng)

    def _tumbled(self, frames_left: int) -> tuple[TrueDie, ...]:
        """The dice with those of the last toss still moving: each further from its rest, and
        turned, the more frames are left (fixed by the toss, so a replay draws the same)."""
        rng = np.random.default_rng((self._tumble_seed, frames_left))
        still = self._truth[: len(self._truth) - self._moving]
        moving = []
        side = self.die_side_px
        for die in self._truth[len(still):]:
            x, y = np.array(die.placed.centre) + rng.normal(0, TUMBLE_SIDES * side * frames_left, 2)
            centre = (float(np.clip(x, side, self.size[0] - side)), float(np.clip(y, side, self.size[1] - side)))
            moving.append(replace(die, placed=replace(die.placed, centre=centre, angle=float(rng.uniform(0, 90)))))
        return (*still, *moving)

    def _draw(self, dice: tuple[TrueDie, ...]) -> np.ndarray:
        return draw_scene(dice, np.random.default_rng(self._scene_seed), self.size, white_balance=self.white_balance)


def landing(die: TrueDie) -> str:
    """Where a flicked die came to rest ("red 4 landed on 3x"), for players who cannot look at the
    simulated board; on the 0x level, what happens to it there: no hand takes it off."""
    where = (f"on {die.level}x" if die.level is not None else "across a step") if die.on_board else "beside the board"
    stays = ": it lies there until the count sets it aside" if die.level == 0 else ""
    return f"{die.colour} {die.face} landed {where}{stays}"


def board_json(dice: Sequence[TrueDie]) -> str:
    """The dice lying on a simulated board, as JSON (a resumed demo lays them back)."""
    return json.dumps([asdict(die) for die in dice])


def board_from_json(text: str) -> tuple[TrueDie, ...]:
    """The dice of :func:`board_json`; ValueError when the text is no such list."""
    try:
        return tuple(
            TrueDie(str(d["colour"]), int(d["face"]), None if d["level"] is None else int(d["level"]), bool(d["on_board"]),
                    PlacedDie(int(d["placed"]["value"]), _pair(d["placed"]["centre"]), float(d["placed"]["side"]),
                              float(d["placed"]["angle"]), _pair(d["placed"]["lean"])))
            for d in json.loads(text)
        )
    except (TypeError, KeyError, OverflowError, json.JSONDecodeError) as error:  # OverflowError: int(Infinity)
        raise ValueError(f"not a simulated board's dice ({type(error).__name__})") from None


def _pair(values: Sequence[float]) -> tuple[float, float]:
    x, y = values
    return float(x), float(y)
