"""Who plays which game by which options: the configuration's game section and the set-up screen's start."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import VariantError
from firmware.core.catalogue import UnknownGameError, default_kind, games, table_game
from firmware.core.table_game import TableGame

DICE_SET_CHARS = 20  # a label the statistics page can show beside a plot
DICE_SET_ALLOWED = f"a short label of the dice played with, 1 to {DICE_SET_CHARS} printable characters"


@dataclass(frozen=True)
class GameSetup:
    """The game's kind, player names (in seat order), which seats the advisor plays, whether it
    gives the humans hints, and set-up options by key. ``options`` may hold keys of several games
    (a configuration's defaults for each); a game uses its own and its defaults for the rest.
    ``dice_set`` names the physical dice, so the statistics can tell one set's fairness from another's."""

    names: tuple[str, ...] = ("Ann", "Bob")
    bots: tuple[str, ...] = ()  # names of the seats the advisor plays
    hints: bool = False
    kind: str = field(default_factory=default_kind)  # the catalogue's first game
    options: dict[str, Any] = field(default_factory=dict)
    dice_set: str = "dice"

    def __post_init__(self) -> None:
        """Options at their game's default are left out, so equal set-ups compare equal however given.
        A dice set that is no label is refused here, so the journal never keeps one."""
        if not is_dice_set(self.dice_set):
            raise ValueError(f"dice set {self.dice_set!r}: allowed is {DICE_SET_ALLOWED}")
        defaults = {option.key: option.default for game in games() for option in game.options}
        given = {key: value for key, value in self.options.items() if not _is_default(value, defaults.get(key, _NONE))}
        object.__setattr__(self, "options", given)

    @property
    def game(self) -> TableGame:
        return table_game(self.kind)

    def name(self, player: int) -> str:
        """The name of a seat; seats beyond the named ones are P3 and P4."""
        return self.names[player] if player < len(self.names) else f"P{player + 1}"

    def game_options(self) -> dict[str, Any]:
        """This game's options: the ones given, the game's defaults for the others."""
        return {option.key: self.options.get(option.key, option.default) for option in self.game.options}

    def new_state(self) -> Any:
        """The engine's state before the first move (EngineError if the set-up does not fit the rules)."""
        game = self.game
        return game.engine.new_game(len(self.names), **game.variant(self.game_options()))

    def check(self) -> None:
        """Refuse a set-up the game's rules do not allow (VariantError says why)."""
        try:
            game = self.game
        except UnknownGameError as error:
            raise VariantError(str(error)) from None
        if len(self.names) not in game.players:
            low, high = game.players[0], game.players[-1]
            allowed = f"{low} to {high}" if high > low else str(low)
            raise VariantError(f"{game.title} is for {allowed} players, got {len(self.names)}")
        self.new_state()

    def rules_words(self) -> str:
        """The options in a player's words: "standard rules, 3 columns to win" ("" for a game without any)."""
        return self.game.summary(self.game_options())

    def describe(self) -> str:
        """The game and its options in a player's words, for the log and the history: "Can't Stop,
        standard rules, 3 columns to win". Display only: the journal keeps the kind and the options."""
        return ", ".join(filter(None, (self.game.title, self.rules_words())))


_NONE = object()  # no game has an option of this key


def is_dice_set(label: object) -> bool:
    """Whether ``label`` can name a set of dice: 1 to DICE_SET_CHARS printable characters, no
    spaces at either end (a line of the page, never a control character in the log)."""
    return isinstance(label, str) and 1 <= len(label) <= DICE_SET_CHARS and label.isprintable() and label == label.strip()


def _is_default(value: Any, default: Any) -> bool:
    """``value`` is ``default`` in type and value (3.0 is not the 3 columns the rules allow)."""
    return type(value) is type(default) and value == default
