"""Random bit flips in the table's dice files, met by a start and by the page (issue 43).

    .venv/bin/python tests/bench_dice_flips.py --flips 1000 --seed 1

For each of ``dice-examples.npz`` and ``dice-layer.npz`` of a table that confirmed 24 throws:
``--flips`` copies of the data folder, each with one bit flipped (half in the zip's and the
arrays' headers, where an SD card's damage to a small file mostly falls, half anywhere); a
companion's dice start on it (``TableDice``) and the page answers ``/stats.json``. Nothing may
raise, hang (60 s a flip) or answer 500: a damaged file is kept aside with a notice.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

if __name__ == "__main__":  # run as a script: the project and these helpers on the path
    sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parents[1])]

import numpy as np
from test_table_dice import play_throws
from test_table_dice_flips import flipped, header_bytes

import firmware.games  # noqa: F401  (lists the games in the core's catalogue, as the commands do)
from firmware.calibration.table_dice import EXAMPLES_NAME, LAYER_NAME, TableDice
from firmware.core.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.web._app import create_app

HANG_S = 60


class Hang(Exception):
    """A flip took longer than HANG_S."""


def _hang(*_args: object) -> None:
    raise Hang


def table_folder(folder: Path) -> None:
    """A data folder whose table confirmed 24 throws (its examples and its tuned layer), with a journal."""
    dice = TableDice(folder, "odd set", background=False)
    play_throws(dice, 24)
    dice.refit()
    journal = Journal(folder / JOURNAL_NAME)
    journal.start_game(GameSetup(("Ann", "Bob"), dice_set="odd set"))
    journal.close()


def flips_of(name: str, whole: Path, scratch: Path, flips: int, rng: np.random.Generator) -> str:
    data = (whole / name).read_bytes()
    header = header_bytes(data)
    tracebacks = hangs = errors = kept_aside = 0
    started = time.perf_counter()
    for flip in range(flips):
        folder = scratch / f"{name}-{flip}"
        shutil.copytree(whole, folder)
        byte = int(rng.choice(header)) if flip % 2 else int(rng.integers(len(data)))
        (folder / name).write_bytes(flipped(data, byte * 8 + int(rng.integers(8))))
        signal.alarm(HANG_S)
        try:
            kept_aside += bool(TableDice(folder, "odd set", background=False).notices)
            errors += create_app(folder / JOURNAL_NAME).test_client().get("/stats.json").status_code >= 500
        except Hang:
            hangs += 1
        except Exception:  # noqa: BLE001 - counted and shown: a damaged file must never raise
            tracebacks += 1
            traceback.print_exc()
        finally:
            signal.alarm(0)
        shutil.rmtree(folder)
    took = time.perf_counter() - started
    return (f"{name}: {flips} flips ({flips // 2} in the headers): {kept_aside} kept aside with a notice; "
            f"{tracebacks} tracebacks, {hangs} hangs, {errors} page 500s (target 0 each); {took:.0f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], allow_abbrev=False)
    parser.add_argument("--flips", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _hang)
    logging.disable(logging.CRITICAL)  # each kept-aside file is said in the log: the counts are what is read here
    rng = np.random.default_rng(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        whole, scratch = Path(folder) / "whole", Path(folder) / "scratch"
        whole.mkdir()
        scratch.mkdir()
        table_folder(whole)
        for name in (EXAMPLES_NAME, LAYER_NAME):
            print(flips_of(name, whole, scratch, args.flips, rng), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
