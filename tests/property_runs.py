"""How many random games a property test plays.

The suite plays enough to catch a broken rule in a few minutes on two cores; a long run raises every
count by a whole factor: ``PROPERTY_RUNS=20 python -m pytest -q tests/test_*_properties.py`` (the
README's benchmarks give the command and how long it takes).
"""

from __future__ import annotations

import os


def _factor() -> int:
    text = os.environ.get("PROPERTY_RUNS", "1")
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"PROPERTY_RUNS={text!r}: allowed is a whole number from 1")
    return int(text)


FACTOR = _factor()


def runs(in_the_suite: int) -> int:
    """The examples a property test runs: ``in_the_suite``, times PROPERTY_RUNS."""
    return in_the_suite * FACTOR
