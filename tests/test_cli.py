"""The command line: the engine demo plays a whole game; the benchmark prints its figures."""

import pytest

from firmware.cli import main


def test_demo_plays_a_whole_seeded_game(capsys):
    assert main(["demo", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Can't Stop, seed 7")
    assert " wins on turn " in out.splitlines()[-1]
    assert main(["demo", "--seed", "7"]) == 0
    assert capsys.readouterr().out == out, "the same seed plays the same game"


def test_demo_with_a_variant(capsys):
    assert main(["demo", "--seed", "2", "--columns", "5", "--jumping"]) == 0
    assert " wins on turn " in capsys.readouterr().out


def test_demo_refuses_a_bad_variant(capsys):
    assert main(["demo", "--columns", "7"]) == 2
    assert "columns to win must be 3, 4 or 5, got 7" in capsys.readouterr().err


def test_bench_engine_prints_figures(capsys):
    assert main(["bench-engine", "--games", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("games-per-second ")
    assert float(lines[3].split()[1]) > 0


def test_unknown_command_is_refused():
    with pytest.raises(SystemExit):
        main(["juggle"])
