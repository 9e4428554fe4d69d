"""``dice-companion history``: the games in the journal and each player's record, per game kind."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator

from firmware.journal.journal import ABANDONED, FINISHED, PLAYING, GameRecord, Journal


def duration_text(seconds: float | None) -> str:
    """A game's length as ``history`` and the page write it: "12m05s" ("-": not ended)."""
    if seconds is None:
        return "-"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m{secs:02d}s"


def game_line(record: GameRecord) -> str:
    """One game: when, who, which rules, how it ended, turns and time taken."""
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(record.started))
    if record.winner is not None:
        ended = f"winner {record.setup.names[record.winner]}"
    else:
        ended = "draw" if record.status == FINISHED else "winner -"
    return (
        f"game {record.id}  {started}  {', '.join(record.setup.names)}  {record.setup.describe()}"
        f"  {record.status}  {ended}  turns {record.turns}  took {duration_text(record.duration_s)}"
    )


def printable(text: str) -> str:
    """``text`` with every control character escaped (``\\x1b``): what the journal holds is printed
    to terminals, where a name written by an older version or by damage must not act as a command."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def history_lines(journal: Journal) -> Iterator[str]:
    """Per game kind: every finished and abandoned game, then per player: games, wins, abandoned,
    win rate. A damaged game is named and left out of the records, so the rest can still be read.
    Control characters are escaped."""
    return (printable(line) for line in _lines(journal))


def _lines(journal: Journal) -> Iterator[str]:
    sound, damaged = journal.sound_and_damaged()  # one reading: each scans every event
    records = [r for r in sound if r.status in (FINISHED, ABANDONED)]
    yield from (f"game {game.id}  damaged: {game.why}" for game in damaged)
    if not records:
        playing = [r for r in sound if r.status == PLAYING]
        yield "no finished or abandoned games yet" + "".join(
            f"; game {r.id} is being played ({r.setup.game.title}: {', '.join(r.setup.names)})" for r in playing)
        return
    for kind in dict.fromkeys(record.setup.kind for record in records):  # in the order first played
        of_kind = [record for record in records if record.setup.kind == kind]
        yield f"== {of_kind[0].setup.game.title} ({kind}): {len(of_kind)} game{'s' * (len(of_kind) != 1)}"
        yield from (game_line(record) for record in of_kind)
        yield from _records(of_kind)


def _records(records: list[GameRecord]) -> Iterator[str]:
    """Each player's games, wins, abandoned games and win rate, best first."""
    played, won, abandoned = Counter[str](), Counter[str](), Counter[str]()
    for record in records:
        for name in record.setup.names:
            played[name] += 1
            abandoned[name] += record.status == ABANDONED
        if record.winner is not None:
            won[record.setup.names[record.winner]] += 1
    width = max(len("player"), *(len(name) for name in played))
    yield f"{'player':<{width}}  games  won  abandoned  win-rate"
    for name in sorted(played, key=lambda n: (-won[n], n)):
        decided = played[name] - abandoned[name]
        rate = f"{100 * won[name] / decided:.1f}%" if decided else "-"
        yield f"{name:<{width}}  {played[name]:>5}  {won[name]:>3}  {abandoned[name]:>9}  {rate:>8}"
