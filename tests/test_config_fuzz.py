"""A quick run of the configuration fuzz (tests/config_fuzz.py; the full run is 2,000 configs)."""

from config_fuzz import fuzz


def test_fuzzed_configs_are_refused_in_one_line_or_build_their_devices_never_a_traceback():
    figures = fuzz(configs=100, seed=7)
    assert figures.tracebacks == [], "\n".join(figures.tracebacks)
    outcomes = figures.outcomes
    assert outcomes["accepted"] > 20 and outcomes["refused"] > 20 and outcomes["device refused"] > 0, figures.lines()
