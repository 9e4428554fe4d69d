"""calibrate --dice: the players throw, check each reading die by die, and the table's examples grow."""

from __future__ import annotations

import pytest

from firmware.calibration.table_dice import TableDice
from firmware.cli import main
from firmware.drawing.screens import DiceLessonScreen, ManualEntryScreen
from firmware.table.dice_lesson import DiceLesson
from hardware.buttons import Press
from hardware.camera import SyntheticCamera
from hardware.display import dummy_display
from table_helpers import press, show_frames


@pytest.fixture
def lesson(tmp_path):
    return DiceLesson(dummy_display(), TableDice(tmp_path, "white", background=False))


def throw(lesson, values, seed=4):
    tray = SyntheticCamera(seed=seed)
    tray.place(values)
    press(lesson, Press.ROLL)
    show_frames(lesson, tray)


def test_a_throw_read_right_is_confirmed_die_by_die_and_kept(lesson):
    assert lesson.screen == DiceLessonScreen((0, 0, 0, 0, 0, 0), "", 2)
    throw(lesson, (1, 3, 3, 6))
    screen = lesson.screen
    assert isinstance(screen, ManualEntryScreen) and screen.heading == "Check dice" and sorted(screen.values) == [1, 3, 3, 6]
    press(lesson, *[Press.SELECT] * 4)
    assert lesson.screen == DiceLessonScreen((1, 0, 2, 0, 0, 1), "kept 4 dice", 2)


def test_a_die_read_wrong_is_corrected_with_next(lesson):
    throw(lesson, (2, 2))
    press(lesson, Press.NEXT, Press.NEXT, Press.SELECT, Press.SELECT)  # the first die showed 4, not 2
    assert lesson.table_dice.counts() == [0, 1, 0, 1, 0, 0]


def test_stop_on_the_first_die_drops_the_throw_and_stop_then_ends(lesson):
    throw(lesson, (5, 5, 5))
    press(lesson, Press.STOP)
    assert lesson.screen == DiceLessonScreen((0, 0, 0, 0, 0, 0), "throw dropped", 2) and not lesson.finished
    press(lesson, Press.STOP)
    assert lesson.finished


def test_an_empty_tray_or_too_many_dice_are_said(lesson):
    throw(lesson, ())
    assert lesson.screen.status == "no dice seen"
    throw(lesson, (1, 2, 3, 4, 5, 6))
    assert lesson.screen.status == "at most 5 dice"


def test_forget_drops_what_the_table_learned(tmp_path, capsys):
    data = tmp_path / "data"
    dice = TableDice(data, "white", background=False)
    lesson = DiceLesson(dummy_display(), dice)
    throw(lesson, (1, 2, 3))
    press(lesson, *[Press.SELECT] * 3)
    dice.refit()
    config = tmp_path / "companion.toml"
    config.write_text(f'[data]\ndir = "{data}"\n[game]\ndice_set = "white"\n')
    assert main(["calibrate", "--forget", "--config", str(config)]) == 0
    assert capsys.readouterr().out == "forgot the table's dice: removed dice-examples.npz\n"
    assert list(data.iterdir()) == []


@pytest.mark.parametrize("content", [b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (10**12,), }",
                                     b"PK\x03\x04 broken"], ids=["huge header", "broken zip"])
def test_forget_removes_files_it_cannot_read_without_reading_them(tmp_path, capsys, content):
    data = tmp_path / "data"
    data.mkdir()
    (data / "dice-examples.npz").write_bytes(content)
    (data / "dice-layer.npz").write_bytes(content)
    config = tmp_path / "companion.toml"
    config.write_text(f'[data]\ndir = "{data}"\n[game]\ndice_set = "white"\n')
    assert main(["calibrate", "--forget", "--config", str(config)]) == 0
    assert capsys.readouterr().out == "forgot the table's dice: removed dice-examples.npz, dice-layer.npz\n"
    assert list(data.iterdir()) == []


def test_the_lesson_runs_on_the_configured_devices_until_quit(monkeypatch, tmp_path, capsys):
    import io
    import sys

    from firmware.config import parse_config
    from firmware.table.start import teach_dice

    monkeypatch.setattr(sys, "stdin", io.StringIO("q"))
    config = parse_config({"buttons": {"source": "keyboard"}, "display": {"type": "dummy"},
                           "camera": {"backend": "synthetic"}, "data": {"dir": str(tmp_path)}})
    assert teach_dice(config) == 0
    assert capsys.readouterr().out.endswith("0 examples of 'dice': 1:0 2:0 3:0 4:0 5:0 6:0\n")


def test_the_set_up_screen_opens_the_lesson_and_stop_comes_back(tmp_path):
    from firmware.core.game_setup import GameSetup
    from firmware.drawing.screens import SetupScreen
    from firmware.table.companion import Companion
    from table_helpers import NAMES

    dice = TableDice(tmp_path, "white", background=False)
    companion = Companion(dummy_display(), GameSetup(NAMES), table_dice=dice)
    menu = companion.screen
    assert isinstance(menu, SetupScreen) and menu.rows[-1] == ("Dice", "teach camera")
    press(companion, *[Press.SELECT] * (len(menu.rows) - 1), Press.NEXT)
    assert companion.screen == DiceLessonScreen((0, 0, 0, 0, 0, 0), "", 2)
    throw(companion, (4, 4))
    press(companion, Press.SELECT, Press.SELECT)
    assert companion.screen == DiceLessonScreen((0, 0, 0, 2, 0, 0), "kept 2 dice", 2)
    press(companion, Press.STOP)
    assert companion.screen == SetupScreen(menu.rows, len(menu.rows) - 1, "learn"), "back on the dice row"
    press(companion, Press.SELECT, Press.SELECT)
    assert companion.state is not None, "then the game starts as ever"


def test_the_lesson_at_a_keyboard_takes_each_key_as_typed_and_says_the_keys(monkeypatch, tmp_path, capsys):
    """As demo and run do: the terminal hands over a key without Enter, and the keys are named."""
    import contextlib
    import io
    import sys

    from firmware.config import parse_config
    from firmware.table import start
    from hardware.keyboard import HELP

    typed_at: list[object] = []

    @contextlib.contextmanager
    def single_keys(stream):  # type: ignore[no-untyped-def]
        typed_at.append(stream)
        yield

    keys = io.StringIO("q")
    monkeypatch.setattr(sys, "stdin", keys)
    monkeypatch.setattr(start, "single_keys", single_keys)
    config = parse_config({"buttons": {"source": "keyboard"}, "display": {"type": "terminal"},
                           "camera": {"backend": "synthetic"}, "data": {"dir": str(tmp_path)}})
    assert start.teach_dice(config) == 0
    assert typed_at == [keys]
    assert HELP in capsys.readouterr().out
