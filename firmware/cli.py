"""The ``dice-companion`` command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.cant_stop import Variant
from engine.errors import EngineError
from vision.evaluation import DatasetError
from vision.params import VisionInputError


def _variant(args: argparse.Namespace) -> Variant:
    variant = Variant(args.columns, args.jumping, args.forced_move)
    variant.check(2)
    return variant


def _demo(args: argparse.Namespace) -> int:
    from firmware.engine_demo import run_engine_demo

    run_engine_demo(args.seed, _variant(args))
    return 0


def _bench_engine(args: argparse.Namespace) -> int:
    from firmware.bench_engine import run_engine_bench

    for line in run_engine_bench(args.games, args.seed).lines():
        print(line)
    return 0


def _read(args: argparse.Namespace) -> int:
    from firmware.vision_commands import read_command

    return read_command(args.image, args.out)


def _eval_vision(args: argparse.Namespace) -> int:
    from firmware.vision_commands import eval_command

    return eval_command(args.folder, args.failures)


def _bench_vision(args: argparse.Namespace) -> int:
    from firmware.vision_commands import bench_vision_command

    return bench_vision_command(args.trays, args.seed)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dice-companion", description="A Raspberry Pi referee for Can't Stop."
    )
    commands = parser.add_subparsers(dest="command", required=True)

    demo = commands.add_parser("demo", help="play a whole seeded 2-player game between two bots")
    demo.add_argument("--seed", type=int, default=1, help="seed for the dice (default 1)")
    demo.add_argument("--columns", type=int, default=3, help="columns to win: 3, 4 or 5")
    rule = demo.add_mutually_exclusive_group()
    rule.add_argument("--jumping", action="store_true", help="play the Jumping variant")
    rule.add_argument("--forced-move", action="store_true", help="play the Forced Move variant")
    demo.set_defaults(run=_demo)

    bench = commands.add_parser("bench-engine", help="measure games/s and legal-choice computations/s")
    bench.add_argument("--games", type=int, default=2000)
    bench.add_argument("--seed", type=int, default=1)
    bench.set_defaults(run=_bench_engine)

    read = commands.add_parser("read", help="read the dice in one image")
    read.add_argument("image", type=Path)
    read.add_argument("--out", type=Path, help="write the annotated picture here (PNG)")
    read.set_defaults(run=_read)

    evaluation = commands.add_parser(
        "eval-vision", help="measure the reader on DIR/manifest.csv and DIR/images/"
    )
    evaluation.add_argument("folder", type=Path, metavar="DIR")
    evaluation.add_argument("--failures", type=Path, metavar="OUTDIR", help="annotated pictures of wrong photos")
    evaluation.set_defaults(run=_eval_vision)

    bench_vision = commands.add_parser("bench-vision", help="reader accuracy and speed on synthetic trays")
    bench_vision.add_argument("--trays", type=int, default=1000)
    bench_vision.add_argument("--seed", type=int, default=1)
    bench_vision.set_defaults(run=_bench_vision)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args))
    except (EngineError, VisionInputError, DatasetError, OSError) as error:  # refusals, not bugs: no traceback
        print(f"dice-companion: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
