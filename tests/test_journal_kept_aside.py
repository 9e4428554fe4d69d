"""A journal kept aside is said where it lies, even when the start that kept it was stopped before
it could say so."""

from __future__ import annotations

import logging
import os
import random

from damaged_journals import DAMAGES, crashed_journal

from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import NoticeScreen, rows_of
from firmware.journal.journal import Journal, _keep_aside, _read_files
from firmware.table.companion import Companion
from hardware.display import dummy_display


def test_a_start_killed_right_after_keeping_the_journal_aside_is_followed_by_one_that_says_where(tmp_path, caplog):
    """Issue 51: the next start said the games were lost with a journal "found empty or missing",
    while they lay in the ``.unreadable-…`` file the killed start had kept."""
    caplog.set_level(logging.ERROR, "dice_companion")
    crashed = crashed_journal(tmp_path, random.Random(3), finished=2)
    DAMAGES["header-scribbled"](crashed.path, random.Random(3))
    kept = _keep_aside(crashed.path, _read_files(crashed.path))  # what the killed start did, and no more
    journal = Journal(crashed.path)
    assert journal.moved_aside == kept and journal.lost is None
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and kept.name in said[0] and "its games are there" in said[0], said
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob")), journal=journal)
    assert companion.screen == NoticeScreen("Journal damaged", ("kept aside as", *rows_of(kept.name)), "new journal")
    journal.close()
    caplog.clear()
    again = Journal(crashed.path)
    assert again.moved_aside is None and again.lost is None and not caplog.records, "said once"
    again.close()


def test_a_journal_deleted_after_games_were_played_beside_an_old_kept_one_is_still_said_lost(tmp_path, caplog):
    """A journal kept aside long ago holds none of the games acknowledged since: they went with the file."""
    crashed = crashed_journal(tmp_path, random.Random(3), finished=1)
    old = crashed.folder / f"{crashed.path.name}.unreadable-20200101-000000"
    old.write_bytes(b"an old unreadable journal")
    os.utime(old, (1_577_836_800, 1_577_836_800))  # kept in 2020: the mark was written since
    crashed.path.unlink()
    (crashed.folder / f"{crashed.path.name}-wal").unlink(missing_ok=True)
    journal = Journal(crashed.path)
    assert journal.moved_aside is None and journal.lost is not None and journal.lost.cause == "file"
    journal.close()
