"""Under a file-size limit (``ulimit -f``) every write that fails says which file and why, and
the bots' game stops instead of retrying a refused move for ever (a hang before)."""

from __future__ import annotations

import errno
import os
import resource
import subprocess
import sys

import pytest
from waiting import HANG_S

from firmware.calibration._calibration_file import write_atomically
from firmware.journal.write_limits import write_trouble

LIMIT_KIB = 40  # the journal's first moves outgrow it


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT_KIB * 1024, resource.RLIM_INFINITY))


def test_a_demo_whose_journal_cannot_grow_stops_naming_the_limit(tmp_path):
    data = tmp_path / "data"
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "demo", "--game", "yacht", "--auto", "--seed", "1", "--data", str(data)],
        capture_output=True, text=True, timeout=HANG_S, preexec_fn=_limited,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")},
    )
    last = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr[-2000:]
    assert last.startswith("dice-companion: could not journal") and last.count("ulimit -f") == 1, last
    assert f"a file-size limit of {LIMIT_KIB} KiB" in last and f"demo --data {data}` resumes the game" in last
    assert not [name for name in os.listdir(data) if name.endswith((".tmp", ".partial"))]


def test_a_calibration_file_that_cannot_be_written_is_named(tmp_path, monkeypatch):
    def too_large(_fd):
        raise OSError(errno.EFBIG, "File too large")

    monkeypatch.setattr(os, "fsync", too_large)
    target = tmp_path / "dice-layer.npz"
    with pytest.raises(OSError, match=f"cannot write {target}: File too large"):
        write_atomically(target, b"x")
    assert list(tmp_path.iterdir()) == []


def test_write_trouble_names_a_full_disk_and_no_limit_where_none_is_set():
    assert write_trouble(OSError(errno.ENOSPC, "No space left on device")).endswith("(the disk is full)")
    if resource.getrlimit(resource.RLIMIT_FSIZE)[0] == resource.RLIM_INFINITY:
        assert write_trouble(OSError(errno.EFBIG, "File too large")) == "[Errno 27] File too large"
