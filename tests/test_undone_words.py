"""The undo notice says what was taken back in the screen's own words, whole: the engine's move
text was cut at the footer's edge ("undone: score full-ho", "undone: roll 1-1-5-6-")."""

from __future__ import annotations

import random
import re

import pytest

from engine.dice import Roll
from engine.tumblin import Die, Tally
from firmware.core.game_setup import GameSetup
from firmware.core.table_game import UNDONE_ROOM
from firmware.games import GAMES


def moves_of_a_random_game(kind: str, seed: int, players: int) -> list[tuple[object, object]]:
    """(the state, the move made in it) along a game of random legal moves and fair dice."""
    rng = random.Random(seed)
    engine = GameSetup(tuple("ABCD"[:players]), kind=kind).game.engine
    state = GameSetup(tuple("ABCD"[:players]), kind=kind).new_state()
    made = []
    for _ in range(400):
        if engine.winner(state) is not None:
            break
        due = engine.dice_due(state)
        legal = engine.legal_moves(state)
        if not due and not legal:
            break
        move = Roll(tuple(rng.randint(1, 6) for _ in range(due))) if due else rng.choice(legal)
        made.append((state, move))
        state = engine.apply(state, move)
    return made


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.kind)
def test_every_move_taken_back_is_said_whole_within_the_footer(game):
    players = game.players[-1]
    made = [pair for seed in range(3) for pair in moves_of_a_random_game(game.kind, seed, players)]
    assert len(made) > 20
    for before, move in made:
        words = game.undone_words(before, move)
        assert 0 < len(words) <= UNDONE_ROOM, f"{game.kind}: {words!r} for {move!r}"


def test_the_words_are_the_screens_own():
    yacht, counters, tumblin = (next(g for g in GAMES if g.kind == kind) for kind in ("yacht", "counters", "tumblin"))
    state = GameSetup(("A", "B"), kind="yacht").new_state()
    rolled = yacht.engine.apply(state, Roll((2, 2, 4, 4, 4)))
    score = next(m for m in yacht.engine.legal_moves(rolled) if "full" in yacht.engine.move_text(m))
    assert yacht.undone_words(rolled, score) == "FH 25" and yacht.undone_words(state, Roll((1, 1, 5, 6, 2))) == "roll 11256"
    said = {counters.undone_words(before, move) for before, move in moves_of_a_random_game("counters", 1, 2)}
    assert any(re.fullmatch(r"2P \d\+\d", words) for words in said) and any(w.startswith("keep ") for w in said), said
    assert tumblin.undone_words(None, Tally((Die("blue", 1, 1), Die("green", 2, 4)))) == "tally"
