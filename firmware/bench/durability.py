"""The kill test: an automated game killed with SIGKILL at random moments, resumed each time.

Each *life* is a child process running the real companion (bots at the buttons, pressing UNDO
now and then, the synthetic camera read by the real reader, a dummy OLED) on one journal file; it prints ``ack GAME SEQ
EVENT`` after each event is committed, which is the moment the screen may show it. The parent
kills lives at random moments until it has killed ``kills`` of them, lets the last game finish,
and then checks that every acknowledged event is in the journal and that every game replays.

A kill that leaves a game unfinished counts as resumed once a later life resumes that game: a
life killed while still starting up never resumes, and the next one resumes for both kills. A
kill before a game's set-up is journaled, or after its winning move, leaves nothing to resume.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import EngineError
from firmware.bench.progress import progress
from firmware.core.catalogue import default_kind, table_game
from firmware.journal.journal import FINISHED, JOURNAL_NAME, Journal, JournalError, replay

# A life is killed a random time in this range (seconds) after it began to play: aimed at play, not
# at start-up (counted from the start, most kills on a busy machine landed in lives still starting).
LIFE_S = (0.0, 2.5)
FINISH_TIMEOUT_S = 300.0  # a last, unkilled life must finish its game within this
UNDO_RATE = 0.05  # the bots change their minds (press UNDO) at this share of their decisions


@dataclass
class KillFigures:
    """What the kill test counted."""

    kills: int = 0
    resumed: int = 0  # kills whose unfinished game a later life resumed
    nothing_to_resume: int = 0  # kills that left no game unfinished
    during_play: int = 0  # kills of lives that had begun to play and not yet won
    while_starting: int = 0  # kills of lives that had not begun to play
    after_win: int = 0  # kills of lives that had made the winning move
    awaiting: Counter[int] = field(default_factory=Counter)  # game -> kills still waiting for its resume
    lives: int = 0
    games: int = 0
    acked: list[tuple[int, int, str]] = field(default_factory=list)
    lost: list[tuple[int, int, str]] = field(default_factory=list)
    broken_games: list[str] = field(default_factory=list)

    def killed(self, unfinished: int | None) -> None:
        """Count a kill that left the game ``unfinished`` (None: no game) in the journal."""
        self.kills += 1
        if unfinished is None:
            self.nothing_to_resume += 1
        else:
            self.awaiting[unfinished] += 1

    def resumed_game(self, game: int) -> None:
        """A life resumed ``game``: every kill that left it unfinished was followed by its resume."""
        self.resumed += self.awaiting.pop(game, 0)

    def line(self) -> str:
        """The last line of ``bench-durability``, unchanged since it was first given (a contract:
        other tools read it). A kill counts as resumed once a later life resumed the game it left
        unfinished, or when it left none (killed after the winning move): then the next life
        rightly found the game over. When all is well, resumed = kills."""
        return f"kills {self.kills} resumed {self.resumed + self.nothing_to_resume} events-lost {len(self.lost)}"


def child_main(data: Path, seed: int, kind: str, players: int = 2) -> int:
    """One life: resume the unfinished game as it was set up (whatever ``players`` asks), or start
    one for ``players``, and play on until it is won."""
    from firmware.core.game_setup import GameSetup
    from firmware.table.companion import Companion
    from firmware.table.start import play_with_bots, restore_table, resumed_setup, simulated_table
    from hardware.display import dummy_display

    def acknowledge(game: int, seq: int, event: str) -> None:
        print(f"ack {game} {seq} {event}", flush=True)

    journal = Journal(data / JOURNAL_NAME, on_commit=acknowledge)
    asked = GameSetup(table_game(kind).autoplayer(players, seed).names, kind=kind)
    played, _, resumed = resumed_setup(journal, asked, seed, sys.stderr)
    table = simulated_table(played.game, seed, data)
    companion = Companion(dummy_display(), played, journal=journal, data_dir=data)
    if resumed:
        restore_table(companion, table)
    seats = played.game.autoplayer(len(played.names), seed, table)
    if companion.game_id is not None:
        print(f"resumed {companion.game_id}", flush=True)
    print("playing", flush=True)
    play_with_bots(companion, seats, table, UNDO_RATE, seed)
    print(f"won {companion.game_id}", flush=True)
    journal.close()
    return 0


def _life(data: Path, seed: int, figures: KillFigures, kill_after_s: float | None, kind: str, players: int) -> bool:
    """Run one life; True if it was killed while running. Its acknowledgements go into ``figures``."""
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "bench-durability-life", str(data), str(seed), kind, str(players)],
        stdout=subprocess.PIPE,
        stderr=(data / "lives.log").open("a"),
        text=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    playing = threading.Event()  # the life began to play (or its output ended)

    def read() -> None:
        for line in process.stdout:  # type: ignore[union-attr]
            lines.append(line)
            if line.startswith("playing"):
                playing.set()
        playing.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    killed = False
    try:
        if kill_after_s is not None:  # aimed at play: the time is counted from its first move
            playing.wait(FINISH_TIMEOUT_S)
        process.wait(timeout=kill_after_s if kill_after_s is not None else FINISH_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        process.kill()  # SIGKILL: no clean-up of any kind
        process.wait()
        killed = kill_after_s is not None
        if not killed:
            raise RuntimeError(f"a life did not finish its game in {FINISH_TIMEOUT_S:g} s; see {data / 'lives.log'}")
    reader.join()
    if not killed and process.returncode != 0:
        raise RuntimeError(f"a life failed (exit code {process.returncode}); see {data / 'lives.log'}")
    figures.lives += 1
    for line in lines:
        word, *rest = line.split(maxsplit=3)
        if word == "ack":
            figures.acked.append((int(rest[0]), int(rest[1]), rest[2].strip()))
        elif word == "resumed":
            figures.resumed_game(int(rest[0]))
    if killed:
        figures.killed(_unfinished_game(data / JOURNAL_NAME))
        words = {line.split(maxsplit=1)[0] for line in lines if line.strip()}
        if "won" in words:
            figures.after_win += 1
        elif "playing" in words:
            figures.during_play += 1
        else:
            figures.while_starting += 1
    return killed


def _unfinished_game(path: Path) -> int | None:
    """The game a kill left unfinished in the journal at ``path``, if any. A life killed before
    its journal was made (or while making it) left none."""
    if not path.is_file():
        return None
    try:
        journal = Journal(path, read_only=True)
    except JournalError:
        return None
    try:
        record = journal.unfinished()
    finally:
        journal.close()
    return None if record is None else record.id


def run_kill_test(kills: int, seed: int, data: Path, kind: str | None = None, vary_players: bool = False) -> KillFigures:
    """Kill ``kills`` lives at random moments, finish the game of ``kind`` (None: the catalogue's
    first), and check the journal. With ``vary_players`` each life asks for a player count drawn
    from the game's range, as a restart with another ``--players`` would (the game it resumes
    keeps its own); else two."""
    kind = kind or default_kind()
    data.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    counts = list(table_game(kind).players) if vary_players else [2]
    figures = KillFigures()
    with progress(None, "kills", kills) as bar:
        while figures.kills < kills:
            life = (seed * 1000 + figures.lives, figures, rng.uniform(*LIFE_S), kind, rng.choice(counts))
            bar.update(_life(data, *life))
    _life(data, seed * 1000 + figures.lives, figures, None, kind, rng.choice(counts))
    _check(data / JOURNAL_NAME, figures)
    return figures


def _check(path: Path, figures: KillFigures) -> None:
    """Every acknowledged event is in the journal at its place; every game replays; all are finished."""
    journal = Journal(path)
    try:
        events = {record.id: journal.events(record.id) for record in journal.games()}
        for game, seq, event in figures.acked:
            if seq > len(events.get(game, [])) or events[game][seq - 1] != event:
                figures.lost.append((game, seq, event))
        for record in journal.games():
            figures.games += 1
            try:
                final = replay(record, events[record.id])[0]
            except EngineError as error:
                figures.broken_games.append(f"game {record.id}: {error}")
                continue
            ended = record.setup.game.progress(final)
            if record.status != FINISHED or not ended.over or ended.winner != record.winner:
                figures.broken_games.append(f"game {record.id}: {record.status}, replays to winner {ended.winner}")
    finally:
        journal.close()


def kill_test_lines(figures: KillFigures) -> list[str]:
    """The report of ``bench-durability``; its last line is :meth:`KillFigures.line`."""
    lines = [
        f"lives {figures.lives} games {figures.games} acknowledged-events {len(figures.acked)}",
        f"games-resumed-after-kills {figures.resumed} kills-after-a-win {figures.nothing_to_resume}",
        f"kills-during-play {figures.during_play} kills-while-starting {figures.while_starting} "
        f"kills-after-the-winning-move {figures.after_win}",
        *(f"lost: game {g} event {s} {e}" for g, s, e in figures.lost),
        *(f"does not replay to its ending: {b}" for b in figures.broken_games),
        *(f"never resumed: game {g} after {n} kills" for g, n in figures.awaiting.items()),
        figures.line(),
    ]
    return lines
