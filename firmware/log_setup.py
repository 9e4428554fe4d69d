"""Where the companion's log goes: a terminal gets timestamped lines; systemd's journal, which
stamps every line itself, gets them without a second timestamp."""

from __future__ import annotations

import io
import logging
import os
import sys
from collections.abc import Mapping
from typing import TextIO

TERMINAL_FORMAT = "%(asctime)s %(levelname)s %(message)s"
JOURNAL_FORMAT = "%(levelname)s %(message)s"


def writes_to_journal(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Whether ``stream`` is connected to the journal: systemd sets JOURNAL_STREAM to the device and
    inode ("dev:inode", decimal) of that connection, and a child whose stderr was redirected since
    inherits the variable but not the connection, so both are compared (systemd.exec(5))."""
    expected = environ.get("JOURNAL_STREAM")
    if not expected:
        return False
    try:
        status = os.fstat(stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):  # a stream with no file behind it
        return False
    return expected == f"{status.st_dev}:{status.st_ino}"


def log_format(stream: TextIO, environ: Mapping[str, str]) -> str:
    """The format of each log line written to ``stream``."""
    return JOURNAL_FORMAT if writes_to_journal(stream, environ) else TERMINAL_FORMAT


def setup_logging(stream: TextIO | None = None, environ: Mapping[str, str] | None = None) -> None:
    """Log INFO and above to ``stream`` (stderr), timestamped unless the journal stamps the lines."""
    stream = stream or sys.stderr
    environ = os.environ if environ is None else environ
    logging.basicConfig(level=logging.INFO, format=log_format(stream, environ), stream=stream)
