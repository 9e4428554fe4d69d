"""The last-event mark under fire (issue 36): lives killed right after an acknowledgement, then the
write-ahead log deleted each time; and random bit flips in the mark. Prints figures; not a test.

    .venv/bin/python tests/mark_kills.py --kills 200 --flips 600 --seed 1

After each kill the journal is opened as the next start would: every event acknowledged so far
must be in it at its place or be announced as lost (``Journal.lost``); a flipped mark must never
raise nor hang.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path

import firmware.games  # noqa: F401  (lists the games in the core's catalogue, as the commands do)
from firmware.journal import last_event
from firmware.journal.journal import JOURNAL_NAME, Journal


def kill_after_acks(data: Path, seed: int, acks: int) -> list[tuple[int, int, str]]:
    """One life killed right after its ``acks``-th acknowledgement (or when it ends); what it acknowledged."""
    life = [sys.executable, "-m", "firmware.cli", "bench-durability-life", str(data), str(seed), "cant-stop", "2"]
    process = subprocess.Popen(life, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    acked = []
    for line in process.stdout:  # type: ignore[union-attr]
        if line.startswith("ack "):
            _, game, seq, event = line.rstrip("\n").split(" ", 3)
            acked.append((int(game), int(seq), event))
            if len(acked) >= acks:
                process.kill()
                break
    process.wait()
    return acked


def kills(count: int, seed: int, scratch: Path) -> None:
    rng = random.Random(seed)
    data = scratch / "kills"
    data.mkdir()
    announced = kept = unannounced = 0
    for life in range(count):
        acked = kill_after_acks(data, seed * 1000 + life, rng.randint(1, 6))
        for suffix in ("-wal", "-shm"):
            (data / f"{JOURNAL_NAME}{suffix}").unlink(missing_ok=True)
        journal = Journal(data / JOURNAL_NAME)
        try:
            lost = journal.lost
            for game, seq, event in acked:
                events = journal.events(game)
                if seq <= len(events) and events[seq - 1] == event:
                    kept += 1
                elif lost is not None and lost.game == game and lost.first <= seq <= lost.last:
                    announced += 1
                else:
                    unannounced += 1
        finally:
            journal.close()
    print(f"mark kills {count}: acknowledged events there {kept}, announced lost {announced}, lost unannounced {unannounced}")


def flips(count: int, seed: int, scratch: Path) -> None:
    rng = random.Random(seed)
    data = scratch / "flips"
    data.mkdir()
    kill_after_acks(data, seed, 5)
    mark = last_event.marker_path(data / JOURNAL_NAME)
    whole = mark.read_bytes()
    raised = 0
    for _ in range(count):
        damaged = bytearray(whole)
        damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        mark.write_bytes(bytes(damaged))
        try:
            Journal(data / JOURNAL_NAME).close()
        except Exception:
            raised += 1
            traceback.print_exc(limit=2)
    print(f"mark flips {count}: tracebacks {raised}")


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--flips", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        flips(args.flips, args.seed, Path(scratch))
        kills(args.kills, args.seed, Path(scratch))


if __name__ == "__main__":
    main()
