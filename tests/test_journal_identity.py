"""The journal's identity (which signs the mark of the last acknowledged event) is checked in shape
and size: a wrong one is damage, said once, and replaced; the journal's games are kept."""

from __future__ import annotations

import logging
import re

import pytest
from test_journal import journal_with
from test_journal_damage import WIN, damage, two_won_games

from firmware.journal import last_event
from firmware.journal.journal import Journal

WRONG_IDENTITIES = {
    "other columns": "DROP TABLE identity; CREATE TABLE identity (who TEXT, since REAL)",
    "ten megabytes": "UPDATE identity SET id = hex(zeroblob(5000000))",
    "a number": "UPDATE identity SET id = 42",
    "two of them": "INSERT INTO identity (id) VALUES ('0123456789abcdef0123456789abcdef')",
    "none": "DELETE FROM identity",
}


@pytest.mark.parametrize("statement", WRONG_IDENTITIES.values(), ids=WRONG_IDENTITIES)
def test_a_wrong_identity_is_damage_said_once_and_replaced(tmp_path, caplog, statement):
    """Issue 51: other columns stopped every start ("no such column: id") with the journal neither
    used nor kept aside; an identity of 10 MB made every mark 10 MB (fsync'd at each move) and
    switched the lost-event check off for good."""
    caplog.set_level(logging.ERROR, "dice_companion")
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    for part in statement.split(";"):
        damage(path, part)
    journal, _ = journal_with(path, WIN[0])  # a start, and a move acknowledged
    assert re.fullmatch("[0-9a-f]{32}", journal.identity or ""), "replaced by a sound one"
    assert len(journal.games()) == 3 and journal.moved_aside is None, "the journal is used, its games kept"
    assert last_event.marker_path(path).stat().st_size <= last_event.MOST_BYTES, "the mark is a mark again"
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "identity" in said[0] and "replaced" in said[0], said
    journal.close()
    caplog.clear()
    again = Journal(path)
    assert again.identity == journal.identity and again.lost is None and not caplog.records, "said once"
    again.close()
