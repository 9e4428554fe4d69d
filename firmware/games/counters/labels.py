"""The words the screens give the game's decisions: a label of at most :data:`LABEL_CHARS` for the
list of choices (its column beside the side hints holds no more), the same label wherever else a
decision is named (the dice screen, the end of a turn, a bot's turn, the web page)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.counters import COLUMN_NAMES, Handicap, Keep, Kind, Option, Phase, Rocket, Take
from engine.counters.moves import Pass

LABEL_CHARS = 10  # the list's column: ten characters, then the advisor's star
SHORT_KINDS = {
    Kind.PAIR: "pair", Kind.TRIPLE: "3K", Kind.FOUR: "4K", Kind.FIVE: "5K", Kind.TWO_PAIRS: "2P",
    Kind.FULL_HOUSE: "FH", Kind.SMALL: "sm", Kind.BIG: "big",
}


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def option_label(option: Option) -> str:
    """An option in ten characters: ``pair 4``, ``FH 2+4``, ``sm+4``, ``3K 3>1`` (wild)."""
    short = SHORT_KINDS[option.kind]
    words = option.text()
    return short + words[len(str(option.kind)):]


def move_label(move: object, phase: Phase | None = None) -> str:
    """A decision as the list of choices shows it (in ``phase``: a pass there leaves a rocket
    unused); kept dice are written without spaces (``keep 2445``) so that a keep of four fits."""
    if isinstance(move, Take):
        return option_label(move.option)
    if isinstance(move, Keep):
        return "keep " + ("".join(map(str, move.dice)) or "none")
    if isinstance(move, Rocket):
        return f"rocket {COLUMN_NAMES[move.column]}"
    if isinstance(move, Handicap):
        return "up " + " ".join(COLUMN_NAMES[c] for c in move.columns)
    assert isinstance(move, Pass)
    return "no rocket" if phase is Phase.ROCKET else "pass"
