"""Damage the journal cannot crash on: rows that make no sense, a broken index, a damaged log."""

from __future__ import annotations

import json
import logging
import os
import random
import sqlite3

import pytest
from damaged_journals import break_index, crashed_journal, journal_files
from journal_fuzz import fuzz

from firmware.cli import main
from firmware.core.game_setup import GameSetup
from firmware.drawing.screens import NoticeScreen, ResumeScreen, wrapped
from firmware.journal.journal import FINISHED, Journal
from firmware.journal import last_event
from firmware.journal.last_event import Lost
from firmware.table.companion import Companion
from hardware.buttons import Press
from hardware.display import dummy_display
from table_helpers import NAMES, press
from test_journal import journal_with

WIN = ("roll 1-1-1-1", "2+2", "roll 1-1-1-1", "2", "stop", "roll 1-1-1-1", "roll 6-6-6-6", "12+12", "roll 6-6-6-6",
       "12", "stop", "roll 1-1-1-1", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3+3", "roll 1-2-1-2", "3", "stop")


def two_won_games(path) -> None:
    """Two finished games (Ann wins both) in a closed journal at ``path``."""
    journal, _ = journal_with(path, *WIN)
    journal.close()
    journal, _ = journal_with(path, *WIN)
    journal.close()


def damage(path, statement: str) -> dict[str, bytes]:
    """Run ``statement`` on the journal at ``path`` as a flipped bit might have; the files as left."""
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()
    return journal_files(path)


ROWS_THAT_MAKE_NO_SENSE = {
    "names not JSON": "UPDATE games SET names = '[\"Ann\", \"Bo' WHERE id = 1",
    "bots not a list of players": "UPDATE games SET bots = '[\"Zoe\"]' WHERE id = 1",
    "winner out of range": "UPDATE games SET winner = 2 WHERE id = 1",
    "a winner of an abandoned game": "UPDATE games SET status = 'abandoned' WHERE id = 1",
    "a won game without its winner": "UPDATE games SET winner = NULL WHERE id = 1",
    "start not a time": "UPDATE games SET started = 'yesterday' WHERE id = 2",
    "end not a time": "UPDATE games SET ended = 1e300 WHERE id = 2",
    "unknown status": "UPDATE games SET status = 'won' WHERE id = 2",
    "unknown rule": """UPDATE games SET options = '{"rule": "chess", "columns_to_win": 3}' WHERE id = 2""",
    "columns to win": """UPDATE games SET options = '{"rule": "standard", "columns_to_win": 9}' WHERE id = 2""",
    "options not JSON": "UPDATE games SET options = '{\"rule\": ' WHERE id = 2",
    "an option of no game": """UPDATE games SET options = '{"rule": "standard", "speed": 9}' WHERE id = 2""",
    "unknown game": "UPDATE games SET kind = 'chess' WHERE id = 2",
    "no turns": "UPDATE games SET turns = 0 WHERE id = 2",
    "event stored as a blob": "UPDATE events SET event = CAST(event AS BLOB) WHERE game = 1 AND seq = 3",
    "event time not a time": "UPDATE events SET at = 'noon' WHERE game = 1 AND seq = 3",
    "event time past any clock": "UPDATE events SET at = 1e300 WHERE game = 1 AND seq = 3",
    "names nested past any sense": "UPDATE games SET names = '" + "[" * 100_000 + "' WHERE id = 1",
    "event missing": "DELETE FROM events WHERE game = 1 AND seq = 2",
    "event of no game": "INSERT INTO events (game, seq, event, at) VALUES (9, 1, 'roll 1-1-1-1', 0)",
    "a roll read by guesswork": "UPDATE events SET source = 'guess' WHERE game = 1 AND seq = 1",
    "dice set not a label": "UPDATE games SET dice_set = '' WHERE id = 2",
    "two games being played": "UPDATE games SET status = 'playing', winner = NULL, ended = NULL",
    "kind changed": """UPDATE games SET kind = 'columns', options = '{}' WHERE id = 1""",
    "kind changed to a game with dice": """UPDATE games SET kind = 'counters', options = '{}' WHERE id = 1""",
}


@pytest.mark.parametrize("statement", ROWS_THAT_MAKE_NO_SENSE.values(), ids=ROWS_THAT_MAKE_NO_SENSE)
def test_a_row_that_makes_no_sense_is_damage_kept_aside_byte_for_byte(tmp_path, statement):
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    found = damage(path, statement)
    journal = Journal(path)
    assert journal.moved_aside is not None and journal_files(journal.moved_aside) == found
    assert journal.games() == [] and journal.start_game(GameSetup(NAMES)) == 1


def test_a_broken_index_that_quick_check_misses_is_found(tmp_path):
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    break_index(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok", "the damage this test is about"
    db.close()
    found = journal_files(path)
    journal = Journal(path)
    assert journal.moved_aside is not None and journal_files(journal.moved_aside) == found


def test_history_names_a_damaged_game_and_goes_on_with_the_rest(tmp_path, capsys):
    two_won_games(tmp_path / "journal.sqlite3")
    damage(tmp_path / "journal.sqlite3", "UPDATE games SET names = '[\"Ann\", \"Bo' WHERE id = 1")
    assert main(["history", "--data", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game 1  damaged: names '[\"Ann\", \"Bo' is not a JSON list of names"
    assert lines[1] == "== Can't Stop (cant-stop): 1 game"
    assert lines[2].startswith("game 2 ") and " finished  winner Ann " in lines[2]
    assert lines[4].split() == ["Ann", "1", "1", "0", "100.0%"]


def test_damage_to_the_log_costs_at_most_the_turn_in_progress(tmp_path):
    crashed = crashed_journal(tmp_path, random.Random(3), finished=1)
    assert 0 < crashed.at_turn_end < len(crashed.acked), "cut off mid-turn"
    wal = tmp_path / "crashed" / "journal.sqlite3-wal"
    wal.write_bytes(b"\xff" * 32 + wal.read_bytes()[32:])  # the log's header: SQLite ignores all of it
    journal = Journal(crashed.path)
    kept = [(record.id, seq, event) for record in journal.games() for seq, event in enumerate(journal.events(record.id), 1)]
    assert kept == crashed.acked[: crashed.at_turn_end]
    assert journal.games()[0].status == FINISHED
    game, last, _ = crashed.acked[-1]
    first = crashed.acked[crashed.at_turn_end][1]
    assert journal.lost == Lost(game, first, last), "what the log held is named as lost"


def lost_at_start(crashed, caplog) -> Companion:
    """The companion started on ``crashed``: it must say what was lost, on the OLED and in the log."""
    caplog.set_level(logging.ERROR, "dice_companion")
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob")), journal=Journal(crashed.path))
    game, last, _ = crashed.acked[-1]
    first = crashed.acked[crashed.at_turn_end][1]
    events = f"event {first}" if first == last else f"events {first}-{last}"
    assert companion.screen == NoticeScreen("Events lost", wrapped(f"game {game}'s {events}. The log was damaged."),
                                            "played on")
    said = f"game {game}'s {events.replace('-', ' to ')} were acknowledged but are not in the journal"
    assert any(said in record.getMessage() for record in caplog.records)
    return companion


def test_a_deleted_log_is_announced_with_the_events_it_held_then_the_game_resumes(tmp_path, caplog):
    crashed = crashed_journal(tmp_path, random.Random(3), finished=1)
    (tmp_path / "crashed" / "journal.sqlite3-wal").unlink()
    companion = lost_at_start(crashed, caplog)
    press(companion, Press.SELECT)
    assert isinstance(companion.screen, ResumeScreen), "then the game resumes from before the lost events"


@pytest.mark.parametrize("finished", [0, 2])
@pytest.mark.parametrize("how", ["emptied", "deleted"])
def test_a_journal_emptied_or_deleted_is_announced_as_such_with_the_games_lost(tmp_path, caplog, finished, how):
    """Not "its log was damaged": the whole file went, with the finished games before the last one;
    said once (the next start has nothing more to say)."""
    caplog.set_level(logging.ERROR, "dice_companion")
    crashed = crashed_journal(tmp_path, random.Random(3), finished=finished)
    if how == "emptied":
        crashed.path.write_bytes(b"")
    else:
        crashed.path.unlink()
    (tmp_path / "crashed" / "journal.sqlite3-wal").unlink(missing_ok=True)
    game, last, _ = crashed.acked[-1]
    companion = Companion(dummy_display(), GameSetup(("Ann", "Bob")), journal=Journal(crashed.path))
    earlier = {0: ("the journal file was", "empty or missing"),
               2: ("and 2 earlier games:", "journal file emptied")}[finished]
    assert companion.screen == NoticeScreen("Games lost", (f"game {game} events 1-{last}", *earlier), "new journal")
    said = [r.getMessage() for r in caplog.records if "acknowledged" in r.getMessage()]
    assert len(said) == 1 and "journal file was found empty or missing" in said[0] and "write-ahead log" not in said[0]
    assert ("2 earlier games with it" in said[0]) == (finished == 2)
    companion.journal.close()
    assert Journal(crashed.path).lost is None, "said once"


def test_one_lost_event_is_said_in_the_singular():
    assert Lost(3, 8, 8).sentence().startswith("game 3's event 8 was acknowledged but is not in the journal")
    assert Lost(3, 7, 8).sentence().startswith("game 3's events 7 to 8 were acknowledged but are not in the journal")


def test_the_mark_is_written_as_a_new_file_renamed_over_the_old_so_a_crash_leaves_one_whole(tmp_path, monkeypatch):
    journal_path = tmp_path / "journal.sqlite3"
    last_event.remember(journal_path, 1, 7, "roll 1-2-3-4")
    before = last_event.marker_path(journal_path).read_bytes()

    def crash(*_args):
        raise OSError("power cut")

    monkeypatch.setattr(last_event.os, "replace", crash)
    with pytest.raises(OSError):
        last_event.remember(journal_path, 1, 8, "2+5")
    assert last_event.marker_path(journal_path).read_bytes() == before, "the old mark, whole"
    monkeypatch.undo()
    last_event.remember(journal_path, 1, 8, "2+5")
    assert last_event.recalled(journal_path) == last_event.LastEvent(1, 8, last_event.digest(1, 8, "2+5"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3.last"]


def crafted_marks(journal_path):
    """Marks a start must not stop on, hang on, nor believe: by name, a function writing it."""
    mark = last_event.marker_path(journal_path)

    def body(game, seq):
        fields = {"game": game, "seq": seq, "digest": "0" * 16}
        return json.dumps({**fields, "check": last_event._check(fields)})

    return {
        "huge float": lambda: mark.write_text('{"game": 1, "seq": 1e400, "digest": "x", "check": "y"}'),
        "2**70": lambda: mark.write_text(body(1, 2**70)),
        "negative": lambda: mark.write_text(body(1, -5)),
        "empty": lambda: mark.write_bytes(b""),
        "torn": lambda: mark.write_text(body(1, 3)[:20]),
        "long": lambda: mark.write_bytes(b" " * 5000 + body(1, 3).encode()),
        "fifo": lambda: os.mkfifo(mark),
        "link to /dev/zero": lambda: mark.symlink_to("/dev/zero"),
        "folder": lambda: mark.mkdir(),
        "a game never held": lambda: mark.write_text(body(1, 3)),
    }


@pytest.mark.parametrize("kind", list(crafted_marks("j")))
def test_a_crafted_or_runaway_mark_is_said_once_as_damaged_and_never_stops_a_start(tmp_path, caplog, kind):
    caplog.set_level(logging.ERROR, "dice_companion")
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    damage(path, "DELETE FROM events WHERE game = 1")
    damage(path, "DELETE FROM games WHERE id = 1")  # game 2 stands alone: game 1 was never held
    last_event.marker_path(path).unlink()  # the games' own mark, replaced by the crafted one
    crafted_marks(path)[kind]()
    journal = Journal(path)
    assert journal.lost is None
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "the mark of the last acknowledged event" in said[0] and "is damaged" in said[0], said
    journal.close()
    caplog.clear()
    assert Journal(path).lost is None and not caplog.records, "said once"


def test_a_mark_from_another_journal_is_refused_not_believed(tmp_path, caplog):
    """A mark copied from another data folder (or forged) said events were lost that never were:
    a mark is signed with its journal's identity, and another's is damage, said once."""
    caplog.set_level(logging.ERROR, "dice_companion")
    ours, theirs = tmp_path / "ours" / "journal.sqlite3", tmp_path / "theirs" / "journal.sqlite3"
    for path in (ours, theirs):
        path.parent.mkdir()
        two_won_games(path)
    journal, _ = journal_with(theirs, *WIN[:5])  # their game 3, which ours never had
    journal.close()
    last_event.marker_path(ours).write_bytes(last_event.marker_path(theirs).read_bytes())
    journal = Journal(ours)
    assert journal.lost is None
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "is damaged: it was not written for this journal" in said[0], said
    journal.close()
    assert Journal(theirs).lost is None, "the mark is believed by its own journal"


def test_a_mark_written_before_journals_had_an_identity_is_still_believed_once(tmp_path, caplog):
    """The first start of this version finds an unsigned mark beside a journal without identity:
    what it owes is still told (the identity is made at that start; later marks are signed)."""
    path = tmp_path / "journal.sqlite3"
    journal, game = journal_with(path, *WIN[:5])
    journal.close()
    damage(path, "DROP TABLE identity")
    damage(path, f"DELETE FROM events WHERE game = {game} AND seq = 5")  # lost with the log
    last_event.remember(path, game, 5, WIN[4])  # unsigned, as an earlier version wrote it
    journal = Journal(path)
    assert journal.lost == Lost(game, 5, 5)
    journal.close()
    last_event.remember(path, game, 5, WIN[4])  # now the journal has an identity: an unsigned mark is not its own
    caplog.clear()
    assert Journal(path).lost is None and "it was not written for this journal" in caplog.text


def test_nothing_is_said_lost_when_the_journal_holds_every_event_or_the_mark_was_torn(tmp_path):
    whole = crashed_journal(tmp_path / "whole", random.Random(3), finished=1)
    journal = Journal(whole.path)
    assert journal.lost is None
    journal.close()
    torn = crashed_journal(tmp_path / "torn", random.Random(3), finished=1)
    marker = torn.folder / "journal.sqlite3.last"
    marker.write_text(marker.read_text()[:20])  # a crash while it was written: that event was never shown
    (torn.folder / "journal.sqlite3-wal").unlink()
    assert Journal(torn.path).lost is None


def test_a_few_damaged_journals_cause_no_traceback_and_lose_nothing(tmp_path):
    figures = fuzz(journals=12, seed=1, scratch=tmp_path, finished=0)  # each damage once; the full run: journal_fuzz.py
    assert not figures.tracebacks and not figures.lost, "\n".join(figures.lines())
    assert figures.outcomes["kept-aside"] >= 8 and figures.history["damaged-games"] >= 6


def foreign(path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (name TEXT)")
    db.execute("PRAGMA user_version = 7")
    db.commit()
    db.close()


NOT_JOURNALS = {
    "another program's database": (foreign, "not a journal: it has no events and no games table \\(it holds photos\\)"),
    "no events table": (lambda path: damage(path, "DROP TABLE events"), "not a journal: it has no events table"),
    "no games table": (lambda path: damage(path, "DROP TABLE games"), "not a journal: it has no games table"),
}


@pytest.mark.parametrize("make, why", NOT_JOURNALS.values(), ids=NOT_JOURNALS)
def test_an_sqlite_file_that_is_no_journal_is_kept_aside_and_readers_say_so_in_one_line(tmp_path, capsys, make, why):
    path = tmp_path / "journal.sqlite3"
    if make is foreign:
        foreign(path)
    else:
        two_won_games(path)
        make(path)
    found = journal_files(path)
    assert main(["history", "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("\n") == 1 and journal_files(path) == found, "a reader changes nothing"
    from firmware.web._app import create_app

    page = create_app(path).test_client().get("/history")
    assert page.status_code == 503 and "not a journal" in page.get_data(as_text=True)
    journal = Journal(path)
    assert journal.moved_aside is not None and journal.games() == []
    assert journal_files(journal.moved_aside) == found, "kept aside byte for byte"
    journal.close()
    assert Journal(path).moved_aside is None, "no restart loop: the fresh journal is used from then on"


def test_a_journal_left_empty_by_a_kill_while_it_was_created_reads_as_no_game_yet(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"")
    assert main(["history", "--data", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        "dice-companion: no game has been played here yet (the journal is empty: it was never written to)\n")
    from firmware.web._app import create_app

    page = create_app(path).test_client().get("/live.json")
    assert page.status_code == 200 and page.get_json()["message"] == "No game has been played yet."
    journal = Journal(path)
    assert journal.moved_aside is None and journal.lost is None and journal.games() == []


def test_names_with_control_characters_are_escaped_when_history_prints_them(tmp_path, capsys):
    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    damage(path, """UPDATE games SET names = '["Ann\\u001b[2J", "Bob"]' WHERE id = 1""")
    assert main(["history", "--data", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Ann\\x1b[2J" in out


def test_a_folder_the_reader_cannot_write_is_read_as_immutable(tmp_path, monkeypatch, capsys):
    """SQLite's readers need to write the shared-memory file beside the journal; without that
    right the journal is read as immutable (the turn in progress, still in the log, is not seen)."""
    from firmware.journal import journal as journal_module

    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    companion = Journal(path)  # running: its log and shared memory lie beside the journal
    monkeypatch.setattr(journal_module, "_can_share_memory", lambda path: False)
    reader = Journal(path, read_only=True)
    assert reader.immutable and len(reader.games()) == 2
    reader.close()
    assert main(["history", "--data", str(tmp_path)]) == 0 and "2 games" in capsys.readouterr().out
    companion.close()


def test_readers_leave_the_folder_of_a_journal_at_rest_as_they_found_it(tmp_path, capsys):
    """history and the page left an empty log and shared memory beside a journal that had none
    (a reader cannot remove them: only a writer's close does)."""
    from firmware.web._app import create_app

    path = tmp_path / "journal.sqlite3"
    two_won_games(path)
    found = {entry.name: entry.read_bytes() for entry in tmp_path.iterdir()}
    assert main(["history", "--data", str(tmp_path)]) == 0 and "2 games" in capsys.readouterr().out
    page = create_app(path).test_client()
    assert all(page.get(route).status_code == 200 for route in ("/", "/history", "/stats.json", "/games/1"))
    assert {entry.name: entry.read_bytes() for entry in tmp_path.iterdir()} == found


def test_a_data_folder_whose_name_holds_uri_characters_is_read(tmp_path, capsys):
    folder = tmp_path / "games?night #1"
    folder.mkdir()
    two_won_games(folder / "journal.sqlite3")
    assert main(["history", "--data", str(folder)]) == 0 and "2 games" in capsys.readouterr().out


def test_a_kill_while_the_journal_was_created_never_makes_a_reader_try_to_write(tmp_path, capsys):
    """A transaction cut short leaves a hot rollback journal: history said "attempt to write a
    readonly database" (and the page 503) until the companion ran again. A reader never writes."""
    import subprocess
    import sys

    from firmware.journal.journal import JOURNAL_NAME, _SCHEMA

    killed = f"""
import os, sqlite3
db = sqlite3.connect({str(tmp_path / JOURNAL_NAME)!r}, isolation_level=None)
db.execute("PRAGMA cache_size=1")
db.execute("BEGIN")
for statement in {_SCHEMA!r}.split(";"):
    if statement.strip():
        db.execute(statement)
db.execute("CREATE TABLE filler (x)")
for _ in range(2000):
    db.execute("INSERT INTO filler VALUES (?)", ("x" * 200,))
os._exit(0)
"""
    subprocess.run([sys.executable, "-c", killed], check=True)
    assert (tmp_path / f"{JOURNAL_NAME}-journal").is_file(), "the kill left a transaction to roll back"
    status = main(["history", "--data", str(tmp_path)])
    said = capsys.readouterr()
    assert "readonly" not in said.out + said.err and status in (0, 2)


def test_history_names_the_game_in_progress_when_none_has_ended(tmp_path, capsys):
    """It said "no finished or abandoned games yet" while the page listed a game as playing."""
    journal_with(tmp_path / "journal.sqlite3", "roll 1-1-1-1")[0].close()
    assert main(["history", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "no finished or abandoned games yet; game 1 is being played (Can't Stop: Ann, Bob)"]


@pytest.mark.parametrize("kind", ["pipe", "link", "folder", "stale file"])
def test_whatever_stands_where_the_mark_is_written_neither_holds_it_nor_is_written_through(tmp_path, kind, caplog):
    """Issue 43: a FIFO at ``journal.sqlite3.last.new`` froze the first move for ever; a link there
    had the mark written over the file it points to."""
    import threading

    from waiting import HANG_S

    journal_path = tmp_path / "journal.sqlite3"
    fresh = last_event.marker_path(journal_path).with_name("journal.sqlite3.last.new")
    victim = tmp_path / "victim.txt"
    victim.write_text("the players' notes\n")
    {"pipe": lambda: os.mkfifo(fresh), "link": lambda: fresh.symlink_to(victim), "folder": fresh.mkdir,
     "stale file": lambda: fresh.write_text("half a mark")}[kind]()
    written = threading.Event()
    threading.Thread(target=lambda: (last_event.remember(journal_path, 1, 7, "roll 1-2-3-4"), written.set()),
                     daemon=True).start()
    assert written.wait(HANG_S), "remember() hangs"
    assert last_event.recalled(journal_path) == last_event.LastEvent(1, 7, last_event.digest(1, 7, "roll 1-2-3-4"))
    assert victim.read_text() == "the players' notes\n"
    warned = [r.getMessage() for r in caplog.records if "last-event mark" in r.getMessage()]
    assert len(warned) == (0 if kind == "stale file" else 1)
