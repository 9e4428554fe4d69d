"""Get Your Counters to the Top at the table.

Five dice lie in the tray. ROLL reads them after a throw: at a turn's start all five, later the
whole tray again, where the dice set aside simply stayed (the companion works out which were
kept; a keep chosen from the list says so beforehand, and then the kept dice must still be
there). The companion counts the throws (three at most), shows the dice and the best use now;
SELECT lists every choice: the options the dice give and the dice to keep. The handicap at the
start and a rocket's extra square are chosen from lists too. NEXT shows every player's board.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from engine.counters import GAME, Phase, Rocket, State, Take
from engine.counters.moves import DICE
from engine.counters.rules import MAX_THROWS
from firmware.core.table_game import (
    CameraUse,
    Action,
    AutoSeats,
    ByHand,
    Cursor,
    NewGame,
    Options,
    Play,
    Progress,
    Say,
    ShowBoard,
    Throw,
    View,
    opened_on,
)
from firmware.drawing.screens import Screen
from firmware.games.counters import setup
from firmware.games.counters.choices import best_now, listed
from firmware.games.counters.labels import SHORT_KINDS, move_label, option_label, wild_words
from firmware.games.counters.screens import (
    BoardScreen,
    BotHandicapScreen,
    BotTurnScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
    round_of,
)
from firmware.games.five_dice import FiveDiceTray
from hardware.buttons import Press


class CountersTable(FiveDiceTray):
    """Klaus-Jürgen Wrede's Get Your Counters to the Top for 2 to 4 players, five dice in the tray."""

    kind = GAME.name
    camera: CameraUse = "tray"
    draws = False
    advised = True
    title = "Counters to Top"
    engine = GAME
    players = range(2, 5)
    options = setup.OPTIONS

    def variant(self, options: Options) -> dict[str, Any]:
        return setup.variant_of(options)

    def summary(self, options: Options) -> str:
        return setup.summary(options)

    def progress(self, state: State) -> Progress:
        turn_over = state.winner is not None or state.phase is Phase.THROW and state.throws == 0
        return Progress(state.winner, max(1, state.turn), turn_over)

    def round(self, state: State) -> int:
        return round_of(state)

    def choice_words(self, before: State, move: Any) -> str:
        return move_label(move, before.phase)  # "2P 1+2", "keep 2445", "rocket 7"

    def doing(self, state: State, names: Sequence[str]) -> str:
        doing = {
            Phase.HANDICAP: "handicap", Phase.ROCKET: "rocket",
            Phase.THROW: f"throw {state.throws + 1}/{MAX_THROWS}", Phase.CHOOSE: f"after throw {state.throws}",
        }.get(state.phase, "won")
        return f"{names[state.current]}: {doing}"

    def tray_dice(self, state: State) -> int:
        rethrow = state.phase is Phase.CHOOSE and state.throws < MAX_THROWS
        return DICE if state.phase is Phase.THROW or rethrow else 0

    def throw_due(self, state: State) -> bool:
        return state.phase is Phase.THROW

    def screen(self, state: State, view: View) -> Screen:
        if state.phase is Phase.OVER:
            return WinnerScreen(state, view.names)
        if state.phase is Phase.THROW:
            return ThrowScreen(state, view.names, view.status, view.proxy)
        moves = listed(state)
        if state.phase is Phase.CHOOSE and view.cursor == 0:
            best = best_now(state)
            tip, chances = _hint(state) if view.hints else ("", ())
            label, wild = (option_label(best.option), wild_words(best.option)) if best else ("", "")
            return DiceScreen(state, view.names, label, tip, chances, view.status, view.proxy, wild)
        pick = _advised(state) if view.hints else None
        cursor = opened_on(moves, pick, view.cursor - 1 if state.phase is Phase.CHOOSE else view.cursor)
        advice = moves.index(pick) if pick in moves else None  # starred; the list opens on it
        return MovesScreen(state, view.names, moves, cursor, advice, view.status, view.proxy)

    def press(self, state: State, press: Press, view: View) -> Action:
        if state.phase is Phase.OVER:
            return ShowBoard() if press is Press.NEXT else NewGame() if press is Press.SELECT else None
        if state.phase is Phase.THROW:
            return Throw() if press is Press.ROLL else ByHand() if press is Press.SELECT else (
                ShowBoard() if press is Press.NEXT else None)
        if state.phase is Phase.CHOOSE and view.cursor == 0:
            if press is Press.ROLL and self.tray_dice(state):
                return Throw()
            if press is Press.ROLL:
                return Say("3 throws: SELECT")
            return Cursor(1) if press is Press.SELECT else ShowBoard() if press is Press.NEXT else None
        moves = listed(state)
        shift = 1 if state.phase is Phase.CHOOSE else 0  # in the choice phase, cursor 0 is the dice
        offset = view.cursor - shift  # rows from the one the list opens on
        index = opened_on(moves, _advised(state) if view.hints else None, offset)
        if press is Press.NEXT:
            return Cursor((offset + 1) % len(moves) + shift)
        if press is Press.SELECT and view.bot_to_decide:
            return Say(f"{view.names[state.current]} decides")
        if press is Press.SELECT:
            return Play(moves[index])
        if press is Press.STOP and shift:
            return Cursor(0)
        return Say("choose:NEXT,SELECT")

    def after_move(self, before: State, move: Any, after: State, names: Sequence[str]) -> Screen | None:
        if after.winner is not None or after.current == before.current or before.phase is Phase.HANDICAP:
            return None
        took = option_label(move.option) if isinstance(move, Take) else move_label(move) if isinstance(move, Rocket) else ""
        took = "no rocket" if before.phase is Phase.ROCKET and not isinstance(move, Rocket) else took
        return TurnOverScreen(after, tuple(names), before.current, took, _cooled(before, after))

    def board(self, state: State, names: Sequence[str]) -> Screen:
        return BoardScreen(state, tuple(names))

    def bot_move(self, state: State) -> Any | None:
        if state.phase in (Phase.HANDICAP, Phase.CHOOSE, Phase.ROCKET):
            return _advised(state)
        return None

    def bot_screen(self, shown: Screen | None, before: State, move: Any, after: State, names: Sequence[str]) -> Screen:
        label = move_label(move, before.phase)
        if before.phase is Phase.HANDICAP:  # the bots' handicaps follow each other before anyone threw
            moved = shown if isinstance(shown, BotHandicapScreen) else BotHandicapScreen(after, tuple(names))
            return replace(moved, state=after, moved=(*moved.moved, (before.current, label)))
        screen = shown if isinstance(shown, BotTurnScreen) else BotTurnScreen(after, tuple(names), before.current, before.dice)
        return replace(screen, state=after, did=(*screen.did, label))

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        from firmware.games.counters.bench_advisor import bench_lines

        return bench_lines(games, seed)

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> AutoSeats:
        from firmware.games.counters.autoplay import CountersSeats

        return CountersSeats.demo(seats, seed)


def _cooled(before: State, after: State) -> tuple[int, ...]:
    """Columns where a counter of another player went down."""
    return tuple(
        column for column in range(len(after.board.columns))
        if any(after.square(p, column) < before.square(p, column) for p in range(after.players) if p != before.current)
    )


@functools.lru_cache(maxsize=1)
def _advisor() -> Any:
    """The advisor, built on first use (its tables of throws take a moment)."""
    from engine.counters.advisor import Advisor

    return Advisor()


@functools.lru_cache(maxsize=64)
def _advised(state: State) -> Any:
    """The advisor's decision (cached: the screen is redrawn for every camera frame)."""
    return _advisor().choose(state)


@functools.lru_cache(maxsize=64)
def _hint(state: State) -> tuple[str, tuple[tuple[str, float], ...]]:
    """The advisor's tip for the dice screen, and after a keep the chances of the best options
    within reach (a take's own option, certain, would only say it twice: "take big big 100%")."""
    advice = _advisor().advise(state)
    if isinstance(advice.move, Take):
        return "take " + move_label(advice.move), ()
    return move_label(advice.move, state.phase), tuple((SHORT_KINDS[kind], share) for kind, share in advice.chances)


TABLE = CountersTable()
