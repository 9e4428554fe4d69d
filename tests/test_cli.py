"""The command line: the engine benchmark prints its figures; unknown commands are refused."""

import pytest

from firmware.cli import main


def test_bench_engine_prints_figures(capsys):
    assert main(["bench-engine", "--games", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("games-per-second ")
    assert float(lines[3].split()[1]) > 0


def test_sizes_below_one_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["bench-engine", "--games", "0"])
    assert "must be at least 1, got 0" in capsys.readouterr().err


def test_unknown_command_is_refused():
    with pytest.raises(SystemExit):
        main(["juggle"])
