"""Why a write failed, in words a player can act on: SQLite says only "disk I/O error" when a
file may grow no further, and an OSError from ``write()`` names no file."""

from __future__ import annotations

import errno
import resource


def file_size_limit() -> int | None:
    """The bytes a file of this process may hold (``ulimit -f``); None when there is no limit."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def write_trouble(error: BaseException) -> str:
    """``error`` with what stands behind it where that can be told: a file-size limit set on the
    process, or a full disk."""
    text = str(error)
    if "ulimit -f" in text or "the disk is full" in text:  # told already
        return text
    limit = file_size_limit()
    if limit is not None and (getattr(error, "errno", None) == errno.EFBIG or "disk I/O error" in text):
        return f"{text} (a file-size limit of {limit // 1024} KiB is set on this process: ulimit -f)"
    if getattr(error, "errno", None) == errno.ENOSPC or "database or disk is full" in text:
        return f"{text} (the disk is full)"
    return text
