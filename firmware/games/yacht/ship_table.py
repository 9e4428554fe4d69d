"""``python -m firmware.games.yacht.ship_table``: compute the Yacht advisor's table and write the
file shipped with the game; prints the digest to put in :data:`advisor_table.SHIPPED_SHA256`."""

from __future__ import annotations

import lzma
import time

from engine.yacht.advisor import solve, table_digest, table_to_bytes
from firmware.games.yacht.advisor_table import SHIPPED


def main() -> None:
    started = time.perf_counter()
    data = table_to_bytes(solve())
    SHIPPED.write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    print(f"wrote {SHIPPED} in {time.perf_counter() - started:.1f} s; SHIPPED_SHA256 = {table_digest(data)!r}")


if __name__ == "__main__":
    main()
