"""The core's catalogue: the rooms below the games find them there, once ``firmware.games`` has
listed them (as every command does first)."""

import pytest

from firmware.core import catalogue
from firmware.games import GAMES, WEB_VIEWS


def test_the_games_package_lists_every_game_in_order_with_its_web_view():
    assert catalogue.games() == GAMES
    assert catalogue.default_kind() == GAMES[0].kind
    assert all(catalogue.web_view(game.kind) is WEB_VIEWS[game.kind] for game in GAMES)


def test_a_catalogue_read_before_the_games_are_listed_says_what_was_forgotten(monkeypatch):
    monkeypatch.setattr(catalogue, "_games", ())
    with pytest.raises(catalogue.NoGamesListedError, match="import firmware.games"):
        catalogue.table_game("yacht")


@pytest.mark.parametrize("games, views", [
    ((), {}),  # no game at all
    (GAMES, {kind: view for kind, view in WEB_VIEWS.items() if kind != "yacht"}),  # a game without its web page
    ((GAMES[0], GAMES[0]), {GAMES[0].kind: WEB_VIEWS[GAMES[0].kind]}),  # one kind twice
])
def test_a_catalogue_that_would_lose_a_game_or_its_page_is_refused(games, views):
    with pytest.raises(ValueError, match="distinct kinds"):
        catalogue.list_games(games, views)
    assert catalogue.games() == GAMES, "the listed games stay"


def test_a_reviewer_of_a_game_not_listed_is_refused_and_a_game_of_skill_has_none():
    from firmware.games import REVIEWS

    with pytest.raises(ValueError, match="reviewers for"):
        catalogue.list_games(GAMES, WEB_VIEWS, REVIEWS | {"chess": REVIEWS["yacht"]})
    assert catalogue.games() == GAMES, "the listed games stay"
    assert catalogue.reviewer("tumblin") is None and catalogue.reviewer("yacht") is REVIEWS["yacht"]
