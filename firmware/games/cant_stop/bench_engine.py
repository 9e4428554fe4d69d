"""Engine speed: random full games per second and legal-choice computations per second."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.cant_stop import State, choices
from engine.cant_stop.bots import OddsBot, SteadyBot
from firmware.bench.progress import progress
from firmware.games.cant_stop.selfplay import play, throw


@dataclass(frozen=True)
class EngineFigures:
    games: int
    games_per_second: float
    choice_computations: int
    choices_per_second: float

    def lines(self) -> list[str]:
        return [
            f"games: {self.games} in 2-player self-play",
            f"games-per-second {self.games_per_second:.1f}",
            f"legal-choice computations: {self.choice_computations}",
            f"choices-per-second {self.choices_per_second:.0f}",
        ]


def run_engine_bench(games: int, seed: int) -> EngineFigures:
    """Time ``games`` whole bot games, then legal-choice computation on the positions they reached."""
    rng = random.Random(seed)
    bots = (SteadyBot(), OddsBot())
    positions: list[State] = []
    started = time.perf_counter()
    for _ in progress(range(games), "games"):
        for step in play(bots, rng):
            positions.append(step.before)
    games_per_second = games / (time.perf_counter() - started)

    rolls = [throw(rng) for _ in positions]
    started = time.perf_counter()
    for state, roll in zip(positions, rolls):
        choices(state, roll)
    choices_per_second = len(positions) / (time.perf_counter() - started)
    return EngineFigures(games, games_per_second, len(positions), choices_per_second)
