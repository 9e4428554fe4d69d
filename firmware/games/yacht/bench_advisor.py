"""Yacht's ``bench-advisor``: the optimal advisor in solitaire games against the table's expectation,
the greedy bot beside it, and two-player duels of the two, each seat equally often.

Game ``i`` rolls from seed ``seed + i`` (:mod:`engine.yacht.bench`), so both bots meet the same dice
as long as they keep the same ones. The last line is a contract other tools read:
``yacht: optimal mean NNN.N sd NN.N games N; greedy mean NNN.N; optimal vs greedy NN.N%``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from engine.yacht.advisor import expected_score
from engine.yacht.bench import bench_line
from firmware.games.yacht.advisor_table import advisor_table


def bench_lines(games: int, seed: int) -> Iterator[str]:
    """The report, line by line; the last one is the contract line (see the module docstring)."""
    started = time.perf_counter()
    table = advisor_table()
    yield f"Yacht: the advisor's table ready in {time.perf_counter() - started:.2f} s, expectation {expected_score(table):.4f}"
    duels = games + games % 2  # each seat equally often
    yield f"{games} solitaire games of each bot, {duels} two-player duels (optimal vs greedy), dice seeds from {seed}"
    started = time.perf_counter()
    line = bench_line(table, games, duels, seed)
    yield f"played in {time.perf_counter() - started:.1f} s"
    yield line
