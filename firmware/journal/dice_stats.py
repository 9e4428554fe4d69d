"""Dice statistics from the journal: is a set of physical dice fair, and do busts come as often as the odds say?

Every roll still standing in a game (an undone roll was a misread or taken back, so it does not
count) is a sample of the dice on the table, read by the camera or entered by hand (journals
before version 4 did not say which: "unknown"). Pure functions over a journal opened read-only,
as ``history`` opens it; a game whose row or events make no sense is left out, never a crash.
The p-value is computed here (the chi-square distribution through the regularized incomplete
gamma function), so the Pi needs no scipy.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine.cant_stop import GAME as CANT_STOP
from engine.cant_stop import bust_probability, choices
from engine.dice import FACES, Roll
from engine.errors import EngineError
from firmware.journal.journal import Journal, standing_moves
from firmware.journal.rows import PLAYING, GameRecord

LOG = logging.getLogger("dice_companion")
UNKNOWN = "unknown"  # the source of a roll journaled before sources were kept
MIN_EXPECTED = 5  # dice expected per face before the chi-square test says anything (the usual rule of thumb)
BIASED_BELOW = 0.01  # p-values below this: the dice may be biased
HINT_BELOW = 0.05  # ... below this: a hint, to be watched
BAND_Z = 1.96  # the expected band of a face's count: 95 % of fair sets of dice fall inside
_EPSILON = 1e-15  # relative accuracy of the incomplete gamma function
_TINY = 1e-300  # keeps the continued fraction's divisions away from zero
_MAX_TERMS = 10_000

Group = tuple[str | None, str | None]  # (dice set, source) of a face count; None stands for all of them


@dataclass(frozen=True)
class RollRecord:
    """One standing roll of the table's dice: which game, which dice, read how, and the faces.
    For Can't Stop also the exact chance of a bust before it and whether it busted."""

    game: int
    seq: int  # the event's number in its game, from 1
    kind: str
    dice_set: str
    source: str  # "camera", "hand" or "unknown"
    dice: tuple[int, ...]
    bust_odds: Fraction | None = None
    busted: bool | None = None


@dataclass(frozen=True)
class ChiSquare:
    """Pearson's chi-square test of counts against equal chances: the statistic, its degrees of
    freedom, the chance of counts at least this uneven from fair dice, and how many dice were counted."""

    statistic: float
    dof: int
    p_value: float
    dice: int


@dataclass(frozen=True)
class Band:
    """A face's count expected of fair dice, and the range 95 % of fair sets fall in."""

    expected: float
    low: float
    high: float


@dataclass(frozen=True)
class BustBin:
    """Can't Stop's rolls whose exact bust odds lie in [low, high) (the last bin includes 1):
    how many, how many busted, and how many busts the odds expect."""

    low: float
    high: float
    rolls: int
    busts: int
    expected: float

    @property
    def odds(self) -> float | None:
        """The mean exact odds of the rolls in the bin (where to plot them), None if it is empty."""
        return self.expected / self.rolls if self.rolls else None

    @property
    def rate(self) -> float | None:
        """The share of them that busted, None if the bin is empty."""
        return self.busts / self.rolls if self.rolls else None


def rolls(journal: Journal) -> list[RollRecord]:
    """Every roll still standing in every sound game of ``journal`` (finished, abandoned or being
    played), in the order played. A game whose events do not replay is left out and logged."""
    return rolls_and_left_out(journal)[0]


GameRolls = dict[tuple[int, float], "list[RollRecord] | None"]
"""Rolls of ended games by (game, start time), None for one that does not replay: kept between
readings of a journal, since a finished or abandoned game never changes."""


def rolls_and_left_out(journal: Journal, ended: GameRolls | None = None) -> tuple[list[RollRecord], list[int]]:
    """:func:`rolls`, and the games left out (damaged, or not replaying), so a page can say so.
    With ``ended``, the rolls of ended games are taken from it (and kept in it): only the game
    being played is replayed again."""
    found: list[RollRecord] = []
    sound, damaged = journal.sound_and_damaged()
    left_out = [game.id for game in damaged if isinstance(game.id, int)]
    ended = {} if ended is None else ended
    for record in sound:
        key = (record.id, record.started)
        if key not in ended or record.status == PLAYING:
            ended.pop(key, None)
            try:
                rolled: list[RollRecord] | None = _game_rolls(record, journal.sourced_events(record.id))
            except EngineError as error:
                LOG.warning("dice statistics leave out game %d: its events do not replay (%s)", record.id, error)
                rolled = None
            if record.status != PLAYING:
                ended[key] = rolled
        else:
            rolled = ended[key]
        if rolled is None:
            left_out.append(record.id)
        else:
            found.extend(rolled)
    return found, left_out


def _game_rolls(record: GameRecord, events: Sequence[tuple[str, str | None]]) -> list[RollRecord]:
    """The standing rolls of one game, replayed through its engine (EngineError if it does not replay)."""
    engine = record.setup.game.engine
    state = record.setup.new_state()
    found: list[RollRecord] = []
    for at, move in standing_moves(record, [event for event, _ in events]):
        if isinstance(move, Roll):
            odds: Fraction | None = None
            busted: bool | None = None
            if engine is CANT_STOP:
                odds, busted = bust_probability(state), not choices(state, move)
            source = events[at][1] or UNKNOWN
            found.append(RollRecord(record.id, at + 1, record.setup.kind, record.setup.dice_set, source, move.dice, odds, busted))
        state = engine.apply(state, move)
    return found


def groups_of(roll: RollRecord) -> tuple[Group, ...]:
    """The groups a roll is counted in: all dice, its source, its dice set, its set and source."""
    return (None, None), (None, roll.source), (roll.dice_set, None), (roll.dice_set, roll.source)


def face_counts(rolls: Sequence[RollRecord]) -> dict[Group, tuple[int, ...]]:
    """The count of each face (1 to 6) overall, per source, per dice set, and per dice set and
    source: keyed by (dice set, source), None standing for all. Overall, ``(None, None)``, comes
    first and is there even without a roll; the other groups only where a roll is."""
    by_set_and_source: dict[Group, list[int]] = {}
    for roll in rolls:  # each roll counted once, then summed into its groups (a page asks after every move)
        counts = by_set_and_source.setdefault((roll.dice_set, roll.source), [0] * len(FACES))
        for value in roll.dice:
            counts[value - 1] += 1
    groups: dict[Group, list[int]] = {(None, None): [0] * len(FACES)}
    for (dice_set, source), counts in by_set_and_source.items():
        for group in ((None, None), (None, source), (dice_set, None), (dice_set, source)):
            summed = groups.setdefault(group, [0] * len(FACES))
            for face, count in enumerate(counts):
                summed[face] += count
    order = sorted(groups, key=lambda g: (g[0] is not None, g[0] or "", g[1] is not None, g[1] or ""))
    return {group: tuple(groups[group]) for group in order}


def chi_square(counts: Sequence[int]) -> ChiSquare:
    """Pearson's test of ``counts`` (one per face) against every face equally likely. With no dice
    at all there is nothing uneven: statistic 0, p-value 1."""
    if len(counts) < 2 or any(not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"counts {tuple(counts)!r}: allowed is a count (0 or more) for each of 2 or more faces")
    dice, dof = sum(counts), len(counts) - 1
    if not dice:
        return ChiSquare(0.0, dof, 1.0, 0)
    expected = dice / len(counts)
    statistic = sum((count - expected) ** 2 for count in counts) / expected
    return ChiSquare(statistic, dof, chi_square_p(statistic, dof), dice)


def chi_square_p(statistic: float, dof: int) -> float:
    """The chance that a chi-square variable of ``dof`` degrees of freedom is at least ``statistic``."""
    if dof < 1:
        raise ValueError(f"dof {dof!r}: allowed is 1 or more degrees of freedom")
    return _upper_gamma(dof / 2, statistic / 2)


def _upper_gamma(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x): its series below x = a + 1, where
    that converges fast, and its continued fraction (modified Lentz) above (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    scale = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        n = a
        for _ in range(_MAX_TERMS):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * _EPSILON:
                break
        return max(0.0, 1 - total * scale)
    b = x + 1 - a
    c, d = 1 / _TINY, 1 / b
    fraction = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > _TINY else _TINY)
        c = b + an / c
        c = c if abs(c) > _TINY else _TINY
        fraction *= d * c
        if abs(d * c - 1) < _EPSILON:
            break
    return fraction * scale


def dice_needed(faces: int = len(FACES)) -> int:
    """How many dice the chi-square test needs before it can tell anything: MIN_EXPECTED a face."""
    return MIN_EXPECTED * faces


def tells(result: ChiSquare) -> bool:
    """Whether the test counted dice enough to say anything: below that its p-value means nothing,
    so it is not shown."""
    return result.dice >= dice_needed(result.dof + 1)


def fairness_sentence(result: ChiSquare) -> str:
    """What the test says, in one plain sentence for the statistics page."""
    if not tells(result):
        needed = dice_needed(result.dof + 1)
        return f"Too few dice ({result.dice:,}) to tell: at least {needed:,} are needed ({MIN_EXPECTED} expected per face)."
    if result.p_value < BIASED_BELOW:
        meaning = "these dice may be biased (or the reader misreads one face)"
    elif result.p_value < HINT_BELOW:
        meaning = "a hint of bias, worth watching as more dice are read"
    else:
        meaning = "no sign of a biased die"
    return (
        f"With {result.dice:,} dice read, faces this uneven would turn up by chance in "
        f"{_percent(result.p_value)} of fair sets: {meaning}."
    )


def _percent(p: float) -> str:
    """A chance as the sentence says it: "31 %", "4.2 %", "0.2 %", "less than 0.1 %", "more than 99 %"."""
    percent = 100 * p
    if percent > 99:
        return "more than 99 %"
    if percent >= 10:
        return f"{percent:.0f} %"
    return f"{percent:.1f} %" if percent >= 0.1 else "less than 0.1 %"


def face_band(dice: int, faces: int = len(FACES)) -> Band:
    """The count of one face expected among ``dice`` fair dice, and the 95 % band around it
    (the normal approximation of the binomial; the low end not below 0)."""
    if dice < 0 or faces < 2:
        raise ValueError(f"dice {dice!r} and faces {faces!r}: allowed is 0 or more dice of 2 or more faces")
    chance = 1 / faces
    expected = dice * chance
    spread = BAND_Z * math.sqrt(dice * chance * (1 - chance))
    return Band(expected, max(0.0, expected - spread), expected + spread)


def bust_calibration(rolls: Sequence[RollRecord], bins: int = 10) -> list[BustBin]:
    """Can't Stop's rolls grouped by their exact odds of a bust into ``bins`` equal ranges from 0
    to 1 (each bin listed, empty or not): the busts met against the busts the odds expect."""
    if bins < 1:
        raise ValueError(f"bins {bins!r}: allowed is 1 or more")
    number, busts, expected = [0] * bins, [0] * bins, [0.0] * bins
    for roll in rolls:
        odds = roll.bust_odds
        if odds is None:
            continue
        index = min(odds.numerator * bins // odds.denominator, bins - 1)  # exact: odds of 1/10 fall in 10-20 %
        number[index] += 1
        busts[index] += bool(roll.busted)
        expected[index] += odds.numerator / odds.denominator
    return [BustBin(i / bins, (i + 1) / bins, number[i], busts[i], expected[i]) for i in range(bins)]
