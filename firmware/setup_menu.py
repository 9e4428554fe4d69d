"""The set-up screen's logic: NEXT changes the highlighted value, SELECT moves on, STOP goes back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from firmware.game_setup import RULES, GameSetup, columns_to_win_choices, player_counts
from firmware.screens import SetupScreen
from hardware.buttons import Press

START_FIELD = 3  # the line after players, columns and rules
T = TypeVar("T")


def first_menu(defaults: GameSetup) -> SetupScreen:
    return SetupScreen(len(defaults.names), defaults.columns_to_win, defaults.rule, 0)


def menu_after(menu: SetupScreen, press: Press) -> SetupScreen:
    """The menu after a press (SELECT on the start line is the caller's: it starts the game)."""
    if press is Press.NEXT and menu.field == 0:
        players = _after(player_counts(), menu.players)
        most = columns_to_win_choices(players)[-1]
        return replace(menu, players=players, columns_to_win=min(menu.columns_to_win, most))
    if press is Press.NEXT and menu.field == 1:
        return replace(menu, columns_to_win=_after(columns_to_win_choices(menu.players), menu.columns_to_win))
    if press is Press.NEXT and menu.field == 2:
        return replace(menu, rule=_after(RULES, menu.rule))
    if press is Press.SELECT and menu.field < START_FIELD:
        return replace(menu, field=menu.field + 1)
    if press is Press.STOP and menu.field > 0:
        return replace(menu, field=menu.field - 1)
    return menu


def chosen_setup(defaults: GameSetup, menu: SetupScreen) -> GameSetup:
    """The game the menu sets up: the configured names for the seats, P3 and P4 beyond them.
    The advisor plays the configured bot seats among them, but never all: then seat 1 is a person."""
    names = tuple(defaults.name(seat) for seat in range(menu.players))
    bots = tuple(name for name in defaults.bots if name in names)
    if len(bots) == len(names):
        bots = tuple(name for name in bots if name != names[0])
    return GameSetup(names, menu.rule, menu.columns_to_win, bots, defaults.hints)


def _after(options: Sequence[T], current: T) -> T:
    """The option after ``current``, wrapping round."""
    return options[(list(options).index(current) + 1) % len(options)]
