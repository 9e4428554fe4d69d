"""Small files of the data folder and the cache, read so that whatever stands in their place costs a
message and never more: a pipe would hold the companion for ever, a link to /dev/zero fill the memory,
a link elsewhere have it trust a file that is not its own. :func:`kind` says in words what stands
there instead (the journal's small files say it too)."""

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
        mode = os.fstat(handle).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(f"it is {kind(mode)}")
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


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "something that is no regular file"
