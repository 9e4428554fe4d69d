"""The optimal advisor's table: shipped with the game, its digest checked at load.

Computing it (:func:`engine.yacht.advisor.solve`) takes 17 s on a free core of the development
machine, two minutes on a busy one and longer on a Pi: no player should wait for it, so the table
is shipped beside this module (``advisor-table.bin.xz``: the table's bytes, LZMA-compressed, 2 MB)
and its SHA-256 is written below; ``python -m firmware.games.yacht.ship_table`` computes it
again and rewrites the file (and prints the digest to put here). A shipped file that is missing or
whose digest does not check out is never trusted: the table is computed once into the per-user
cache (``$XDG_CACHE_HOME/dice-companion``, else ``~/.cache/dice-companion``), a file there whose
digest or contents do not check out, or that disagrees with the code's own reckoning at a few dozen
positions, or is no regular file of a table's size, is recomputed and rewritten, and the log says
so each time.
Where no file can be written the table is computed and kept in memory for the process.
"""

from __future__ import annotations

import functools
import logging
import lzma
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.errors import StateFormatError
from firmware.core.regular_file import NotRegularFile, read_regular
from engine.yacht.advisor import (
    FULL,
    TABLE_SHAPE,
    UPPER_BITS,
    YACHT_BIT,
    plan,
    reachable_uppers,
    solve,
    table_digest,
    table_from_bytes,
    table_to_bytes,
)

LOG = logging.getLogger("dice_companion")
TABLE_NAME = "yacht-advisor-table.bin"
SHIPPED = Path(__file__).with_name("advisor-table.bin.xz")
SHIPPED_SHA256 = "a77a4123306495f8329cf69458583cb149687a5c8156a3f5bfd1b9d1871ddc48"  # of the table's bytes (table_to_bytes), uncompressed
DIGEST_WORD = b"sha256 "
SPOT_CHECKS = 36  # positions a cached table is checked at, against the code's own reckoning (about 10 ms)


def cache_folder() -> Path:
    """The per-user cache folder of the companion (XDG's rule)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dice-companion"


def stored(table: np.ndarray) -> bytes:
    """The file's contents: the digest line, then the table's bytes."""
    data = table_to_bytes(table)
    return DIGEST_WORD + table_digest(data).encode() + b"\n" + data


def read_table(path: Path, rng: np.random.Generator | None = None) -> np.ndarray:
    """The table kept at ``path``; StateFormatError says why a file is not to be trusted.

    Only a regular file of exactly a table's size is read, without following a link or waiting on
    a pipe (a link to /dev/zero or an 8 GB file would fill the memory, a pipe hold the start). Its
    digest line only says the bytes arrived whole, so the table must also agree with what the code
    computes at SPOT_CHECKS positions drawn afresh (``rng``): a table of anything else, its digest
    written beside it, would have the hints and bots play from garbage."""
    size = len(stored_size_probe())
    try:
        content = read_regular(path, size)
    except NotRegularFile as error:
        raise StateFormatError(f"{error}, not the table") from None
    if len(content) != size:
        raise StateFormatError(f"it is {len(content)} bytes, not a table's {size}")
    first, _, data = content.partition(b"\n")
    if not first.startswith(DIGEST_WORD) or first[len(DIGEST_WORD):].decode(errors="replace") != table_digest(data):
        raise StateFormatError("its digest does not match its contents")
    table = table_from_bytes(data)
    wrong = disagreements(table, rng or np.random.default_rng())
    if wrong:
        raise StateFormatError(f"it disagrees with the advisor's own reckoning at {wrong} of {SPOT_CHECKS} positions")
    return table


@functools.cache
def stored_size_probe() -> bytes:
    """A stored file of the right size (its contents do not matter): what a cached table must measure."""
    return stored(np.zeros(TABLE_SHAPE))


def disagreements(table: np.ndarray, rng: np.random.Generator) -> int:
    """Of SPOT_CHECKS reachable positions, the start (the empty card: every game's first decision,
    drawn once in 8,191) and others drawn with ``rng``, how many hold another value than the turn the
    code plans from the table's own later positions is worth (a true table holds it at all)."""
    reachable = reachable_uppers()
    wrong = 0
    for filled in (0, *rng.integers(1, FULL, SPOT_CHECKS - 1)):
        upper = int(rng.choice(np.flatnonzero(reachable[int(filled) & UPPER_BITS])))
        yacht = int(rng.integers(2)) if filled & YACHT_BIT else 0
        worth = plan(table, int(filled), np.array([upper]), np.array([yacht])).start[0]
        wrong += not np.isclose(worth, table[filled, upper, yacht], rtol=1e-9, atol=1e-9)
    return wrong


def write_table(path: Path, table: np.ndarray) -> None:
    """Write the file whole or not at all (a process killed while writing leaves the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    try:
        partial.write_bytes(stored(table))
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)  # a write cut short (a full disk, a file-size limit) leaves nothing


def load_table(folder: Path | None, compute: Callable[[], np.ndarray] = solve) -> np.ndarray:
    """The table kept in ``folder``, or computed (and kept there when it can be: None keeps it in memory)."""
    path = folder / TABLE_NAME if folder is not None else None
    if path is not None:
        try:
            return read_table(path)
        except FileNotFoundError:
            pass
        except (OSError, StateFormatError) as error:
            LOG.warning("the Yacht advisor's table %s is damaged or no table (%s): recomputed", path, error)
    started = time.perf_counter()
    table = compute()
    LOG.info("computed the Yacht advisor's table in %.1f s", time.perf_counter() - started)
    if path is not None:
        try:
            write_table(path, table)
            LOG.info("kept the Yacht advisor's table in %s", path)
        except OSError as error:
            LOG.warning("cannot keep the Yacht advisor's table in %s (%s): it is kept in memory", path, error)
    return table


def shipped_table(path: Path = SHIPPED) -> np.ndarray:
    """The table shipped at ``path``; StateFormatError (or OSError) says why it is not to be trusted."""
    try:
        data = lzma.decompress(path.read_bytes())
    except lzma.LZMAError as error:
        raise StateFormatError(f"it does not decompress ({error})") from error
    if table_digest(data) != SHIPPED_SHA256:
        raise StateFormatError("its digest does not match the one shipped with the code")
    return table_from_bytes(data)


@functools.cache
def advisor_table() -> np.ndarray:
    """The table for this process: the shipped one, else the per-user cache's (computed there once)."""
    try:
        return shipped_table(SHIPPED)
    except (OSError, StateFormatError) as error:
        LOG.warning("the Yacht advisor's shipped table %s is not usable (%s): the cached one is used", SHIPPED, error)
    return load_table(cache_folder())
