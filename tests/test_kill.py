"""The kill test, short: an automated game killed with SIGKILL at random moments and resumed."""

from __future__ import annotations

import re

from firmware.cli import main
from firmware.journal import FINISHED, JOURNAL_NAME, Journal, replay


def test_a_game_killed_three_times_loses_no_acknowledged_event(tmp_path, capsys):
    assert main(["bench-durability", "--kills", "3", "--seed", "5", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    last = re.fullmatch(r"kills (\d+) resumed (\d+) events-lost (\d+)", lines[-1])
    assert last is not None, lines[-1]
    kills, resumed, lost = map(int, last.groups())
    assert kills == 3 and lost == 0 and resumed >= 1
    acknowledged = int(re.search(r"acknowledged-events (\d+)", lines[0]).group(1))
    journal = Journal(tmp_path / JOURNAL_NAME)
    records = journal.games()
    assert records and all(record.status == FINISHED for record in records)
    assert sum(len(journal.events(record.id)) for record in records) >= acknowledged
    for record in records:
        assert replay(record, journal.events(record.id))[0].winner == record.winner is not None
