"""The kill test, short: an automated game killed with SIGKILL at random moments and resumed."""

from __future__ import annotations

import re

import pytest

from firmware.bench.durability import KillFigures
from firmware.cli import main
from firmware.journal.journal import FINISHED, JOURNAL_NAME, Journal, replay


@pytest.mark.parametrize("kind, seed", [("cant-stop", 5), ("columns", 2), ("tumblin", 1), ("yacht", 1)])
def test_a_game_killed_three_times_loses_no_acknowledged_event(tmp_path, capsys, kind, seed):
    assert main(["bench-durability", "--game", kind, "--kills", "3", "--seed", str(seed), "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    last = re.fullmatch(r"kills (\d+) resumed (\d+) events-lost (\d+)", lines[-1])
    assert last is not None, lines[-1]
    kills, resumed, lost = map(int, last.groups())
    assert kills == 3 and lost == 0 and resumed == kills
    landed = re.fullmatch(r"kills-during-play (\d+) kills-while-starting (\d+) kills-after-the-winning-move (\d+)", lines[-2])
    assert landed is not None and sum(map(int, landed.groups())) == kills
    assert landed.group(2) == "0", "the kills are aimed at play, not at start-up"
    acknowledged = int(re.search(r"acknowledged-events (\d+)", lines[0]).group(1))
    journal = Journal(tmp_path / JOURNAL_NAME)
    records = journal.games()
    assert records and all(record.status == FINISHED for record in records)
    assert sum(len(journal.events(record.id)) for record in records) >= acknowledged
    for record in records:
        final = replay(record, journal.events(record.id))[0]
        assert record.setup.game.progress(final).over and final.winner == record.winner


def test_each_kill_counts_as_resumed_once_a_later_life_resumes_what_it_left_unfinished():
    figures = KillFigures()  # what one run of `bench-durability --kills 100` went through
    figures.killed(1)  # a life killed mid-game
    figures.killed(1)  # the next one killed while still starting up: it never got to resume
    figures.resumed_game(1)  # the third resumes, for both kills
    figures.killed(None)  # killed after the winning move, before it could exit: nothing to resume
    figures.killed(2)  # killed mid-game; the game is never resumed
    assert figures.line() == "kills 4 resumed 3 events-lost 0"
    assert figures.awaiting == {2: 1}
