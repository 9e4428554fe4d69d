"""Small files of the data folder and the cache, read so that whatever stands in their place costs a
message and never more: a pipe would hold the companion for ever, a link to /dev/zero fill the memory,
a link elsewhere have it trust a file that is not its own."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegularFile(ValueError):
    """What stands at a path is no regular file, or is longer than its reader takes."""


def read_regular(path: Path, most: int) -> bytes:
    """The bytes of the regular file at ``path`` if it holds at most ``most``: opened without following
    a link or waiting on a pipe, and never read past ``most`` + 1 bytes. FileNotFoundError when nothing
    is there; NotRegularFile for anything else there, or a longer file; OSError when it cannot be read."""
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | NO_FOLLOW)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise NotRegularFile("it is a symbolic link") from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise NotRegularFile("it is no regular file")
        chunks: list[bytes] = []
        left = most + 1
        while left > 0 and (chunk := os.read(handle, left)):
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(handle)
    if left <= 0:
        raise NotRegularFile(f"it is longer than {most} bytes")
    return b"".join(chunks)

