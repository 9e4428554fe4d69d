"""``python -m firmware.games.yacht.ship_table``: compute the Yacht advisor's table and write the
file shipped with the game; prints the digest to put in :data:`advisor_table.SHIPPED_SHA256`."""

from __future__ import annotations

import argparse
import lzma
import time
from collections.abc import Sequence

from engine.yacht.advisor import solve, table_digest, table_to_bytes
from firmware.games.yacht.advisor_table import SHIPPED


def main(argv: Sequence[str] | None = None) -> None:
    argparse.ArgumentParser(  # no options: a parser so that --help explains rather than rewrites the file
        prog="python -m firmware.games.yacht.ship_table", allow_abbrev=False,
        description="Compute the Yacht advisor's table (about 13 s on 2 cores, longer on a Pi) and write the file shipped with the game; "
                    "prints the digest to put in advisor_table.SHIPPED_SHA256.",
    ).parse_args(argv)
    started = time.perf_counter()
    data = table_to_bytes(solve())
    SHIPPED.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    print(f"wrote {SHIPPED} in {time.perf_counter() - started:.1f} s; SHIPPED_SHA256 = {table_digest(data)!r}")


if __name__ == "__main__":
    main()
