"""The words the screens give the game's decisions: a label of at most :data:`LABEL_CHARS` for the
list of choices (its column beside the side hints holds no more), the same label wherever else a
decision is named (the dice screen, the end of a turn, a bot's turn, the web page), and under the
list the highlighted one in plain words, where a newcomer meets the notation (``2P 2>1+4>2``)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.counters import COLUMN_NAMES, STRAIGHT, Handicap, Keep, Kind, Option, Phase, Rocket, State, Take
from engine.counters.moves import DICE, Pass
from firmware.drawing.screens import WIDTH
from firmware.drawing.tiny_font import ADVANCE_PX
from firmware.games.five_dice import dice_text

LABEL_CHARS = 10  # the list's column: ten characters, then the advisor's star
PLAIN_CHARS = (WIDTH + 1) // ADVANCE_PX  # a line of the small font: what the plain words may take
SHORT_KINDS = {
    Kind.PAIR: "pair", Kind.TRIPLE: "3K", Kind.FOUR: "4K", Kind.FIVE: "5K", Kind.TWO_PAIRS: "2P",
    Kind.FULL_HOUSE: "FH", Kind.SMALL: "sm", Kind.BIG: "big",
}
KIND_WORDS = {
    Kind.PAIR: "pair", Kind.TRIPLE: "three of a kind", Kind.FOUR: "four of a kind", Kind.FIVE: "five of a kind",
    Kind.TWO_PAIRS: "two pairs", Kind.FULL_HOUSE: "full house", Kind.SMALL: "small straight", Kind.BIG: "big straight",
}


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
        return ("cols " if len(move.columns) > 1 else "col ") + _columns(move.columns)
    assert isinstance(move, Pass)
    return "no rocket" if phase is Phase.ROCKET else "pass"


def _columns(columns: Sequence[int]) -> str:
    return " ".join(COLUMN_NAMES[c] for c in columns)


def wild_words(option: Option) -> str:
    """"wild: 3s to col 1. 2s to col 3" for ``FH 3>1+2>3``: the groups that a blue star's wild card
    sends to another column, said in words ("wild:" left out where it would not fit); "" for none."""
    sent = [
        f"{'straight' if g.home == STRAIGHT else COLUMN_NAMES[g.home] + 's'} to col {COLUMN_NAMES[g.column]}"
        for g in option.groups if g.wild
    ]
    words = ". ".join(sent)
    return f"wild: {words}" if sent and len(f"wild: {words}") <= PLAIN_CHARS else words


def _take_words(option: Option) -> str:
    """What each column of an option does ("two pairs: cols 2 4 up 1 each", "col 3 up 2. col 5 up 1"),
    the kind said first where it fits: a sum of the squares read as every column going up that far."""
    steps = {g.squares for g in option.groups}
    if len(option.groups) > 1 and len(steps) == 1:
        moved = f"cols {_columns(option.columns)} up {steps.pop()} each"
    else:
        moved = ". ".join(f"col {COLUMN_NAMES[g.column]} up {g.squares}" for g in option.groups)
    words = f"{KIND_WORDS[option.kind]}: {moved}"
    return words if len(words) <= PLAIN_CHARS else moved


def plain_words(move: object, state: State) -> str:
    """What a decision of the list does, in at most :data:`PLAIN_CHARS` of the small font (capitals,
    digits and ``: - .``): the line under the list says it of the highlighted one."""
    if isinstance(move, Take):
        return wild_words(move.option) or _take_words(move.option)
    if isinstance(move, Keep):
        thrown = DICE - len(move.dice)
        return f"keep {dice_text(move.dice)} - throw {thrown} again" if move.dice else f"throw all {thrown} again"
    if isinstance(move, Handicap):
        many = len(move.columns) > 1
        return f"column{'s' * many} {_columns(move.columns)} up 1 square{' each' * many}"
    if state.phase is Phase.ROCKET:  # two due are two lists alike but for this line
        due = "rocket" if state.rockets == 1 else f"{state.rockets} rockets due"
        if isinstance(move, Rocket):
            return f"{due}: column {COLUMN_NAMES[move.column]} up 1"
        return f"{due}: leave {'it' if state.rockets == 1 else 'one'} unused"
    return "no option: nothing moves"
