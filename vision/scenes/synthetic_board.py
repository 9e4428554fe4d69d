"""A synthetic stepped dice board seen from above, with coloured dice on its levels.

It feeds the board reader's tests: the launch pad, the 0x level and the 1x..4x levels are
drawn as bands of a trapezoid, each of its own shade with a shadowed step between them, and
dice of the players' colours lie on them (some on the table beside the board, and optionally
one across a step). The dice are drawn by :mod:`vision.scenes.synthetic`, so they look like the dice
the reader is tested on; the level map of the render and the truth of every die come back.
Placing a die (:func:`place_die`) and drawing given dice (:func:`draw_scene`) are apart, so the
simulated board camera (:mod:`hardware.board_camera`) lays dice toss by toss under a fixed light.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.board.board_levels import LEVELS, LevelMap
from vision.scenes.synthetic import SUPERSAMPLE, PlacedDie, TrayLook, draw_die, light_field, off_dice, shadows

BGR = tuple[int, int, int]
Where = Literal["level", "border", "off"]  # where a die lands: inside a level, across a step, beside the board
WHERES: tuple[Where, ...] = ("level", "border", "off")
_WHERE_NAMES = {"level": "inside a level", "border": "across a step", "off": "beside the board"}

# (die body, pips) in BGR by colour: the dice of the box, as in vision.scenes.synthetic.DIE_LOOKS.
BOX_DICE: dict[str, tuple[BGR, BGR]] = {
    "red": ((40, 40, 200), (245, 245, 245)),
    "green": ((60, 150, 40), (240, 240, 240)),
    "blue": ((170, 80, 30), (245, 245, 245)),
    "black": ((35, 35, 35), (240, 240, 240)),
}
TABLE = (120, 135, 150)  # BGR: the table around the board
LAUNCH_PAD = (200, 215, 225)
LEVEL_SHADES: tuple[BGR, ...] = ((190, 200, 205), (165, 185, 200), (140, 165, 185), (120, 145, 170), (100, 125, 150))
STEP_SHADOW = 0.55  # brightness of the shadow line along each step
WARM: tuple[float, float, float] = (0.8, 0.95, 1.15)  # B, G, R gains of a warm white balance
COOL: tuple[float, float, float] = (1.15, 1.0, 0.82)


@dataclass(frozen=True)
class TrueDie:
    """What was drawn: colour, face, level (None when off the board or across a step) and where."""

    colour: str
    face: int
    level: int | None
    on_board: bool
    placed: PlacedDie


def board_levels(size: tuple[int, int]) -> LevelMap:
    """The level map of the drawn board: the launch pad above five bands, of a trapezoid wider at the bottom."""
    return LevelMap(tuple(_band(level, size) for level in range(LEVELS)), size)


def _board_x(y: float, size: tuple[int, int]) -> tuple[float, float]:
    """The board's left and right edge at height ``y`` px."""
    width, height = size
    half = width * (0.24 + 0.08 * y / height)
    return width / 2 - half, width / 2 + half


def _band_y(level: int, size: tuple[int, int]) -> tuple[float, float]:
    top, bottom = 0.16 * size[1], 0.98 * size[1]
    step = (bottom - top) / LEVELS
    return top + level * step, top + (level + 1) * step


def _band(level: int, size: tuple[int, int]) -> tuple[tuple[float, float], ...]:
    y0, y1 = _band_y(level, size)
    (a, b), (c, d) = _board_x(y0, size), _board_x(y1, size)
    return (a, y0), (b, y0), (d, y1), (c, y1)


def render_board(
    dice: Sequence[tuple[str, int]],
    rng: np.random.Generator,
    size: tuple[int, int] = (800, 600),
    *,
    off_board: int = 0,
    on_border: int = 0,
    side_range: tuple[float, float] = (40.0, 50.0),
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0),
    looks: Mapping[str, tuple[BGR, BGR]] = BOX_DICE,
) -> tuple[np.ndarray, LevelMap, tuple[TrueDie, ...]]:
    """A BGR picture of the board with ``dice`` (colour, face) on random levels, the last
    ``off_board`` of them on the table beside it and the ``on_border`` before those across a step;
    ``white_balance`` multiplies the B, G, R channels (a camera's colour cast)."""
    side = float(rng.uniform(*side_range))
    wheres: list[Where] = ["level"] * (len(dice) - off_board - on_border) + ["border"] * on_border + ["off"] * off_board
    truth: list[TrueDie] = []
    for (colour, face), where in zip(dice, wheres):
        truth.append(place_die(colour, face, where, side, size, truth, rng))
    image = draw_scene(truth, rng, size, white_balance=white_balance, looks=looks)
    return image, board_levels(size), tuple(truth)


def draw_scene(
    truth: Sequence[TrueDie],
    rng: np.random.Generator,
    size: tuple[int, int] = (800, 600),
    *,
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0),
    looks: Mapping[str, tuple[BGR, BGR]] = BOX_DICE,
) -> np.ndarray:
    """A BGR picture of the board with the dice of ``truth`` where they were placed, under light,
    blur and noise drawn from ``rng`` (the same seed, the same light: a camera fixed over the board)."""
    canvas = np.empty((size[1] * SUPERSAMPLE, size[0] * SUPERSAMPLE, 3), np.uint8)
    _draw_board(canvas, board_levels(size))
    for die in truth:
        body, pips = looks[die.colour]
        draw_die(canvas, die.placed, TrayLook(TABLE, body, pips, 0.0, 0.0, 0.0, 0.0))
    placed = [d.placed for d in truth]
    image = cv2.resize(canvas, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    image += (rng.normal(0, 4, image.shape[:2]).astype(np.float32) * off_dice(placed, size))[..., None]
    light = light_field(size, float(rng.uniform(0.0, 0.25)), rng) * shadows(placed, size, float(rng.uniform(0.2, 0.4)))
    image *= light[..., None] * np.array(white_balance, np.float32)
    image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.3, 0.9)))
    image += rng.normal(0, float(rng.uniform(0.0, 4.0)), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def _draw_board(canvas: np.ndarray, levels: LevelMap) -> None:
    """The table, the launch pad and the levels, each step's line shadowed."""
    canvas[:] = TABLE
    size = levels.frame_size
    y0, _ = _band_y(0, size)
    pad = ((size[0] / 2 - 0.12 * size[0], 0.04 * size[1]), (size[0] / 2 + 0.12 * size[0], 0.04 * size[1]),
           (size[0] / 2 + 0.12 * size[0], y0), (size[0] / 2 - 0.12 * size[0], y0))
    _fill(canvas, pad, LAUNCH_PAD)
    for outline, shade in zip(levels.outlines, LEVEL_SHADES):
        _fill(canvas, outline, shade)
        top = np.array(outline[:2]) * SUPERSAMPLE
        edge = tuple(int(c * STEP_SHADOW) for c in shade)
        cv2.line(canvas, tuple(np.round(top[0]).astype(int)), tuple(np.round(top[1]).astype(int)), edge,
                 2 * SUPERSAMPLE, cv2.LINE_AA)
    rim = np.round(np.array([p for o in (levels.outlines[0][:2], levels.outlines[-1][2:]) for p in o])
                   * SUPERSAMPLE).astype(np.int32)
    cv2.polylines(canvas, [rim], True, (60, 70, 80), 2 * SUPERSAMPLE, cv2.LINE_AA)


def _fill(canvas: np.ndarray, outline: Sequence[tuple[float, float]], colour: BGR) -> None:
    points = np.round(np.array(outline) * SUPERSAMPLE * 16).astype(np.int32)
    cv2.fillPoly(canvas, [points], colour, cv2.LINE_AA, shift=4)


def place_die(
    colour: str, face: int, where: Where, side: float, size: tuple[int, int], lying: Sequence[TrueDie],
    rng: np.random.Generator,
) -> TrueDie:
    """A die of ``side`` px clear of the dice ``lying``: well inside a random level ("level"), across
    a random step ("border") or on the table beside the board ("off"); ValueError when no room is found."""
    if where not in WHERES:
        raise ValueError(f"a die lands on one of {', '.join(WHERES)}, got {where!r}")
    reach = side * math.sqrt(2) / 2 + 3
    for _ in range(500):
        angle = float(rng.uniform(0, 90))
        if where == "level":
            level = int(rng.integers(LEVELS))
            top, bottom = _band_y(level, size)
            y = float(rng.uniform(top + reach, bottom - reach))
        elif where == "border":
            level = None
            y = _band_y(int(rng.integers(1, LEVELS)), size)[0] + float(rng.uniform(-0.04, 0.04)) * side
        else:
            level = None
            y = float(rng.uniform(reach, size[1] - reach))
        left, right = _board_x(y, size)
        if where == "off":
            x = float(rng.uniform(reach, left - reach)) if rng.random() < 0.5 else float(rng.uniform(right + reach, size[0] - reach))
        else:
            x = float(rng.uniform(left + reach, right - reach))
        if all(math.dist((x, y), d.placed.centre) > reach + d.placed.side * math.sqrt(2) / 2 + 3 for d in lying):
            return TrueDie(colour, face, level, where != "off", PlacedDie(face, (x, y), side, angle))
    raise ValueError(f"no room for another die {_WHERE_NAMES[where]} ({len(lying)} lying)")
