"""What the web page shows, read from the journal: the game in progress, the games played, one
game step by step, and the dice statistics. Pure functions of a read-only journal, so the page
never writes, never holds the journal longer than one read, and shows what the companion journaled
(the screen's truth: the state is the replay of the journal)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from engine.dice import Roll
from engine.errors import EngineError
from firmware.core.catalogue import web_view
from firmware.drawing.facts import Fact
from firmware.journal import dice_stats
from firmware.journal.history import duration_text
from firmware.journal.journal import UNDO, Journal
from firmware.journal.rows import GameRecord


@dataclass(frozen=True)
class Picture:
    """A game at one moment: its board drawn as SVG, the lines the OLED would show beside it, and
    the moves just made in words, the latest first."""

    svg: str
    facts: list[Fact]
    moves: list[str]


@dataclass(frozen=True)
class Replay:
    """A game's events replayed: the state they reach, each event in words (an undo says which
    move it took back), and the words of the moves still standing. From an event that does not
    replay on, ``steps`` are the journal's own texts and ``problem`` says why."""

    state: Any
    steps: list[str]
    standing: list[str]
    problem: EngineError | None = None


RECENT = 3  # moves the page names under the board's facts
LEFT_LYING = "the dice left lying"  # a keep nobody chose from the list: worked out from the tray


def replay(record: GameRecord, events: Sequence[str], sources: Sequence[str | None] = ()) -> Replay:
    """``events`` replayed through the game's engine, each move said by the game's web view; an
    undo takes back the latest move standing, as :func:`firmware.journal.journal.standing_moves`.
    ``sources`` (each event's, from the journal): a move other than a roll with a source was
    worked out from the dice read in the tray (a keep: the dice left lying), and is said so."""
    engine, names, view = record.setup.game.engine, record.setup.names, web_view(record.setup.kind)
    state = record.setup.new_state()
    earlier: list[Any] = []  # the state before each move standing
    steps: list[str] = []
    standing: list[str] = []
    for at, event in enumerate(events):
        if event == UNDO:
            if standing:
                state = earlier.pop()
                steps.append(f"Took back: {standing.pop()}")
            else:
                steps.append("Undo (nothing to take back)")
            continue
        try:
            move = engine.parse_move(event)
            after = engine.apply(state, move)
        except EngineError as error:
            return Replay(state, steps + list(events[at:]), standing, error)
        said = view.move_words(state, move, after, names)
        if at < len(sources) and sources[at] is not None and not isinstance(move, Roll):
            said += f" ({LEFT_LYING})"
        earlier.append(state)
        state = after
        steps.append(said)
        standing.append(said)
    return Replay(state, steps, standing)


def picture(record: GameRecord, replayed: Replay) -> Picture:
    """The board the replayed events reach (undos applied), its facts and the moves just made;
    EngineError if the events do not replay."""
    if replayed.problem is not None:
        raise replayed.problem
    view, names = web_view(record.setup.kind), record.setup.names
    recent = replayed.standing[-RECENT:][::-1]
    return Picture(view.board_svg(replayed.state, names), view.facts(replayed.state, names), recent)


NO_GAME = {"version": "none", "game": None, "message": "No game has been played yet."}


def live(journal: Journal) -> dict[str, Any]:
    """The game being played (else the last one played) as JSON: a ``version`` that changes with
    every event, so the page redraws only when something happened."""
    record = journal.live_game()
    if record is None:
        return NO_GAME
    events, sources = _sourced(journal, record.id)
    about = summary(record)
    version = f"{record.id}:{len(events)}:{record.status}"
    try:
        shown = picture(record, replay(record, events, sources))
    except EngineError as error:
        return {"version": version, "game": about, "message": f"Game {record.id} does not replay: {error}"}
    return {"version": version, "game": about, "svg": shown.svg, "facts": shown.facts, "moves": shown.moves,
            "last": events[-1] if events else ""}


def summary(record: GameRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "title": record.setup.game.title,
        "kind": record.setup.kind,
        "players": list(record.setup.names),
        "rules": record.setup.rules_words(),  # the title is beside it: "standard rules, 3 columns to win"
        "status": record.status,
        "winner": None if record.winner is None else record.setup.names[record.winner],
        "turns": record.turns,
        "started": time.strftime("%Y-%m-%d %H:%M", time.localtime(record.started)),
        "length": duration_text(record.duration_s),
    }


def history(journal: Journal) -> dict[str, Any]:
    """Every game, newest first, with how it ended; damaged games named apart, never a crash."""
    sound, damaged_games = journal.sound_and_damaged()  # one reading: each scans every event
    games = [summary(r) for r in reversed(sound)]  # playing, finished and abandoned alike
    damaged = [{"id": str(d.id), "why": d.why} for d in damaged_games]
    return {"games": games, "damaged": damaged}


def steps(journal: Journal, game: int) -> tuple[GameRecord, list[str], list[str | None]] | None:
    """A game's record, its events and their sources, or None when there is no such game (its own rows only)."""
    record = journal.game(game)
    return None if record is None else (record, *_sourced(journal, game))


def _sourced(journal: Journal, game: int) -> tuple[list[str], list[str | None]]:
    sourced = journal.sourced_events(game)
    return [event for event, _ in sourced], [source for _, source in sourced]


def statistics(journal: Journal, ended: dice_stats.GameRolls | None = None) -> dict[str, Any]:
    """The dice statistics as JSON: a summary; per dice set and source and overall, the face
    counts, the chi-square test (its figures None while too few dice tell nothing) with its plain
    sentence and the expected band; the bust rate met against the exact odds (Can't Stop).
    ``ended`` keeps the rolls of ended games between readings."""
    rolled, left_out = dice_stats.rolls_and_left_out(journal, ended)
    groups = []
    shown: dict[frozenset[dice_stats.Group], dict[str, Any]] = {}
    kinds = {(roll.dice_set, roll.source) for roll in rolled}  # a group's rolls are those of the kinds it holds
    for group, counts in dice_stats.face_counts(rolled).items():
        members = frozenset(kind for kind in kinds if group in ((None, None), (None, kind[1]), (kind[0], None), kind))
        if members in shown and members:  # the same rolls as a group shown: named by the more specific
            shown[members]["group"] = _group_name(group)
            continue
        result = dice_stats.chi_square(counts)
        band = dice_stats.face_band(sum(counts))
        tells = dice_stats.tells(result)
        shown[members] = {
            "group": _group_name(group),
            "counts": list(counts),
            "dice": sum(counts),
            "chi_square": round(result.statistic, 3) if tells else None,
            "dof": result.dof,
            "p_value": result.p_value if tells else None,
            "sentence": dice_stats.fairness_sentence(result),
            "band": asdict(band),
        }
        groups.append(shown[members])
    bins = [asdict(b) | {"odds": b.odds, "rate": b.rate} for b in dice_stats.bust_calibration(rolled)]
    sources = Counter(roll.source for roll in rolled)
    said = ", ".join(f"{count} {SOURCE_WORDS.get(source, source)}" for source, count in sources.most_common())
    return {"summary": _summary(len(rolled), said, groups[0], len(left_out)), "groups": groups, "bust": bins,
            "rolls": len(rolled), "sources": said, "left_out": len(left_out)}


def _summary(rolls: int, sources: str, overall: dict[str, Any], left_out: int) -> str:
    """The statistics page's first line: the rolls, and the test of all dice, its figures only
    where there are dice enough for them to mean something."""
    if overall["p_value"] is None:
        test = f"too few dice ({overall['dice']:,}) to tell yet."
    else:
        test = f"χ² = {overall['chi_square']} with {overall['dof']} degrees of freedom, p = {overall['p_value']:.3g}."
    damaged = f" {_counted(left_out, 'damaged game')} left out: see History." if left_out else ""
    return f"{_counted(rolls, 'roll')} at the table ({sources or 'none yet'}). All dice: {test}{damaged}"


def _counted(count: int, thing: str) -> str:
    """"1 roll", "2 rolls": a count in the right number ("1 rolls" read as a slip)."""
    return f"{count} {thing}{'s' * (count != 1)}"


SOURCE_WORDS = {"camera": "read by the camera", "hand": "entered by hand", "unknown": "from before sources were kept"}


def _group_name(group: dice_stats.Group) -> str:
    """"all dice", "all dice read by the camera", 'set "red casino"', 'set "dice" entered by hand'..."""
    dice_set, source = group
    named = f'set "{dice_set}"' if dice_set else "all dice"
    return f"{named}{' ' + SOURCE_WORDS.get(source, source) if source else ''}"
