"""The Raspberry Pi's systemd unit and the log it writes: a folder for lgpio's pipes, one timestamp per line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from firmware.core.catalogue import games
from firmware.log_setup import JOURNAL_FORMAT, TERMINAL_FORMAT, log_format, writes_to_journal

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "firmware" / "pi" / "dice-companion.service"


def service_settings(wanted: str = "[Service]") -> dict[str, list[str]]:
    """A section's settings ([Service] unless told), each key with all its values in order (Environment= repeats)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in UNIT.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == wanted and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_starts_in_a_folder_systemd_makes_for_its_user_and_tells_lgpio_so():
    """Started in /, a non-root user cannot make lgpio's notification pipe and gpiozero leaves lgpio."""
    settings = service_settings()
    made_for_user = [f"/run/{name}" for name in settings.get("RuntimeDirectory", [])] + [
        f"/var/lib/{name}" for name in settings.get("StateDirectory", [])
    ]
    assert settings.get("WorkingDirectory", [""])[0] in made_for_user
    environment = dict(value.split("=", 1) for value in settings.get("Environment", []))
    assert environment.get("LG_WD") == settings["WorkingDirectory"][0]


def test_the_unit_describes_the_companion_not_one_of_its_games():
    """It said "Dice Companion (Can't Stop referee)" when the companion referees five games."""
    description = service_settings("[Unit]")["Description"][0]
    assert [game.title for game in games() if game.title in description] == [], description


def test_a_stream_is_the_journal_only_when_journal_stream_names_it(tmp_path):
    with open(tmp_path / "log", "w") as stream:
        status = os.fstat(stream.fileno())
        named = {"JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino}"}
        assert writes_to_journal(stream, named) and log_format(stream, named) == JOURNAL_FORMAT
        assert not writes_to_journal(stream, {"JOURNAL_STREAM": f"{status.st_dev}:{status.st_ino + 1}"})
        assert log_format(stream, {}) == TERMINAL_FORMAT


def logged_line(tmp_path: Path, journal: bool) -> str:
    """What a process started like the unit's logs on stderr, with JOURNAL_STREAM naming its stderr or not."""
    log = tmp_path / "stderr"
    log.touch()
    status = log.stat()
    env = {key: value for key, value in os.environ.items() if key != "JOURNAL_STREAM"}
    if journal:
        env["JOURNAL_STREAM"] = f"{status.st_dev}:{status.st_ino}"
    code = "import logging; from firmware.log_setup import setup_logging; setup_logging(); logging.getLogger().info('hello')"
    with open(log, "w") as stderr:
        subprocess.run([sys.executable, "-c", code], stderr=stderr, env=env, cwd=ROOT, check=True, timeout=60)
    return log.read_text().strip()


def test_under_systemd_the_log_has_no_timestamp_of_its_own_and_on_a_terminal_it_has(tmp_path):
    assert logged_line(tmp_path, journal=True) == "INFO hello"
    line = logged_line(tmp_path, journal=False)
    assert line.endswith(" INFO hello") and line[:4].isdigit(), line
