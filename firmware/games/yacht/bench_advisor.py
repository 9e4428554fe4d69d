"""Yacht's ``bench-advisor``: the optimal advisor in solitaire games against the table's expectation,
the greedy bot beside it, and two-player duels of the two, each seat equally often.

Game ``i`` rolls from seed ``seed + i`` (:mod:`engine.yacht.bench`), so both bots meet the same dice
as long as they keep the same ones. The last line is a contract other tools read:
``yacht: optimal mean NNN.N sd NN.N games N; greedy mean NNN.N; optimal vs greedy NN.N%``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import numpy as np

from engine.yacht import Phase, apply, new_game
from engine.yacht.advisor import best, choices, expected_score, score_tables
from engine.yacht.bench import bench_line
from engine.yacht.bots import throw
from firmware.games.yacht.advisor_table import advisor_table

TIMED_GAMES = 20  # solitaire games whose every decision is timed (about 500 decisions)


def bench_lines(games: int, seed: int) -> Iterator[str]:
    """The report, line by line; the last one is the contract line (see the module docstring)."""
    started = time.perf_counter()
    table = advisor_table()
    yield f"Yacht: the advisor's table ready in {time.perf_counter() - started:.2f} s, expectation {expected_score(table):.4f}"
    duels = games + games % 2  # each seat equally often
    times = decision_seconds(table, TIMED_GAMES, seed)
    yield (f"a decision: median {1000 * times[len(times) // 2]:.2f} ms, slowest {1000 * times[-1]:.2f} ms "
           f"({len(times)} decisions of {TIMED_GAMES} games, one thread, each planned afresh)")
    yield (f"{games} solitaire games of each bot, {duels} two-player duels (optimal vs greedy, a shared win "
           f"counting half), dice seeds from {seed}")
    started = time.perf_counter()
    line = bench_line(table, games, duels, seed)
    yield f"played in {time.perf_counter() - started:.1f} s"
    yield line


def decision_seconds(table: np.ndarray, games: int, seed: int) -> list[float]:
    """How long each of the advisor's decisions takes in ``games`` solitaire games, sorted; each is
    planned afresh (the slow case: at the table a turn's later decisions reuse its plan)."""
    score_tables()  # built once per process, as the advisor at the table builds them when it is made
    rng = random.Random(seed)
    times = []
    for _ in range(games):
        state = new_game(1)
        while state.phase is not Phase.OVER:
            if state.phase is Phase.ROLL:
                state = apply(state, throw(rng, 5 - len(state.kept)))
                continue
            started = time.perf_counter()
            move = best(choices(table, state)).move
            times.append(time.perf_counter() - started)
            state = apply(state, move)
    return sorted(times)
