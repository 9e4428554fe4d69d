"""The command line: every argument explained, clear refusals, progress only on a terminal."""

import argparse
import errno
import io
import re
import sys
from pathlib import Path

import pytest

from firmware.bench import durability
from firmware import cli
from firmware.cli import build_parser, main
from hardware.display import DisplayError, TerminalDisplay
from hardware.keyboard import HELP
from test_vision_cli import photo_folder  # noqa: F401  (a fixture: six synthetic photos)


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as stdout and stderr are in an interactive shell."""

    def isatty(self) -> bool:
        return True


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


def without_help(parser: argparse.ArgumentParser, name: str) -> list[str]:
    """Every command and argument under ``parser`` whose help text is missing."""
    missing = []
    for action in parser._actions:  # argparse has no public way to walk a parser
        if isinstance(action, argparse._SubParsersAction):
            missing += [f"{name} {choice.dest}" for choice in action._choices_actions if not choice.help]
            for command, subparser in action.choices.items():
                missing += without_help(subparser, f"{name} {command}")
        elif not action.help:
            missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    return missing


def test_every_argument_of_every_command_has_help():
    assert without_help(build_parser(), "dice-companion") == []


def test_the_demo_on_a_terminal_too_narrow_says_what_it_needs(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", Terminal())
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LINES", "24")
    assert main(["demo", "--auto"]) == 2
    assert capsys.readouterr().err == (
        "dice-companion: the terminal is 80x24 characters; the OLED picture needs 130 columns: "
        "make the window larger (or the font smaller) and start again\n"
    )
    assert sys.stdout.getvalue() == ""


def test_the_demo_drawn_in_place_needs_the_rows_of_the_picture_its_keys_and_the_cursor(monkeypatch):
    monkeypatch.setenv("COLUMNS", "130")
    monkeypatch.setenv("LINES", "35")
    with pytest.raises(DisplayError, match="is 130x35 characters; the OLED picture needs 130x36"):
        TerminalDisplay(Terminal(), footer=HELP)
    monkeypatch.setenv("LINES", "36")
    TerminalDisplay(Terminal(), footer=HELP)


def test_recording_into_a_folder_with_screens_is_refused_and_leaves_them_alone(tmp_path, capsys):
    (tmp_path / "screen-0001.png").write_bytes(b"an earlier run")
    assert main(["demo", "--auto", "--record", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (
        f"dice-companion: {tmp_path} already holds the screens of an earlier recording (1 of them): "
        "record into a new or empty folder\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["screen-0001.png"]
    assert (tmp_path / "screen-0001.png").read_bytes() == b"an earlier run"


def test_history_of_a_data_folder_that_is_not_there_names_it_and_what_to_do(tmp_path, capsys):
    missing = tmp_path / "nope"
    assert main(["history", "--data", str(missing)]) == 2
    assert capsys.readouterr().err == (
        f"dice-companion: there is no data folder {missing}: name the folder the games were journaled in (--data DIR)\n"
    )


DATA_FOLDER_COMMANDS = [["demo", "--auto", "--data"], ["bench-durability", "--data"], ["run", "--config"]]


def refused_data_folder(command: list[str], folder, tmp_path, capsys) -> str:
    """What ``command`` says, exiting 2, of the data folder ``folder`` (for run: the data.dir of its configuration)."""
    config = tmp_path / "companion.toml"
    config.write_text(f'[display]\ntype = "dummy"\n[data]\ndir = "{folder}"\n')
    named = f"data.dir in {config}" if command[0] == "run" else "--data DIR"
    assert main([*command, str(config if command[0] == "run" else folder)]) == 2
    return capsys.readouterr().err.replace(named, "NAMED")


@pytest.mark.parametrize("command", DATA_FOLDER_COMMANDS)
@pytest.mark.parametrize("below", ["", "games"], ids=["the folder", "a folder above it"])
def test_a_file_in_the_data_folders_place_is_to_be_moved_or_another_folder_named(command, below, tmp_path, capsys):
    """It said to make the folder with sudo install -d, which cannot work while the file is there."""
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    folder = in_the_way / below if below else in_the_way
    assert refused_data_folder(command, folder, tmp_path, capsys) == (
        f"dice-companion: cannot make the data folder {folder} (NAMED): {in_the_way} is a file, not a folder; "
        "move it away or name another folder\n"
    )


@pytest.mark.parametrize("command", DATA_FOLDER_COMMANDS)
def test_a_data_folder_that_cannot_be_made_is_named_with_what_to_do(command, tmp_path, capsys, monkeypatch):
    def refused(self, *args, **kwargs):  # as a folder this user may not write in refuses (tests run as root)
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    folder = tmp_path / "games"
    monkeypatch.setattr(Path, "mkdir", refused)
    assert refused_data_folder(command, folder, tmp_path, capsys) == (
        f"dice-companion: cannot make the data folder {folder} (NAMED): Permission denied; "
        f"make it yourself (sudo install -d -o $USER {folder}) or name another\n"
    )


def figures_masked(text: str) -> str:
    """``text`` with every number replaced: timings differ from run to run, the lines do not."""
    return re.sub(r"\d+(\.\d+)?", "#", text)


@pytest.mark.parametrize(
    "command, bar",
    [(["bench-engine", "--games", "3"], "games"), (["bench-advisor", "--games", "2"], "advisor solitaire"),
     (["bench-vision", "--trays", "1"], "4 dice trays"), (["eval-vision"], "photos")],
)
def test_long_commands_show_progress_on_stderr_only_on_a_terminal(command, bar, photo_folder, capsys, monkeypatch):
    command = [*command, str(photo_folder)] if command == ["eval-vision"] else command
    assert main(command) == 0
    piped = capsys.readouterr()
    assert piped.err == ""
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(command) == 0
    assert f"{bar}:" in terminal.getvalue()
    assert figures_masked(capsys.readouterr().out) == figures_masked(piped.out)


def test_the_kill_test_counts_its_kills_on_a_terminal(tmp_path, monkeypatch):
    def life(data, seed, figures, kill_after_s, kind, players):
        """A life killed at once, or the last one, which finishes: no child process."""
        figures.kills += kill_after_s is not None
        return kill_after_s is not None

    monkeypatch.setattr(durability, "_life", life)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert durability.run_kill_test(2, 1, tmp_path).kills == 2
    assert "kills:" in terminal.getvalue()


def test_the_kill_test_may_restart_each_life_asking_for_another_number_of_players(tmp_path, monkeypatch):
    asked = []

    def life(data, seed, figures, kill_after_s, kind, players):
        asked.append(players)
        figures.kills += kill_after_s is not None
        return kill_after_s is not None

    monkeypatch.setattr(durability, "_life", life)
    durability.run_kill_test(12, 1, tmp_path, "counters", vary_players=True)
    assert set(asked) == {2, 3, 4}
    asked.clear()
    durability.run_kill_test(3, 1, tmp_path, "counters")
    assert set(asked) == {2}


def test_a_life_resumes_a_game_of_three_though_it_asks_for_two(tmp_path, capsys):
    """The life of a restart with another --players: the game it resumes keeps its seats."""
    from firmware.core.game_setup import GameSetup
    from firmware.journal.journal import JOURNAL_NAME, Journal

    journal = Journal(tmp_path / JOURNAL_NAME)
    setup = GameSetup(("Advisor", "Rule28", "Steady"), bots=("Rule28", "Steady"), kind="cant-stop")
    journal.start_game(setup)
    journal.close()
    assert durability.child_main(tmp_path, 7, "cant-stop", 2) == 0
    out = capsys.readouterr().out
    assert "resumed 1" in out and "won 1" in out


def test_a_data_folder_thousands_of_folders_deep_is_refused_in_one_line(tmp_path, capsys):
    deep = tmp_path.joinpath(*["a"] * 2000)
    assert main(["demo", "--game", "columns", "--auto", "--data", str(deep)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "nests too deeply" in err


def test_a_simulated_board_whose_levels_cannot_be_stored_is_said_in_one_line(monkeypatch, capsys):
    from firmware.calibration.calibrate_board import Refusal
    from firmware.table import start

    def full_disk(config, frame):
        raise Refusal("cannot store the board's levels in /tmp/x: [Errno 27] File too large", ("Nothing",))

    monkeypatch.setattr(start, "calibrate_board", full_disk)
    assert main(["demo", "--game", "tumblin", "--auto"]) == 2
    assert capsys.readouterr().err == (
        "dice-companion: the simulated board: cannot store the board's levels in /tmp/x: [Errno 27] File too large\n")


def test_the_kill_test_refuses_a_folder_that_holds_games_or_is_in_use(tmp_path, capsys):
    """It would play its games into a player's journal (and resume their unfinished game)."""
    from firmware.core.game_setup import GameSetup
    from firmware.journal.journal import JOURNAL_NAME, Journal

    journal = Journal(tmp_path / JOURNAL_NAME)
    journal.start_game(GameSetup(kind="columns"))
    assert main(["bench-durability", "--kills", "1", "--data", str(tmp_path)]) == 2
    assert "another Dice Companion is running" in capsys.readouterr().err, "in use: one line, as elsewhere"
    journal.close()
    assert main(["bench-durability", "--kills", "1", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"dice-companion: bench-durability --data {tmp_path}: it holds a journal of 1 game; the kill test "
                   "plays its own games and needs a folder of its own (a new or empty one; remove this one if a "
                   "stopped kill test left it)\n")
    assert not (tmp_path / "lives.log").exists() and len(Journal(tmp_path / JOURNAL_NAME).games()) == 1


def test_a_kill_test_stopped_with_ctrl_c_says_what_to_do_with_its_folder(tmp_path, capsys, monkeypatch):
    from firmware.bench import durability

    def interrupted(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(durability, "run_kill_test", interrupted)
    assert main(["bench-durability", "--data", str(tmp_path / "kills")]) == 130
    assert capsys.readouterr().err == (f"bench-durability stopped: {tmp_path / 'kills'} keeps the games played so far; "
                                       "remove it (or name another folder) to run again\n")


@pytest.mark.parametrize("argv, said", [
    (["demo", "--seed", "-5", "--auto"], "argument --seed: a seed is a whole number from 0 up, got -5"),
    (["bench-vision", "--seed", "-1"], "argument --seed: a seed is a whole number from 0 up, got -1"),
    (["bench-durability", "--seed", "-1"], "argument --seed: a seed is a whole number from 0 up, got -1"),
    (["bench-engine", "--game", "yacht"], "argument --game: invalid choice: 'yacht' (choose from 'cant-stop')"),
    (["bench-advisor", "--games", "yacht"], "argument --games: must be a whole number, got 'yacht'"),
    (["bench-advisor", "--gam", "yacht"], "unrecognized arguments: --gam yacht"),
    (["demo", "--players", "two"], "argument --players: must be a whole number, got 'two'"),
])
def test_wrong_flags_are_refused_in_one_line_never_abbreviated(argv, said, capsys):
    """Negative seeds ended in numpy's traceback; `bench-engine --game yacht` was taken for --games."""
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2 and capsys.readouterr().err.splitlines()[-1].endswith(said)


@pytest.mark.parametrize("argv, said", [
    (["demo", "--game", "columns", "--players", "3"], "--players 3: Columns is for 2 players"),
    (["demo", "--game", "tumblin", "--columns", "4"], "--columns is a Can't Stop option: Tumblin' Dice has no such rule"),
    (["demo", "--game", "columns", "--jumping"], "--jumping is a Can't Stop option: Columns has no such rule"),
    (["demo", "--game", "counters", "--forced-move"], "--forced-move is a Can't Stop option: Counters to Top has no such rule"),
])
def test_the_demo_refuses_what_its_game_cannot_do_in_one_line(argv, said, capsys):
    assert main([*argv, "--auto"]) == 2
    assert capsys.readouterr().err == f"dice-companion: {said}\n"


def test_the_demo_names_seats_for_what_they_are(monkeypatch, capsys):
    """You against the advisor's seats; in a game of skill every seat is played at the keyboard."""
    from firmware.table import start

    seen = []
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(start, "play_demo", lambda setup, *rest, **named: seen.append(setup) or start.Outcome(None, 1, False))
    main(["demo", "--game", "tumblin", "--players", "3"])
    main(["demo", "--game", "columns"])
    assert [(s.names, s.bots) for s in seen] == [(("You", "Friend", "Friend2"), ()), (("You", "Advisor"), ("Advisor",))]


@pytest.mark.parametrize("interrupted, status", [(True, 130), (False, 0)], ids=["ctrl-c", "quit"])
def test_every_way_out_of_the_demo_says_how_it_ended_and_how_to_resume(tmp_path, capsys, monkeypatch, interrupted, status):
    """Ctrl-C exited 130 without a word; then it said "resumes the game" on the set-up screen, where
    there was none, and QUIT mid-game with --data gave no resume hint."""
    from firmware.table import start

    left = {"mid-game": start.Outcome(None, 3, rounds=2, interrupted=interrupted),
            "set-up": start.Outcome(None, 0, interrupted=interrupted)}
    monkeypatch.setattr(start, "play_demo", lambda *_args, **_kwargs: left["mid-game"])
    monkeypatch.setattr(sys, "argv", [".venv/bin/dice-companion", "demo"])  # as the README starts it
    assert main(["demo", "--auto", "--data", str(tmp_path / "my games")]) == status
    assert capsys.readouterr().out == (
        f"left before anyone won; `.venv/bin/dice-companion demo --data '{tmp_path}/my games'` resumes the game\n"
    ), "the program as it was started (the README's install puts no dice-companion on the PATH), the folder quoted"
    assert main(["demo", "--auto"]) == status
    assert capsys.readouterr().out == "left before anyone won\n", "a game in memory does not resume"
    monkeypatch.setattr(start, "play_demo", lambda *_args, **_kwargs: left["set-up"])
    assert main(["demo", "--auto", "--data", str(tmp_path)]) == status
    assert capsys.readouterr().out == "left before a game began\n"


def test_leaving_run_says_how_it_ended_as_the_demo_does(tmp_path, capsys, monkeypatch):
    """run said nothing on Ctrl-C."""
    from firmware.table import start

    config = tmp_path / "companion.toml"
    config.write_text('[data]\ndir = "data"\n[buttons]\nsource = "gpio"\n')
    monkeypatch.setattr(start, "run_device", lambda _config: start.Outcome(None, 5, rounds=3, interrupted=True))
    monkeypatch.setattr("firmware.log_setup.setup_logging", lambda: None)
    monkeypatch.setattr(sys, "argv", [str(Path(cli.__file__)), "run"])  # python -m firmware.cli
    assert main(["run", "--config", str(config)]) == 130
    assert capsys.readouterr().out == (
        f"left before anyone won; `{sys.executable} -m firmware.cli run --config {config}` resumes the game\n"
    )


def test_leaving_the_demo_on_the_set_up_screen_says_no_game_began(capsys, monkeypatch):
    from firmware.table import start

    monkeypatch.setattr(start, "play_demo", lambda *_args, **_kwargs: start.Outcome(None, 0))
    assert main(["demo", "--auto"]) == 0
    assert capsys.readouterr().out == "left before a game began\n"


def test_a_solitaire_game_ends_with_its_points_as_the_screen_says(capsys, monkeypatch):
    """It ended "Advisor wins in round 13" on the terminal while the OLED said its points."""
    from firmware.table import start

    outcome = start.Outcome("Ann", 13, True, 13, alone="Ann: 230 points")
    monkeypatch.setattr(start, "play_demo", lambda *_args, **_kwargs: outcome)
    assert main(["demo", "--auto", "--game", "yacht", "--players", "1"]) == 0
    assert capsys.readouterr().out == "Ann: 230 points in round 13 (13 turns)\n"
