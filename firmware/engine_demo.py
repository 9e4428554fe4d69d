"""A whole seeded game between two simple bots, narrated turn by turn with the board."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.cant_stop import STOP, Variant
from engine.cant_stop.bots import OddsBot, SteadyBot
from engine.dice import Roll
from firmware.board_text import board_text, player_mark
from firmware.selfplay import play


def run_engine_demo(seed: int, variant: Variant | None = None, out: Callable[[str], None] = print) -> int:
    """Play and print one game; returns the winner's index."""
    bots = (SteadyBot(), OddsBot())
    out(f"Can't Stop, seed {seed}: A = {bots[0].name} bot, B = {bots[1].name} bot")
    line: list[str] = []
    for step in play(bots, random.Random(seed), variant):
        who = player_mark(step.before.current)
        if isinstance(step.event, Roll):
            line.append(f"{step.event.text()}" + (" BUST" if step.busted else ""))
        elif step.event == STOP:
            line.append("stop")
        else:
            line[-1] += f" -> {step.event}"
        if step.after.current != step.before.current or step.after.winner is not None:
            out(f"\nturn {step.before.turn}, {who}: " + "; ".join(line))
            out(board_text(step.after))
            line = []
    winner = step.after.winner
    assert winner is not None
    out(f"\n{player_mark(winner)} wins on turn {step.after.turn}, "
        f"columns {', '.join(map(str, step.after.claimed_by(winner)))}")
    return winner
