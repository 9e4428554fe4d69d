"""Five dice thrown up to three times, keeping some between throws, tabulated once per process.

Shared by the advisors of the five-dice games (Get Your Counters to the Top, Yacht): 252 results
of five dice, 210 ways to set aside up to four of them, and the distribution of the next result
for each kept set. With them the worth of every result after each throw follows from the worth
after the last one by matrix products (:func:`best_keep_worth`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.dice import FACES, all_rolls
from engine.keeps import DICE

Dice = tuple[int, ...]


def multisets(size: int) -> list[Dice]:
    """Every sorted result of ``size`` dice, in lexicographic order."""
    return list(itertools.combinations_with_replacement(FACES, size))


@dataclass(frozen=True)
class DiceTables:
    """Every result of five dice, every kept set, and how one leads to the other.

    ``throw_probs[k, d]`` is the probability that keeping ``keeps[k]`` and throwing the others
    gives ``results[d]``; ``sub_keeps[d]`` lists the keeps possible from result ``d`` (padded by
    repeating). ``keep_children[s]`` lists, for each keep of ``s`` dice (``keeps`` are ordered by
    size, those of ``s`` dice from ``size_start[s]``), the keeps one die smaller (padded by
    repeating); ``keep_children[DICE]`` does the same for the results.
    """

    results: tuple[Dice, ...]
    result_index: dict[Dice, int]
    keeps: tuple[Dice, ...]
    keep_index: dict[Dice, int]
    throw_probs: np.ndarray
    sub_keeps: np.ndarray
    size_start: tuple[int, ...]
    keep_children: dict[int, np.ndarray]


def _one_die_less(dice: Dice, keep_index: dict[Dice, int]) -> list[int]:
    """The keeps left when one of ``dice`` is given up, padded to len(dice) by repeating."""
    found = sorted({keep_index[dice[:i] + dice[i + 1 :]] for i in range(len(dice))})
    return found + found[:1] * (len(dice) - len(found))


@cache
def dice_tables() -> DiceTables:
    """The tables, built once per process (about a tenth of a second)."""
    results = tuple(multisets(DICE))
    result_index = {d: i for i, d in enumerate(results)}
    keeps = tuple(k for size in range(DICE) for k in multisets(size))
    keep_index = {k: i for i, k in enumerate(keeps)}
    throw_probs = np.zeros((len(keeps), len(results)))
    for k, kept in enumerate(keeps):
        count = DICE - len(kept)
        for roll, weight in all_rolls(count):
            throw_probs[k, result_index[tuple(sorted(kept + roll.dice))]] += weight / 6**count
    subs = []
    for dice in results:
        found = sorted({keep_index[c] for size in range(DICE) for c in itertools.combinations(dice, size)})
        subs.append(found + found[:1] * (2**DICE - len(found)))
    size_start = tuple(keep_index[(1,) * size] for size in range(DICE))
    children = {size: np.array([_one_die_less(k, keep_index) for k in multisets(size)], dtype=np.intp)
                for size in range(1, DICE + 1)}
    return DiceTables(results, result_index, keeps, keep_index, throw_probs, np.array(subs, dtype=np.intp),
                      size_start, children)


def best_keep_worth(tables: DiceTables, keep_worth: np.ndarray) -> np.ndarray:
    """Per result, the worth of the best keep it allows: ``keep_worth[sub_keeps].max(axis=1)``.

    ``keep_worth`` has a row per keep (and any columns: one per position being valued). Computed
    through the lattice of keeps (the best keep within a set is itself or the best within one die
    less), a quarter of the work of the padded sub_keeps when many columns are valued at once.
    """
    best = keep_worth.copy()
    for size in range(1, DICE):
        start = tables.size_start[size]
        stop = start + len(tables.keep_children[size])
        best[start:stop] = np.maximum(best[start:stop], best[tables.keep_children[size]].max(axis=1))
    return best[tables.keep_children[DICE]].max(axis=1)
