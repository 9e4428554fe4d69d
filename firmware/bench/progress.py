"""Progress bars for the commands that run for minutes (benchmarks, evaluations).

A bar goes to stderr and only when stderr is a terminal (tqdm's ``disable=None``): stdout carries
the figures other tools read, and tests, CI and pipes see no bar at all.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T] | None, what: str, total: int | None = None) -> tqdm:
    """A bar over ``items`` (or, with None, one moved by ``update``), named ``what``; gone when done."""
    return tqdm(items, desc=what, total=total, file=sys.stderr, disable=None, leave=False)
