"""The small files the companion keeps beside its journal (the lock, the mark of the last event)
are opened only as regular files of its own: never through a link (a companion run as root would
write wherever it points), never waiting on a pipe (a start would hang before anything is shown).
"""

from __future__ import annotations

import logging
import os
import stat
import time
from pathlib import Path

LOG = logging.getLogger("dice_companion")
NO_LINK_NO_WAIT = os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return name
    return "something that is no regular file"


def is_regular_or_set_aside(path: Path, what: str) -> bool:
    """Whether a regular file stands at ``path``. Anything else there is moved aside to
    ``<name>.aside-<pid>-<ns>`` (kept, it may be someone's) and said in one log line, ``what``
    naming the file's use: the way is then clear for a regular file."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISREG(found.st_mode):
        return True
    aside = path.with_name(f"{path.name}.aside-{os.getpid()}-{time.time_ns()}")
    os.rename(path, aside)
    LOG.warning("%s stood where %s is kept (%s): moved aside to %s", kind(found.st_mode), what, path, aside.name)
    return False
