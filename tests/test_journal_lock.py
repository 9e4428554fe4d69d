"""One companion per journal: a second one is refused (through a link from another data folder too),
history still reads, and nothing standing where the lock is kept holds a start or is written through."""

from __future__ import annotations

import os

import pytest
from table_helpers import NAMES
from test_journal import journal_with
from test_journal_damage import WIN
from waiting import within_hang_s

from firmware.cli import main
from firmware.core.game_setup import GameSetup
from firmware.journal.journal import Journal, JournalError, JournalLocked


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


LOCK_SQUATTERS = {
    "pipe": lambda lock, target: os.mkfifo(lock),
    "link": lambda lock, target: lock.symlink_to(target),
    "link to a link": lambda lock, target: (lock.with_name("hop").symlink_to(target), lock.symlink_to("hop")),
    "folder": lambda lock, target: lock.mkdir(),
}


@pytest.mark.parametrize("kind", LOCK_SQUATTERS)
def test_whatever_stands_where_the_lock_is_neither_holds_the_start_nor_is_followed(tmp_path, kind, caplog):
    """Issue 51: a FIFO at ``journal.sqlite3.lock`` froze every start before anything was logged or
    drawn; a link there was followed and its target created (by a companion run as root, anywhere)."""
    path = tmp_path / "journal.sqlite3"
    lock = tmp_path / "journal.sqlite3.lock"
    target = tmp_path / "elsewhere" / "created-through-the-link"
    target.parent.mkdir()
    LOCK_SQUATTERS[kind](lock, target)
    journal = within_hang_s(lambda: Journal(path))  # a start that hangs fails the test
    journal.start_game(GameSetup(NAMES))
    assert not target.exists(), "nothing is created through a link"
    assert lock.is_file() and not lock.is_symlink()
    aside = list(tmp_path.glob("journal.sqlite3.lock.aside-*"))
    assert len(aside) == 1 and os.path.lexists(aside[0]), "what stood there is kept, moved aside"
    said = [r.getMessage() for r in caplog.records if "journal.sqlite3.lock" in r.getMessage()]
    assert len(said) == 1 and "moved aside" in said[0]
    with pytest.raises(JournalLocked):
        Journal(path)  # and the lock still holds a second companion off
    journal.close()


def test_a_journal_linked_from_a_second_data_folder_is_refused_while_its_companion_runs(tmp_path, capsys):
    """Issue 51: the lock was on the path, so a companion on a link to another folder's journal
    wrote into the same game as the one there (its moves interleaved; the game no longer replays)."""
    first, second = tmp_path / "first", tmp_path / "second"
    second.mkdir()
    running, game = journal_with(first_journal(first), "roll 1-4-5-6")
    (second / "journal.sqlite3").symlink_to(first / "journal.sqlite3")
    assert main(["demo", "--auto", "--data", str(second)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is a symbolic link" in error and "Traceback" not in error
    assert running.events(game) == ["roll 1-4-5-6"], "the refused one touched nothing"
    running.close()


def test_a_journal_with_a_second_hard_link_is_refused(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    second.mkdir()
    running, game = journal_with(first_journal(first), "roll 1-4-5-6")
    os.link(first / "journal.sqlite3", second / "journal.sqlite3")
    with pytest.raises(JournalError, match="has 2 names .hard links."):
        Journal(second / "journal.sqlite3")
    assert running.events(game) == ["roll 1-4-5-6"]
    running.close()
    with pytest.raises(JournalError, match="has 2 names"):
        Journal(first / "journal.sqlite3")  # neither name is the journal's own while the other stands


def first_journal(folder):
    """The journal's path in ``folder``, made."""
    folder.mkdir()
    return folder / "journal.sqlite3"
