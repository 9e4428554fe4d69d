"""Tumblin' Dice's set-up: the rules' options on the set-up screen and in the configuration's
``[game]`` section, and the players' dice colours (configuration only):

    [game]
    kind = "tumblin"
    target = 200             # play to 200 points instead of four rounds (0: four rounds)
    scoring = "add"          # face + level, for younger players ("multiply": face x level)
    teams = true             # four players, seats 1+3 against 2+4
    mines = 3                # land mines on the board (0 to 6) ...
    mine_kind = "trip"       # ... and their kind: pressure, trip or proximity
    cards = "breed+multiplier"   # the breeding cards: none, breed, multiplier, breed+breed, ...
    palette = { red = "#c82828", green = "#289632", blue = "#1e50aa", black = "#232323" }

``palette`` names each seat's colour in seat order with the body colour of its dice as a camera
sees it under neutral light (``#rrggbb``); the box's four are the default. The camera names a
die's colour only from the colours of the seats playing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.errors import VariantError
from engine.tumblin import MineKind, Scoring
from engine.tumblin.moves import is_colour
from engine.tumblin.variant import MAX_MINES, ORDERS, TIES, ZEROS
from firmware.core.table_game import Options, SetupOption
from vision.board.die_colour import DEFAULT_PALETTE, Palette

TARGETS = (0, 100, 200, 300)
SCORINGS = tuple(s.value for s in Scoring)
MINE_KINDS = tuple(k.value for k in MineKind)
CARDS = {  # the breeding cards: name -> (breed cards, multiplier cards); the rules place 1 or 2
    "none": (0, 0), "breed": (1, 0), "multiplier": (0, 1),
    "breed+breed": (2, 0), "multiplier+multiplier": (0, 2), "breed+multiplier": (1, 1),
}
CARDS_SHOWN = {"none": "none", "breed": "1 breed", "multiplier": "1 mult", "breed+breed": "2 breed",
               "multiplier+multiplier": "2 mult", "breed+multiplier": "breed+mult"}
_HEX = re.compile(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})")
DEFAULT_PALETTE_HEX = {name: "#{2:02x}{1:02x}{0:02x}".format(*bgr) for name, bgr in DEFAULT_PALETTE.colours}


def _one_of(values: tuple[Any, ...], allowed: str) -> Callable[[Any, object], Any]:
    def parse(value: Any, base: object = None) -> Any:
        if type(value) is not type(values[0]) or value not in values:
            raise VariantError(f"allowed is {allowed}")
        return value

    return parse


def _target(value: Any, base: object = None) -> int:
    if type(value) is not int or value < 0:
        raise VariantError("allowed is 0 (four rounds) or a score above 0 to play to, like 200")
    return value


def _palette(value: Any, base: object = None) -> dict[str, str]:
    """Colour names to ``#rrggbb``, in seat order, each name a short lower-case word."""
    allowed = 'a table of 2 to 4 colours in seat order, like { red = "#c82828", green = "#289632" }'
    if not isinstance(value, dict) or not 2 <= len(value) <= 4:
        raise VariantError(f"allowed is {allowed}")
    for name, colour in value.items():
        if not is_colour(name) or not isinstance(colour, str) or not _HEX.fullmatch(colour):
            raise VariantError(f"{name!r} = {colour!r}: allowed is {allowed}")
    return dict(value)


OPTIONS = (
    SetupOption("target", "Play to", 0, lambda players: TARGETS, _target,
                "0 (four rounds) or a score to play to", lambda t: f"{t} pts" if t else "4 rounds"),
    SetupOption("scoring", "Score", "multiply", lambda players: SCORINGS,
                _one_of(SCORINGS, '"multiply" or "add"'), '"multiply" or "add"',
                lambda s: "face x level" if s == "multiply" else "face + level"),
    SetupOption("teams", "Teams", False, lambda players: (False, True) if players == 4 else (False,),
                _one_of((False, True), "true or false (teams need 4 players)"), "true or false",
                lambda t: "1+3 v 2+4" if t else "no"),
    SetupOption("mines", "Mines", 0, lambda players: tuple(range(MAX_MINES + 1)),
                _one_of(tuple(range(MAX_MINES + 1)), f"0 to {MAX_MINES}"), f"0 to {MAX_MINES}",
                lambda m: str(m) if m else "none"),
    SetupOption("mine_kind", "Mine kind", "pressure", lambda players: MINE_KINDS,
                _one_of(MINE_KINDS, ", ".join(MINE_KINDS)), ", ".join(MINE_KINDS), needs="mines"),
    SetupOption("cards", "Cards", "none", lambda players: tuple(CARDS),
                _one_of(tuple(CARDS), ", ".join(CARDS)), ", ".join(CARDS), lambda c: CARDS_SHOWN[c]),
    SetupOption("palette", "Colours", DEFAULT_PALETTE_HEX, None, _palette, "colour names with #rrggbb"),
    # "The player with the highest total score at the end of the prior round goes first": the running
    # total; "round" orders by the prior round's score alone, as games journaled before were played.
    SetupOption("order", "First", "total", None, _one_of(ORDERS, '"total" or "round"'), '"total" or "round"',
                legacy="round"),
    # "If two or more players have the same score, then the order of play between those tied players reverts
    # back to that of the prior round": "prior"; "round" puts the higher round's score first, as games journaled
    # before were played.
    SetupOption("ties", "Ties", "prior", None, _one_of(TIES, '"prior" or "round"'), '"prior" or "round"',
                legacy="round"),
    # "If a die does not drop off of the 0x level, it counts as a throw, but it is removed": "removed";
    # "stays" lets it lie there for a later flick to knock down, as games journaled before were played.
    SetupOption("zero", "0x level", "removed", None, _one_of(ZEROS, '"removed" or "stays"'), '"removed" or "stays"',
                legacy="stays"),
)
_DEFAULTS = {option.key: option.default for option in OPTIONS}


def variant_of(options: Options) -> dict[str, Any]:
    """The engine's ``new_game`` keywords for these options (each checked again: a journal row may be damaged)."""
    values = {**_DEFAULTS, **options}
    for option in OPTIONS:
        try:
            option.parse(values[option.key], None)
        except VariantError as error:
            raise VariantError(f"{option.key} {values[option.key]!r}: {error}") from None
    breed, multiplier = CARDS[values["cards"]]
    return {
        "colours": list(values["palette"]),
        "target": values["target"] or None,
        "teams": values["teams"],
        "scoring": values["scoring"],
        "mines": values["mines"],
        "mine_kind": values["mine_kind"] if values["mines"] else None,
        "breed_cards": breed,
        "multiplier_cards": multiplier,
        "order": values["order"],
        "ties": values["ties"],
        "zero": values["zero"],
    }


def palette_of(options: Options, colours: tuple[str, ...]) -> Palette:
    """The reader's palette for the seats playing: their colours' references from the options."""
    hexes = {**_DEFAULTS, **options}["palette"]
    return Palette(tuple((name, _bgr(hexes[name])) for name in colours))


def _bgr(hex_colour: str) -> tuple[int, int, int]:
    found = _HEX.fullmatch(hex_colour)
    assert found is not None  # checked when the options were read
    red, green, blue = (int(part, 16) for part in found.groups())
    return blue, green, red


def summary(options: Options) -> str:
    """The options in a player's words: "to 200 points, face + level, teams, 3 trip mines, 1 breed card"."""
    values = {**_DEFAULTS, **options}
    words = [f"to {values['target']} points" if values["target"] else "4 rounds"]
    words += ["face + level"] if values["scoring"] == "add" else []
    words += ["teams"] if values["teams"] else []
    mines = values["mines"]
    words += [f"{mines} {values['mine_kind']} mine{'s' * (mines != 1)}"] if mines else []
    cards = zip(CARDS.get(values["cards"], (0, 0)), ("breed", "multiplier"))
    words += [f"{count} {kind} card{'s' * (count != 1)}" for count, kind in cards if count]
    words += ["own colours"] if values["palette"] != DEFAULT_PALETTE_HEX else []
    return ", ".join(words)
