"""The set-up of a game: the players' colours and the options and cards the rules offer."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, TypeVar

from engine.errors import VariantError
from engine.tumblin.moves import MAX_CARDS, is_colour

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_COLOURS = ("red", "green", "blue", "black")
"""The box's four sets of dice, given to the seats in this order unless the variant names others."""
DEFAULT_TEAMS = ((0, 2), (1, 3))
MAX_MINES = 6
"""The number of land mines is a die's roll."""


class Scoring(Enum):
    """Face times level (the rules), or face plus level (the option for younger players)."""

    MULTIPLY = "multiply"
    ADD = "add"


class MineKind(Enum):
    """The three kinds of land mine; the players decide beforehand which is used."""

    PRESSURE = "pressure"
    TRIP = "trip"
    PROXIMITY = "proximity"

    @property
    def effect(self) -> str:
        """What the players remove when one explodes, for the table to remind them."""
        return _EFFECTS[self]


E = TypeVar("E", Scoring, MineKind)

_EFFECTS = {
    MineKind.PRESSURE: "remove the mine and the die that landed on it",
    MineKind.TRIP: "remove the mine and the die that rolled across it",
    MineKind.PROXIMITY: "remove the mine and all dice on the mine's level",
}


@dataclass(frozen=True)
class Variant:
    """Every setting; ``colours`` is filled in by :meth:`seated` when the game starts.

    ``target`` None plays four rounds; ``teams`` are two pairs of seats, each in shooting order;
    ``mines`` how many land mines lie on the board (0: none) and ``mine_kind`` theirs;
    ``breed_cards`` and ``multiplier_cards`` the breeding cards of each kind (1 or 2 in all).
    """

    colours: tuple[str, ...] | None = None
    target: int | None = None
    teams: tuple[tuple[int, ...], ...] | None = None
    scoring: Scoring = Scoring.MULTIPLY
    mines: int = 0
    mine_kind: MineKind | None = None
    breed_cards: int = 0
    multiplier_cards: int = 0
    order: str = "total"  # who goes first next round: the highest running total, or ("round") the last round's score
    ties: str = "prior"  # equal running totals: the order of the prior round, or ("round") that round's score first
    zero: str = "removed"  # a die that stops on the 0x level: taken off the board, or ("stays") left on it

    @property
    def players(self) -> int:
        """The number of players of a seated variant."""
        if self.colours is None:
            raise VariantError("the variant has no colours yet: it is not seated")
        return len(self.colours)

    def check(self, players: object) -> None:
        """Refuse a set-up the rules do not allow for this many players."""
        if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise VariantError(f"Tumblin' Dice is for {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")
        if self.colours is not None and len(self.colours) < players:
            raise VariantError(f"{players} players need {players} colours, got {len(self.colours)}: {self.colours}")
        if self.teams is not None and players != 4:
            raise VariantError(f"teams are two pairs: they need 4 players, got {players}")

    def seated(self, players: int) -> Variant:
        """This variant for ``players`` players: the first ``players`` colours named (a set-up may
        name one for every seat there could be), else the default colours."""
        self.check(players)
        return replace(self, colours=(self.colours or DEFAULT_COLOURS)[:players])

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """Who scores together: the two teams, or each seat alone (of a seated variant)."""
        return self.teams if self.teams is not None else tuple((seat,) for seat in range(self.players))

    def settings(self) -> dict[str, Any]:
        """The JSON-ready settings; ``make_variant(**settings)`` reads them back."""
        return {
            "colours": None if self.colours is None else list(self.colours),
            "target": self.target,
            "teams": None if self.teams is None else [list(team) for team in self.teams],
            "scoring": self.scoring.value,
            "mines": self.mines,
            "mine_kind": None if self.mine_kind is None else self.mine_kind.value,
            "breed_cards": self.breed_cards,
            "multiplier_cards": self.multiplier_cards,
            "order": self.order,
            "ties": self.ties,
            "zero": self.zero,
        }


SETTINGS = tuple(Variant().settings())
ORDERS = ("total", "round")
"""Who goes first next round ("The player with the highest total score at the end of the prior
round goes first"): "total", the running total; "round", the prior round's score alone (how games
were played before the rule was read so: their journals keep replaying)."""

TIES = ("prior", "round")
"""Players tied on their running total: "the order of play between those tied players reverts back to
that of the prior round" ("prior"); "round" puts the one who scored more in that round first (how
games were played before the rule was read so: their journals keep replaying)."""

ZEROS = ("removed", "stays")
"""A die that does not drop off the 0x level: "it counts as a throw, but it is removed and set off to
the side" ("removed"); "stays" leaves it on the board, where a later flick may knock it down to
score (how games were played before the rule was read so: their journals keep replaying)."""


def make_variant(**settings: object) -> Variant:
    """A Variant from keyword settings (the names of :class:`Variant`'s fields; ``teams=True`` is
    seats 1+3 against 2+4), each checked; strings name the enums."""
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise VariantError(f"unknown variant setting {unknown[0]!r}; known: {', '.join(SETTINGS)}")
    mines = _count(settings.get("mines", 0), "mines", MAX_MINES)
    mine_kind = _enum(MineKind, settings.get("mine_kind"), "mine_kind")
    if (mines > 0) != (mine_kind is not None):
        raise VariantError(f"land mines need both a number (1 to {MAX_MINES}) and a kind, got {mines} and {mine_kind}")
    breed = _count(settings.get("breed_cards", 0), "breed_cards", MAX_CARDS)
    multiplier = _count(settings.get("multiplier_cards", 0), "multiplier_cards", MAX_CARDS)
    if breed + multiplier > MAX_CARDS:
        raise VariantError(f"the rules place 1 or 2 breeding cards, got {breed} breed and {multiplier} multiplier")
    scoring = _enum(Scoring, settings.get("scoring", "multiply"), "scoring")
    assert scoring is not None
    return Variant(
        colours=_colours(settings.get("colours")),
        target=_target(settings.get("target")),
        teams=_teams(settings.get("teams")),
        scoring=scoring,
        mines=mines,
        mine_kind=mine_kind,
        breed_cards=breed,
        multiplier_cards=multiplier,
        order=_word(settings, "order", ORDERS),
        ties=_word(settings, "ties", TIES),
        zero=_word(settings, "zero", ZEROS),
    )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(value: object, name: str, most: int) -> int:
    if not _whole(value) or not 0 <= value <= most:  # type: ignore[operator]
        raise VariantError(f"{name} must be a whole number from 0 to {most}, got {value!r}")
    return value  # type: ignore[return-value]


def _word(settings: dict[str, object], name: str, words: tuple[str, ...]) -> str:
    """The setting ``name``, one of ``words`` (the first when not given)."""
    value = settings.get(name, words[0])
    if value not in words:
        raise VariantError(f"{name} must be one of {', '.join(words)}, got {value!r}")
    return str(value)


def _enum(kind: type[E], value: object, name: str) -> E | None:
    if value is None or isinstance(value, kind):
        return value
    names = [k.value for k in kind]
    if value not in names:
        raise VariantError(f"{name} must be one of {', '.join(names)}, got {value!r}")
    return kind(value)


def _colours(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not all(is_colour(c) for c in value):
        raise VariantError(f"colours must be short lower-case words (like 'red'), one per seat, got {value!r}")
    if len(set(value)) != len(value):
        raise VariantError(f"each player needs a colour of their own, got {list(value)}")
    return tuple(value)


def _target(value: object) -> int | None:
    if value is not None and (not _whole(value) or value < 1):  # type: ignore[operator]
        raise VariantError(f"target must be a score above 0 (like 100 or 300), or None for four rounds, got {value!r}")
    return value  # type: ignore[return-value]


def _teams(value: object) -> tuple[tuple[int, ...], ...] | None:
    if value is None or value is False:
        return None
    if value is True:
        return DEFAULT_TEAMS
    pairs = isinstance(value, (list, tuple)) and len(value) == 2 and all(
        isinstance(team, (list, tuple)) and len(team) == 2 and all(_whole(s) for s in team) for team in value
    )
    teams = tuple(tuple(team) for team in value) if pairs else ()  # type: ignore[union-attr]
    if sorted(s for team in teams for s in team) != [0, 1, 2, 3]:
        raise VariantError(f"teams are two pairs of the seats 0 to 3, each seat once, like [[0, 2], [1, 3]], got {value!r}")
    return teams
