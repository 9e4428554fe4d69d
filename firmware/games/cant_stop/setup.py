"""Can't Stop's set-up: the rule variant and the columns needed to win, on the set-up screen and in
the configuration's ``[game]`` section (``rule``, ``columns_to_win``)."""

from __future__ import annotations

from typing import Any

from engine.cant_stop import Variant
from engine.cant_stop.variant import COLUMNS_TO_WIN_CHOICES, DEFAULT_COLUMNS_TO_WIN, MAX_COLUMNS_TO_WIN
from engine.errors import VariantError
from firmware.core.table_game import Options, SetupOption

RULE_WORDS = {"standard": "standard rules", "jumping": "jumping variant", "forced-move": "forced move variant"}
RULES = tuple(RULE_WORDS)  # as the configuration and the journal name them


def columns_to_win_choices(players: int) -> tuple[int, ...]:
    """The columns-to-win settings the rules allow for ``players``."""
    return tuple(c for c in COLUMNS_TO_WIN_CHOICES if c <= MAX_COLUMNS_TO_WIN[players])


RULES_ALLOWED = "one of " + ", ".join(f'"{rule}"' for rule in RULES)
COLUMNS_ALLOWED = "a whole number from 3 to 5"


def _rule(value: Any, base: object = None) -> str:
    if not isinstance(value, str) or value not in RULES:
        raise VariantError(f"allowed is {RULES_ALLOWED}")
    return value


def _columns(value: Any, base: object = None) -> int:
    if type(value) is not int or value not in COLUMNS_TO_WIN_CHOICES:
        raise VariantError(f"allowed is {COLUMNS_ALLOWED}")
    return value


OPTIONS = (
    SetupOption("columns_to_win", "Columns to win", DEFAULT_COLUMNS_TO_WIN, columns_to_win_choices, _columns, COLUMNS_ALLOWED),
    SetupOption("rule", "Rules", "standard", lambda players: RULES, _rule, RULES_ALLOWED),
)


def summary(options: Options) -> str:
    """The options in a player's words: "standard rules, 3 columns to win" (a rule it does not know as given)."""
    return f"{RULE_WORDS.get(options['rule'], options['rule'])}, {options['columns_to_win']} columns to win"


def variant_of(options: Options) -> Variant:
    """The engine's Variant for these options (a rule name from :data:`RULES`); VariantError names a wrong one."""
    values = {"rule": "standard", "columns_to_win": DEFAULT_COLUMNS_TO_WIN, **options}
    for key, check in (("rule", _rule), ("columns_to_win", _columns)):
        try:
            check(values[key])
        except VariantError as error:
            raise VariantError(f"{key} {values[key]!r}: {error}") from None
    rule = values["rule"]
    return Variant(values["columns_to_win"], rule == "jumping", rule == "forced-move")
