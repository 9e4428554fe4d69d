"""Entering the dice with the buttons, when the camera is missing or the players overrule it."""

from __future__ import annotations

from dataclasses import replace

from engine.dice import FACES, Roll
from firmware.drawing.screens import ManualEntryScreen
from hardware.buttons import Press


def start_entry(player: str, count: int) -> ManualEntryScreen:
    """``count`` dice (all that lie in the tray) at 1, the first one highlighted."""
    return ManualEntryScreen(player, (FACES[0],) * count, 0)


def entry_after(entry: ManualEntryScreen, press: Press) -> ManualEntryScreen | Roll | None:
    """NEXT: the current die shows one more (6 wraps to 1); SELECT: the next die, or the roll
    after the last; STOP: the die before, or None (cancelled) from the first."""
    if press is Press.NEXT:
        values = list(entry.values)
        values[entry.index] = values[entry.index] % FACES[-1] + 1
        return replace(entry, values=tuple(values))
    if press is Press.SELECT:
        if entry.index + 1 == len(entry.values):
            return Roll(entry.values)
        return replace(entry, index=entry.index + 1)
    if press is Press.STOP:
        return replace(entry, index=entry.index - 1) if entry.index else None
    return entry
