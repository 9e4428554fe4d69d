"""Seeded games of the bots, for the benchmark line: how well the optimal advisor plays.

Solitaire games measure the advisor against the table's expectation (254.5877 under this
project's rules); two-player duels against the greedy bot, each seat equally often, measure it
where it matters at the table. Pure: the caller prints the line and times it.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine.yacht.bots import Bot, GreedyBot, OptimalBot, play
from engine.yacht.state import total, winners


@dataclass(frozen=True)
class Figures:
    """Final scores of solitaire games: how many, their mean and standard deviation."""

    games: int
    mean: float
    sd: float


def solitaire_scores(bot: Bot, games: int, seed: int) -> list[int]:
    """The final scores of ``games`` solitaire games of ``bot``; game ``i`` rolls from seed ``seed + i``,
    so every bot meets the same dice as long as it keeps the same dice."""
    return [total(play([bot], random.Random(seed + i)), 0) for i in range(games)]


def figures(scores: Sequence[int]) -> Figures:
    """Mean and standard deviation of final scores (sd 0 for a single game)."""
    sd = statistics.stdev(scores) if len(scores) > 1 else 0.0
    return Figures(len(scores), statistics.fmean(scores), sd)


def duel_share(first: Bot, second: Bot, games: int, seed: int) -> float:
    """The share of ``games`` two-player games ``first`` wins against ``second`` (a shared win
    counts half); ``first`` sits in seat 1 in the even games, seat 2 in the odd ones."""
    points = 0.0
    for i in range(games):
        seats = [first, second] if i % 2 == 0 else [second, first]
        won = winners(play(seats, random.Random(seed + i)))
        points += sum(seats[p] is first for p in won) / len(won)
    return points / games


def bench_line(table: np.ndarray, games: int, duels: int, seed: int = 0) -> str:
    """``yacht: optimal mean NNN.N sd NN.N games N; greedy mean NNN.N; optimal vs greedy NN.N%``."""
    optimal, greedy = OptimalBot(table), GreedyBot()
    best = figures(solitaire_scores(optimal, games, seed))
    plain = figures(solitaire_scores(greedy, games, seed))
    share = duel_share(optimal, greedy, duels, seed)
    return (
        f"yacht: optimal mean {best.mean:.1f} sd {best.sd:.1f} games {best.games}; "
        f"greedy mean {plain.mean:.1f}; optimal vs greedy {100 * share:.1f}%"
    )
