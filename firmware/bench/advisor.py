"""``dice-companion bench-advisor --game KIND``: each game's advisor measured against its other bots
(the game's own benchmark, in its folder)."""

from __future__ import annotations

from collections.abc import Iterator

from firmware.core.catalogue import table_game


def bench_lines(games: int, seed: int, kind: str) -> Iterator[str]:
    """The report of ``kind``'s benchmark, line by line."""
    return table_game(kind).bench_advisor(games, seed)
