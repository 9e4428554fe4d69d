"""The set-up screen's logic: the game first (the last one played), the players, then the game's
own options, and with a camera a row that opens the dice lesson; NEXT changes the highlighted
value (on the dice row: starts the lesson), SELECT moves on, STOP goes back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from firmware.core.catalogue import games, table_game
from firmware.core.game_setup import GameSetup
from firmware.core.table_game import SetupOption, TableGame
from firmware.drawing.screens import SetupScreen
from hardware.buttons import Press

GAME_FIELD, PLAYERS_FIELD = 0, 1
T = TypeVar("T")


@dataclass(frozen=True)
class Menu:
    """The set-up being chosen and the highlighted field (the last field + 1 is the start line)."""

    kind: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)  # the game's options on the screen
    field: int = 0
    learn_dice: bool = False  # a row for the dice lesson (a camera reads the dice), in the games that read dice

    @property
    def game(self) -> TableGame:
        return table_game(self.kind)

    @property
    def shown_options(self) -> tuple[SetupOption, ...]:
        """The options on the screen: those with choices, and whose ``needs`` is set."""
        return tuple(
            option for option in self.game.options
            if option.choices is not None and (option.needs is None or self.options.get(option.needs) not in (0, False, "none", None))
        )

    @property
    def lesson_shown(self) -> bool:
        """The dice lesson's row is there: a camera, and a game whose dice it reads (not Columns)."""
        return self.learn_dice and self.game.camera != ""

    @property
    def lesson_field(self) -> int | None:
        """The dice lesson's row, after the game's options; None without one."""
        return PLAYERS_FIELD + 1 + len(self.shown_options) if self.lesson_shown else None

    @property
    def start_field(self) -> int:
        return PLAYERS_FIELD + 1 + len(self.shown_options) + self.lesson_shown

    def screen(self) -> SetupScreen:
        rows = [("Game", self.game.title), ("Players", str(self.players))]
        rows += [(option.label, option.shown(self.options[option.key])) for option in self.shown_options]
        rows += [("Dice", "teach camera")] if self.lesson_shown else []
        return SetupScreen(tuple(rows), self.field, "learn" if self.field == self.lesson_field else "change")


def first_menu(defaults: GameSetup, kind: str | None = None, learn_dice: bool = False) -> Menu:
    """The menu at start: the game ``kind`` (the last played) or the configured one, the configured
    set-up; ``learn_dice`` adds the dice lesson's row."""
    return _for_game(defaults, kind or defaults.kind, len(defaults.names), learn_dice=learn_dice)


def _for_game(defaults: GameSetup, kind: str, players: int, field_: int = 0, learn_dice: bool = False) -> Menu:
    game = table_game(kind)
    players = min(max(players, game.players[0]), game.players[-1])
    options = replace(defaults, kind=kind).game_options()
    menu = Menu(kind, players, {}, field_, learn_dice)
    return replace(menu, options=_fitted(menu.shown_options, options, players))


def _fitted(shown: Sequence[SetupOption], options: dict[str, Any], players: int) -> dict[str, Any]:
    """The options with each shown one moved to a value allowed for ``players`` (the largest below, else the first)."""
    fitted = dict(options)
    for option in shown:
        assert option.choices is not None
        allowed = option.choices(players)
        if fitted[option.key] not in allowed:
            below = [value for value in allowed if not isinstance(value, str) and value <= fitted[option.key]]
            fitted[option.key] = below[-1] if below else allowed[0]
    return fitted


def menu_after(menu: Menu, press: Press, defaults: GameSetup) -> Menu:
    """The menu after a press (SELECT on the start line and NEXT on the dice row are the caller's:
    they start the game and the lesson)."""
    if press is Press.NEXT and menu.field == GAME_FIELD:
        return _for_game(defaults, _after([game.kind for game in games()], menu.kind), menu.players, GAME_FIELD,
                         menu.learn_dice)
    if press is Press.NEXT and menu.field == PLAYERS_FIELD:
        players = _after(menu.game.players, menu.players)
        return replace(menu, players=players, options=_fitted(menu.shown_options, menu.options, players))
    if press is Press.NEXT and PLAYERS_FIELD < menu.field < menu.start_field and menu.field != menu.lesson_field:
        option = menu.shown_options[menu.field - PLAYERS_FIELD - 1]
        assert option.choices is not None
        chosen = _after(option.choices(menu.players), menu.options[option.key])
        return replace(menu, options={**menu.options, option.key: chosen})
    if press is Press.SELECT and menu.field < menu.start_field:
        return replace(menu, field=menu.field + 1)
    if press is Press.STOP and menu.field > 0:
        return replace(menu, field=menu.field - 1)
    return menu


def chosen_setup(defaults: GameSetup, menu: Menu) -> GameSetup:
    """The game the menu sets up: the configured names for the seats, P3 and P4 beyond them, and
    the configured dice. The advisor plays the configured bot seats among them, but never all: then
    seat 1 is a person."""
    names = tuple(defaults.name(seat) for seat in range(menu.players))
    bots = tuple(name for name in defaults.bots if name in names)
    if len(bots) == len(names):
        bots = tuple(name for name in bots if name != names[0])
    return GameSetup(names, bots, defaults.hints, menu.kind, {**defaults.options, **menu.options}, defaults.dice_set)


def _after(options: Sequence[T], current: T) -> T:
    """The option after ``current``, wrapping round."""
    return options[(list(options).index(current) + 1) % len(options)]
