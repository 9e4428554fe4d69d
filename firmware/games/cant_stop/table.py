"""Can't Stop at the table: what each button means, which screen shows, what the advisor decides.

ROLL reads the four dice just thrown; with runners out STOP banks them; NEXT shows the board;
after a roll NEXT and SELECT pick the split. A roll that leaves no split busts (the bust screen
says so until the next roll), a stop that claims a column says so too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from engine.cant_stop import GAME, STOP, Move, Phase, State, bust_probability, can_stop
from engine.cant_stop.advisor import Advisor
from engine.dice import Roll
from firmware.core.table_game import (
    Action, ByHand, CameraUse, Cursor, NewGame, Options, Play, Progress, Say, ShowBoard, Throw, View, roll_words,
)
from firmware.drawing.screens import Screen
from firmware.games.cant_stop.autoplay import CantStopSeats
from firmware.games.cant_stop.bench_advisor import bench_lines
from firmware.games.cant_stop.screens import (
    BoardScreen,
    BotTurnScreen,
    BustScreen,
    ChoiceScreen,
    ClaimScreen,
    RollScreen,
    WinnerScreen,
    newly_claimed,
    round_of,
)
from firmware.games.cant_stop.setup import OPTIONS, summary, variant_of
from hardware.buttons import Press
from hardware.camera import Toss

ADVISOR = Advisor()


class CantStopTable:
    """Sid Sackson's Can't Stop for 2 to 4 players, with four dice in the tray."""

    kind = GAME.name
    camera: CameraUse = "tray"
    draws = False
    advised = True
    title = "Can't Stop"
    engine = GAME
    players = range(2, 5)
    options = OPTIONS

    def variant(self, options: Options) -> dict[str, Any]:
        return vars(variant_of(options))

    def summary(self, options: Options) -> str:
        return summary(options)

    def progress(self, state: State) -> Progress:
        return Progress(state.winner, state.turn, state.winner is not None or state.phase is Phase.ROLL and not state.runners)

    def round(self, state: State) -> int:
        return round_of(state)

    def doing(self, state: State, names: Sequence[str]) -> str:
        doing = "choosing" if state.phase is Phase.CHOOSE else "runners out" if state.runners else "to roll"
        return f"{names[state.current]}: {doing}"

    def undone_words(self, before: State, move: Any) -> str:
        return roll_words(move.dice) if isinstance(move, Roll) else GAME.move_text(move)  # "2+10", "stop"

    def tray_dice(self, state: State) -> int:
        return GAME.dice_due(state)

    def throw_due(self, state: State) -> bool:
        return GAME.dice_due(state) > 0

    def lying(self, state: State) -> tuple[Toss, ...]:
        return ()  # the next throw says every die it leaves in the tray

    def throw(self, state: State, view: View) -> Toss:
        return Toss(GAME.dice_due(state))

    def told(self, state: State, dice: tuple[int, ...]) -> tuple[Roll]:
        return (Roll(dice),)

    def screen(self, state: State, view: View) -> Screen:
        if state.phase is Phase.OVER:
            return WinnerScreen(state, view.names)
        if state.phase is Phase.CHOOSE:
            options = GAME.legal_moves(state)
            advice = options.index(_advised_choice(state)) if view.hints else None
            return ChoiceScreen(state, view.names, options, view.cursor, view.status, advice, view.proxy)  # type: ignore[arg-type]
        advice = ("STOP" if _advised_stop(state) else "ROLL") if view.hints and can_stop(state) else ""
        return RollScreen(state, view.names, bust_probability(state), view.status, advice, view.proxy, view.bot_to_decide)

    def press(self, state: State, press: Press, view: View) -> Action:
        if state.phase is Phase.CHOOSE:
            options = GAME.legal_moves(state)
            if press is Press.NEXT:
                return Cursor((view.cursor + 1) % len(options))
            if press is Press.SELECT:
                return Play(options[view.cursor])
            return Say("choose:NEXT,SELECT")
        if state.phase is Phase.OVER:
            return ShowBoard() if press is Press.NEXT else NewGame() if press is Press.SELECT else None
        if press is Press.ROLL:
            return Throw()
        if press is Press.SELECT:
            return ByHand()
        if press is Press.STOP and view.bot_to_decide:
            return Say(f"{view.names[state.current]} decides")
        if press is Press.STOP:
            return Play(STOP) if can_stop(state) else Say("nothing to bank")
        return ShowBoard() if press is Press.NEXT else None

    def after_move(self, before: State, move: Move | Roll, after: State, names: Sequence[str]) -> Screen | None:
        if after.phase is not Phase.ROLL:
            return None
        if isinstance(move, Roll):
            return BustScreen(after, tuple(names), before.current, move.dice)
        claimed = newly_claimed(before, after)
        return ClaimScreen(after, tuple(names), before.current, claimed) if move == STOP and claimed else None

    def board(self, state: State, names: Sequence[str]) -> Screen:
        return BoardScreen(state, tuple(names))

    def bot_move(self, state: State) -> Move | None:
        if state.phase is Phase.CHOOSE:
            return ADVISOR.choose(state, GAME.legal_moves(state))  # type: ignore[arg-type]
        if state.phase is Phase.ROLL and can_stop(state) and ADVISOR.should_stop(state):
            return STOP
        return None  # its dice are to be thrown

    def bot_screen(self, shown: Screen | None, before: State, move: Move, after: State, names: Sequence[str]) -> Screen:
        screen = shown if isinstance(shown, BotTurnScreen) else BotTurnScreen(after, tuple(names), before.current)
        if move == STOP:
            return replace(screen, state=after, columns=newly_claimed(before, after))
        assert before.dice is not None
        return replace(screen, state=after, dice=before.dice.dice, took=GAME.move_text(move))

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        return bench_lines(games, seed)

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> CantStopSeats:
        return CantStopSeats.demo(seats, seed)


@functools.lru_cache(maxsize=64)
def _advised_choice(state: State) -> Move:
    """The advisor's split for ``state`` (cached: the screen is redrawn for every camera frame)."""
    return ADVISOR.choose(state, GAME.legal_moves(state))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=64)
def _advised_stop(state: State) -> bool:
    return ADVISOR.should_stop(state)


TABLE = CantStopTable()
