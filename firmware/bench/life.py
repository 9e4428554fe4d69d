"""One life of the kill test, a process of its own: ``python -m firmware.bench.life DATA SEED KIND
PLAYERS`` (:func:`firmware.bench.durability.child_main`). Like the commands, it lists the games in
the core's catalogue before it plays, so it sits on the top floor with them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import firmware.games  # noqa: F401  (lists the games in the core's catalogue)
from firmware.bench.durability import child_main
from firmware.core.catalogue import kinds


def build_parser() -> argparse.ArgumentParser:
    """The life's arguments, as ``bench-durability`` gives them (a person runs it only to look at one life)."""
    parser = argparse.ArgumentParser(
        prog="python -m firmware.bench.life", allow_abbrev=False,
        description="One life of the kill test (dice-companion bench-durability starts each as a process of its "
                    "own and kills it): resume the unfinished game journaled in DATA, or start one, and let bots "
                    "play it to the end, printing 'ack GAME SEQ EVENT' after each event is committed.",
    )
    parser.add_argument("data", type=Path, metavar="DATA", help="the data folder holding the journal")
    parser.add_argument("seed", type=int, metavar="SEED", help="seed for the simulated dice and the bots")
    parser.add_argument("kind", choices=kinds(), metavar="KIND", help=f"the game the bots play: {', '.join(kinds())}")
    parser.add_argument("players", type=int, nargs="?", default=2, metavar="PLAYERS",
                        help="players of a new game (default 2; a resumed game keeps its own)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one life with the arguments of ``argv`` (the command line's by default); its exit status."""
    args = build_parser().parse_args(argv)
    return child_main(args.data, args.seed, args.kind, args.players)


if __name__ == "__main__":
    sys.exit(main())
