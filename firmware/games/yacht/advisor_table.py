"""The optimal advisor's table, computed once and kept in a file whose digest is checked at load.

Computing it (:func:`engine.yacht.advisor.solve`) takes 17 s on a free core of the development
machine and two minutes on a busy one: too long for every start of the companion, so the first
use keeps it in the per-user cache (``$XDG_CACHE_HOME/dice-companion``,
else ``~/.cache/dice-companion``) and every later one reads it back and checks it in about 0.15 s. The
file is the table's SHA-256 on its first line, then the table's bytes; a file whose digest or
contents do not check out is never trusted: it is recomputed and rewritten, and the log says so.
Where no file can be written the table is computed and kept in memory for the process.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from engine.errors import StateFormatError
from engine.yacht.advisor import solve, table_digest, table_from_bytes, table_to_bytes

LOG = logging.getLogger("dice_companion")
TABLE_NAME = "yacht-advisor-table.bin"
DIGEST_WORD = b"sha256 "


def cache_folder() -> Path:
    """The per-user cache folder of the companion (XDG's rule)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dice-companion"


def stored(table: np.ndarray) -> bytes:
    """The file's contents: the digest line, then the table's bytes."""
    data = table_to_bytes(table)
    return DIGEST_WORD + table_digest(data).encode() + b"\n" + data


def read_table(path: Path) -> np.ndarray:
    """The table kept at ``path``; StateFormatError says why a file is not to be trusted."""
    content = path.read_bytes()
    first, _, data = content.partition(b"\n")
    if not first.startswith(DIGEST_WORD) or first[len(DIGEST_WORD):].decode(errors="replace") != table_digest(data):
        raise StateFormatError("its digest does not match its contents")
    return table_from_bytes(data)


def write_table(path: Path, table: np.ndarray) -> None:
    """Write the file whole or not at all (a process killed while writing leaves the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
    partial.write_bytes(stored(table))
    os.replace(partial, path)


def load_table(folder: Path | None, compute: Callable[[], np.ndarray] = solve) -> np.ndarray:
    """The table kept in ``folder``, or computed (and kept there when it can be: None keeps it in memory)."""
    path = folder / TABLE_NAME if folder is not None else None
    if path is not None and path.exists():
        try:
            return read_table(path)
        except (OSError, StateFormatError) as error:
            LOG.warning("the Yacht advisor's table %s is damaged (%s): recomputed", path, error)
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


@functools.cache
def advisor_table() -> np.ndarray:
    """The table for this process, from the per-user cache (computed there the first time)."""
    return load_table(cache_folder())
