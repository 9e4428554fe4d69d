"""One companion per data folder: a second one is refused, and history still reads."""

from __future__ import annotations

import pytest
from test_journal import journal_with
from test_journal_damage import WIN

from firmware.cli import main
from firmware.journal.journal import Journal, JournalError


def test_a_second_companion_on_the_journal_is_refused_until_the_first_closes(tmp_path):
    first, game = journal_with(tmp_path / "journal.sqlite3", "roll 1-4-5-6")
    with pytest.raises(JournalError, match="another Dice Companion is running on the journal .*: stop it first"):
        Journal(tmp_path / "journal.sqlite3")
    assert first.events(game) == ["roll 1-4-5-6"], "the refused one touched nothing"
    first.close()
    again = Journal(tmp_path / "journal.sqlite3")
    assert again.unfinished().id == game


def test_history_reads_while_a_companion_plays(tmp_path, capsys):
    playing, _ = journal_with(tmp_path / "journal.sqlite3", *WIN)
    assert main(["history", "--data", str(tmp_path)]) == 0
    assert " finished  winner Ann " in capsys.readouterr().out
    playing.close()


def test_a_second_companion_stops_with_a_message_beside_a_running_one(tmp_path, capsys):
    running = Journal(tmp_path / "journal.sqlite3")  # `run` opens its journal the same way
    assert main(["demo", "--auto", "--data", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("dice-companion: another Dice Companion is running") and "Traceback" not in error
    running.close()


def test_a_second_run_refused_by_the_lock_never_touches_the_display(tmp_path, monkeypatch):
    """The running companion's OLED must not be reset by a second `run` that cannot go on."""
    from firmware.config import CameraConfig, Config
    from firmware.table import start

    opened = []
    monkeypatch.setattr(start, "open_display", lambda config: opened.append(config))
    running = Journal(tmp_path / "journal.sqlite3")
    with pytest.raises(JournalError, match="another Dice Companion is running"):
        start.run_device(Config(data_dir=tmp_path, camera=CameraConfig(backend="none")))
    assert opened == []
    running.close()
