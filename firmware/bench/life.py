"""One life of the kill test, a process of its own: ``python -m firmware.bench.life DATA SEED KIND
PLAYERS`` (:func:`firmware.bench.durability.child_main`). Like the commands, it lists the games in
the core's catalogue before it plays, so it sits on the top floor with them."""

from __future__ import annotations

import sys
from pathlib import Path

import firmware.games  # noqa: F401  (lists the games in the core's catalogue)
from firmware.bench.durability import child_main

if __name__ == "__main__":
    sys.exit(child_main(Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
