"""Bots at the buttons whose moves the journal refuses (a full disk, a file-size limit) try a move
again a few times, as players would, then stop the game, saying why and naming the journal: in every
game, whatever move was refused. Can't Stop's choice screen looked the same after a second refusal as after the first,
so the bots waited on it for ever (and Tumblin's flick on a full disk)."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from waiting import HANG_S

from firmware.core.catalogue import kinds, table_game
from firmware.core.game_setup import GameSetup
from firmware.journal.journal import JOURNAL_NAME, Journal
from firmware.table.companion import Companion
from firmware.table.start import play_with_bots, simulated_table
from hardware.display import dummy_display


def _refusing_after(journal: Journal, events: int) -> None:
    """The journal takes ``events`` events, then refuses every other as a full file-size limit does."""
    append = journal.append
    taken = [0]

    def refusing(*args, **kwargs):  # type: ignore[no-untyped-def]
        if taken[0] >= events:
            raise sqlite3.OperationalError("disk I/O error")
        taken[0] += 1
        return append(*args, **kwargs)

    journal.append = refusing  # type: ignore[method-assign]


@pytest.mark.parametrize("events", [0, 3, 8])
@pytest.mark.parametrize("kind", kinds())
def test_bots_stop_a_game_whose_moves_the_journal_refuses(kind, events, tmp_path):
    game = table_game(kind)
    setup = GameSetup(game.autoplayer(2, 1).names, kind=kind)
    journal = Journal(tmp_path / JOURNAL_NAME)
    _refusing_after(journal, events)
    table = simulated_table(game, 1, tmp_path)
    companion = Companion(dummy_display(), setup, journal=journal, data_dir=tmp_path)
    done = threading.Event()

    def play() -> None:
        try:
            play_with_bots(companion, game.autoplayer(2, 1, table), table)
        finally:
            done.set()

    threading.Thread(target=play, daemon=True).start()
    stopped = done.wait(HANG_S)
    journal.close()
    assert stopped, f"the bots still wait after: {companion.unsaved}"
    assert companion.unsaved is not None and companion.unsaved.startswith("could not journal"), companion.unsaved
    assert f" in {tmp_path / JOURNAL_NAME}: disk I/O error" in companion.unsaved, "which file, not only why"
