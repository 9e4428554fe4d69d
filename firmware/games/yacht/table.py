"""Yacht at the table.

Five dice lie in the tray. ROLL reads them after a roll: at a turn's start all five, later the
whole tray again, where the dice set aside simply stayed (the companion works out which were kept,
as in Counters; a keep chosen from the list says so beforehand, and then the kept dice must still
be there). The companion counts the rolls (three at most) and shows the dice with what every box
they may go in would score now, and with hints the advisor's pick and its expected final score;
SELECT lists every choice, the boxes first (a player may score after any roll), then the keeps.
NEXT shows every player's scorecard.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from engine.keeps import DICE
from engine.yacht import GAME, MAX_ROLLS, Phase, Score, State, filled, points_for, round_number, total
from engine.yacht.boxes import earns_extra_yacht
from firmware.core.table_game import (
    Action,
    AutoSeats,
    ByHand,
    CameraUse,
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
from firmware.drawing.screens import Screen, player_mark
from firmware.games.five_dice import FiveDiceTray
from firmware.games.yacht.choices import advised, expected, listed
from firmware.games.yacht.screens import (
    BotTurnScreen,
    CardScreen,
    ChoicesScreen,
    DiceScreen,
    SHORT,
    RollScreen,
    ScoredScreen,
    WinnerScreen,
    tip_label,
)
from hardware.buttons import Press


class YachtTable(FiveDiceTray):
    """Yacht (the scorecard game sold as Yahtzee) for 1 to 4 players, five dice in the tray."""

    kind = GAME.name
    camera: CameraUse = "tray"
    draws = True  # equal totals share the win
    advised = True
    title = "Yacht"
    engine = GAME
    players = range(1, 5)
    options = ()

    def variant(self, options: Options) -> dict[str, Any]:
        return {}

    def summary(self, options: Options) -> str:
        return ""

    def progress(self, state: State) -> Progress:
        over = state.phase is Phase.OVER
        begun = sum(filled(card) for card in state.cards) + (not over and state.rolls > 0)
        turn_over = over or state.phase is Phase.ROLL and state.rolls == 0
        return Progress(state.winner, max(1, begun), turn_over, drawn=over and state.winner is None)

    def round(self, state: State) -> int:
        return round_number(state)

    def choice_words(self, before: State, move: Any) -> str:
        if isinstance(move, Score):  # "FH 25": the card's letters, the points it took
            return f"{SHORT[move.box]} {points_for(before.card, move.box, before.dice)}"
        return "keep " + ("".join(map(str, move.dice)) or "none")

    def doing(self, state: State, names: Sequence[str]) -> str:
        over = f"{total(state, 0)} points" if state.players == 1 else "over"  # solitaire: the score is the result
        doing = {Phase.ROLL: f"roll {state.rolls + 1}/{MAX_ROLLS}", Phase.CHOOSE: f"after roll {state.rolls}"}
        return f"{names[state.current]}: {doing.get(state.phase, over)}"

    def tray_dice(self, state: State) -> int:
        again = state.phase is Phase.CHOOSE and state.rolls < MAX_ROLLS
        return DICE if state.phase is Phase.ROLL or again else 0

    def throw_due(self, state: State) -> bool:
        return state.phase is Phase.ROLL

    def screen(self, state: State, view: View) -> Screen:
        if state.phase is Phase.OVER:
            return WinnerScreen(state, view.names)
        if state.phase is Phase.ROLL:
            return RollScreen(state, view.names, view.status, view.proxy)
        pick = advised(state) if view.hints else None
        if view.cursor == 0:
            if pick is None:
                return DiceScreen(state, view.names, status=view.status, proxy=view.proxy)
            box = pick.box if isinstance(pick, Score) else None
            return DiceScreen(state, view.names, tip_label(state, pick), expected(state, pick), box, view.status, view.proxy)
        moves = listed(state)
        values = tuple(expected(state, move) for move in moves) if view.hints else ()
        advice = moves.index(pick) if pick in moves else None  # starred; the list opens on it
        cursor = opened_on(moves, pick, view.cursor - 1)
        return ChoicesScreen(state, view.names, moves, cursor, advice, values, view.status, view.proxy)

    def press(self, state: State, press: Press, view: View) -> Action:
        if state.phase is Phase.OVER:
            return ShowBoard() if press is Press.NEXT else NewGame() if press is Press.SELECT else None
        if state.phase is Phase.ROLL:
            return Throw() if press is Press.ROLL else ByHand() if press is Press.SELECT else (
                ShowBoard() if press is Press.NEXT else None)
        if view.cursor == 0:
            if press is Press.ROLL:
                return Throw() if self.tray_dice(state) else Say(f"{MAX_ROLLS} rolls: SELECT")
            return Cursor(1) if press is Press.SELECT else ShowBoard() if press is Press.NEXT else None
        moves = listed(state)
        offset = view.cursor - 1  # cursor 0 is the dice; then rows from the one the list opens on
        index = opened_on(moves, advised(state) if view.hints else None, offset)
        if press is Press.NEXT:
            return Cursor((offset + 1) % len(moves) + 1)
        if press is Press.SELECT and view.bot_to_decide:
            return Say(f"{view.names[state.current]} decides")
        if press is Press.SELECT:
            return Play(moves[index])
        if press is Press.STOP:
            return Cursor(0)
        return Say("choose:NEXT,SELECT")

    def after_move(self, before: State, move: Any, after: State, names: Sequence[str]) -> Screen | None:
        if isinstance(move, Score) and after.phase is Phase.OVER:  # the winner, with the scoring that ended it
            return WinnerScreen(after, tuple(names), f"{player_mark(before.current)} {tip_label(before, move)}")
        if not isinstance(move, Score):
            return None
        points = points_for(before.card, move.box, before.dice)
        extra = earns_extra_yacht(before.card, before.dice)
        return ScoredScreen(after, tuple(names), before.current, move.box, points, extra)

    def board(self, state: State, names: Sequence[str]) -> Screen:
        return CardScreen(state, tuple(names))

    def bot_move(self, state: State) -> Any | None:
        return advised(state) if state.phase is Phase.CHOOSE else None

    def bot_screen(self, shown: Screen | None, before: State, move: Any, after: State, names: Sequence[str]) -> Screen:
        screen = shown if isinstance(shown, BotTurnScreen) else BotTurnScreen(
            after, tuple(names), before.current, before.dice, rolls=before.rolls)
        return replace(screen, state=after, did=(*screen.did, tip_label(before, move)))

    def bench_advisor(self, games: int, seed: int) -> Iterator[str]:
        from firmware.games.yacht.bench_advisor import bench_lines

        return bench_lines(games, seed)

    def autoplayer(self, seats: int, seed: int, table: Any = None) -> AutoSeats:
        from firmware.games.yacht.autoplay import YachtSeats

        return YachtSeats.demo(seats, seed)


TABLE = YachtTable()
