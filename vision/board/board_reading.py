"""Dice on a stepped board: face, colour and level of each, ``read_board(image, levels) -> BoardReading``.

The dice reader finds the dice and reads their faces; each die's body colour is named from the
players' palette (:mod:`vision.board.die_colour`) and its level found from the board's level map
(:mod:`vision.board.board_levels`). Whatever is unsure stays unsure, with its reason, so the table can
show it and let the players correct it before the board is scored.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.board.board_levels import DEFAULT_LEVEL_PARAMS, LevelMap, LevelParams, Placement
from vision.board.die_colour import DEFAULT_COLOUR_PARAMS, DEFAULT_PALETTE, ColourParams, Palette, die_colour, frame_white
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import as_bgr, read_dice
from vision.read.reading import DiceReading, Die


@dataclass(frozen=True)
class BoardDie:
    """One die found on (or beside) the board: the reader's die, its colour and its level, each
    None when unsure, with the reason."""

    die: Die
    colour: str | None
    colour_reason: str
    level: int | None
    level_reason: str

    @property
    def face(self) -> int | None:
        return self.die.value

    @property
    def is_sure(self) -> bool:
        """Whether face, colour and level were all read."""
        return None not in (self.face, self.colour, self.level)

    def problems(self) -> tuple[str, ...]:
        """Why this die is unsure: one reason per unread face, colour or level."""
        reasons = (
            ("face", self.face, self.die.reason),
            ("colour", self.colour, self.colour_reason),
            ("level", self.level, self.level_reason),
        )
        return tuple(f"{what}: {reason or 'unread'}" for what, value, reason in reasons if value is None)


@dataclass(frozen=True)
class BoardReading:
    """The dice on the board (in reading order) and those beside it, which do not count."""

    dice: tuple[BoardDie, ...] = ()
    off_board: tuple[BoardDie, ...] = ()

    @property
    def unsure(self) -> tuple[BoardDie, ...]:
        """Dice on the board with a face, colour or level not read: the players must say."""
        return tuple(d for d in self.dice if not d.is_sure)

    def counted(self) -> tuple[tuple[str, int, int], ...] | None:
        """The dice that count as (colour, face, level), or None while any die on the board is unsure."""
        if self.unsure:
            return None
        return tuple(
            (d.colour, d.face, d.level) for d in self.dice
            if d.colour is not None and d.face is not None and d.level is not None  # all are: narrows the types
        )


def read_board(
    image: np.ndarray,
    levels: LevelMap,
    palette: Palette = DEFAULT_PALETTE,
    *,
    reader_params: ReaderParams = DEFAULT_PARAMS,
    colour_params: ColourParams = DEFAULT_COLOUR_PARAMS,
    level_params: LevelParams = DEFAULT_LEVEL_PARAMS,
) -> BoardReading:
    """Every die in ``image`` (BGR) with face, colour and level; ``levels`` is rescaled to the
    image (LevelMapError for a picture of another shape)."""
    bgr = as_bgr(image)
    return board_of(bgr, read_dice(bgr, reader_params), levels, palette, colour_params=colour_params, level_params=level_params)


def board_of(
    image: np.ndarray,
    reading: DiceReading,
    levels: LevelMap | None,
    palette: Palette = DEFAULT_PALETTE,
    *,
    colour_params: ColourParams = DEFAULT_COLOUR_PARAMS,
    level_params: LevelParams = DEFAULT_LEVEL_PARAMS,
    no_levels: str = "the board's levels are not outlined",
) -> BoardReading:
    """The dice of ``reading`` (the dice reader's, of ``image``) with colour and level: the table
    confirms a reading over several frames first and then places its dice. Without ``levels``
    every die counts as on the board with its level unsure (``no_levels`` says why)."""
    bgr = as_bgr(image)
    if levels is not None:
        levels = levels.scaled_to((bgr.shape[1], bgr.shape[0]), level_params)
    white = frame_white(bgr, reading.dice, colour_params)
    on: list[BoardDie] = []
    off: list[BoardDie] = []
    for die in reading.dice:
        colour = die_colour(bgr, die, white, palette, colour_params)
        place = levels.place(die.centre, die.size, level_params) if levels is not None else Placement(None, True, no_levels)
        entry = BoardDie(die, colour.name, colour.reason, place.level, place.reason)
        (on if place.on_board else off).append(entry)
    return BoardReading(tuple(on), tuple(off))
