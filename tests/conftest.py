"""Shared test options: ``--update-golden`` rewrites the reference pictures instead of comparing.
The games are listed in the core's catalogue first, as every command lists them."""

import pytest

import firmware.games  # noqa: F401


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="write the reference PNGs in tests/golden/ from the current output",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(autouse=True, scope="session")
def per_user_cache(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """The per-user cache (where the Yacht advisor's table is kept) in pytest's own cache folder,
    never the home's, and kept between runs: the table is computed by the first run only. The
    kill test's lives inherit it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(request.config.cache.mkdir("user-cache")))
        yield
