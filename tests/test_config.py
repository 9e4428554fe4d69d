"""The TOML configuration: the shipped example loads, and every wrong value is named and refused."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import Config, ConfigError, load_config, parse_config
from firmware.devices import camera_opener
from hardware.board_camera import SyntheticBoardCamera
from hardware.buttons import Press

EXAMPLE = Path(__file__).resolve().parent.parent / "firmware" / "pi" / "dice-companion.toml"


def test_the_shipped_example_is_the_defaults():
    assert load_config(EXAMPLE) == parse_config({}, base=EXAMPLE.parent) == Config()


def test_values_are_read_and_relative_folders_taken_from_the_file(tmp_path):
    config_file = tmp_path / "table.toml"
    config_file.write_text(
        '[game]\nplayers = ["Ann", "Bob", "Cy"]\nrule = "jumping"\ncolumns_to_win = 4\nbots = ["Cy"]\nhints = true\n'
        'dice_set = " red casino "\n'
        '[buttons]\nroll = 5\n[display]\ntype = "sh1106"\ni2c_address = 0x3D\n'
        '[camera]\nbackend = "folder"\nfolder = "trays"\n[data]\ndir = "data"\n'
    )
    config = load_config(config_file)
    assert config.game.names == ("Ann", "Bob", "Cy") and config.game.new_state().variant.jumping
    assert config.game.bots == ("Cy",) and config.game.hints and config.game.dice_set == "red casino"
    assert config.buttons.pins[Press.ROLL] == 5 and config.display.i2c_address == 0x3D
    assert config.camera.folder == tmp_path / "trays" and config.data_dir == tmp_path / "data"


# The keys [game] may hold, whichever game is chosen (the set-up screen may switch games): one list
EVERY_GAME_KEY = ("board, bots, cards, columns_to_win, dice_set, handicap, hints, kind, layout, mine_kind, mines, order, "
                  "palette, players, rule, scoring, target, teams, ties, zero")


def test_each_game_says_its_own_number_of_players():
    """One-player Yacht was refused ("2 to 4 names") though demo --players 1 plays it."""
    assert parse_config({"game": {"kind": "yacht", "players": ["Ann"]}}).game.names == ("Ann",)
    with pytest.raises(ConfigError, match="^game.players: Columns is for 2 players, got 3$"):
        parse_config({"game": {"kind": "columns", "players": ["A", "B", "C"]}})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"game": {"players": ["Ann"]}}, "game.players: Can't Stop is for 2 to 4 players, got 1"),
        ({"game": {"players": ["A", "B", "C", "D", "E"]}}, "allowed is a list of 1 to 4 names"),
        ({"game": {"players": ["Ann", "Bartholomew"]}}, "names of 1 to 8 characters"),
        ({"game": {"players": ["Ann", "Ann"]}}, "the names must differ"),
        ({"game": {"players": ["Ann\x1b[2J", "Bob"]}}, "a name may not hold control characters"),
        ({"game": {"players": "Ann, Bob"}}, "game.players = 'Ann, Bob': allowed is a list of 1 to 4 names"),
        ({"game": {"rule": "cheating"}}, 'game.rule = \'cheating\': allowed is one of "standard", "jumping", "forced-move"'),
        ({"game": {"columns_to_win": 6}}, "game.columns_to_win = 6: allowed is a whole number from 3 to 5"),
        ({"game": {"players": ["A", "B", "C", "D"], "columns_to_win": 4}}, "4 players can play to at most 3 columns"),
        ({"buttons": {"roll": 40}}, "buttons.roll = 40: allowed is a BCM GPIO number from 2 to 27"),
        ({"buttons": {"roll": 22}}, "two buttons share a pin"),
        ({"buttons": {"stop": True}}, "buttons.stop = True: allowed is a BCM GPIO number"),
        ({"buttons": {"source": "telepathy"}}, "buttons.source = 'telepathy'"),
        ({"buttons": {"long_press_ms": 50}}, "buttons.long_press_ms = 50: allowed is a whole number from 300 to 5000"),
        ({"display": {"type": "lcd"}}, 'display.type = \'lcd\': allowed is one of "ssd1306", "sh1106", "terminal", "dummy"'),
        ({"display": {"i2c_address": 0x99}}, "display.i2c_address = 153: allowed is 0x03 to 0x77"),
        ({"camera": {"backend": "folder"}}, "camera.folder is missing"),
        ({"camera": {"width": "wide"}}, "camera.width = 'wide'"),
        ({"camera": {"resolution": 5}}, "unknown key camera.resolution; known: backend, folder, height"),
        ({"game": {"columns_to_wn": 4}}, "unknown key game.columns_to_wn (did you mean columns_to_win?); "
                                         "known: " + EVERY_GAME_KEY),
        ({"game": {"kind": "tumblin", "order": "total", "scorng": 1}}, "unknown key game.scorng (did you mean scoring?); "
         "known: " + EVERY_GAME_KEY),
        ({"game": {"kind": "columns", "layot": "row"}}, "unknown key game.layot (did you mean layout?); "
                                                       "known: " + EVERY_GAME_KEY),
        ({"speaker": {"volume": 3}}, "unknown section [speaker]; known: board, buttons"),
        ({"gmae": {"kind": "yacht"}}, "unknown section [gmae] (did you mean [game]?); known: board, buttons"),
        ({"display": "oled"}, "display = 'oled': allowed is a table"),
        ({"buttons": {"next": 2}}, "buttons.next = 2: GPIO2 and GPIO3 carry the I2C bus of the display"),
        ({"game": {"bots": ["Cy"]}}, "game.bots = ['Cy']: allowed is a list of some of the players ['Ann', 'Bob']"),
        ({"game": {"bots": ["Ann", "Bob"]}}, "leaving at least one person"),
        ({"game": {"hints": "yes"}}, "game.hints = 'yes': allowed is true or false"),
        ({"display": {"i2c_port": -1}}, "display.i2c_port = -1: allowed is a whole number from 0 to 22"),
        ({"display": {"rotate": 4}}, "display.rotate = 4: allowed is 0, or 2 for a panel mounted upside down"),
        ({"display": {"rotate": 1}}, "display.rotate = 1: allowed is 0, or 2 for a panel mounted upside down (the screens"),
        ({"display": {"rotate": 3}}, "display.rotate = 3: allowed is 0, or 2"),
        ({"data": {"dir": "games\0old"}}, "data.dir = 'games\\x00old': allowed is a folder path, without control characters"),
        ({"camera": {"folder": "trays/\0"}}, "camera.folder = 'trays/\\x00': allowed is a folder of images, without control"),
        ({"camera": {"folder": "\n"}}, "camera.folder = '\\n': allowed is a folder of images, without control characters (NUL"),
        ({"camera": {"backend": "folder", "folder": "/" + "a" * 5000}}, "camera.folder = '/aaaaaaaaaaaa"),
        ({"camera": {"folder": "t/" + "b" * 256}}, "of at most 4095 bytes with at most 255 in each name"),
        ({"game": {"players": "x" * 5000}}, "game.players = '" + "x" * 59 + "... (5002 characters): allowed is"),
        ({"camera": {"reso\nlution": 5}}, "unknown key camera.'reso\\nlution'; known:"),
        ({"buttons": {"double_press_ms": 5000}}, "buttons.double_press_ms = 5000: allowed is a whole number from 0 to 1000"),
        ({"camera": {"height": 10}}, "camera.height = 10: allowed is a whole number from 64 to 4096"),
        ({"camera": {"usb_index": 99}}, "camera.usb_index = 99: allowed is a whole number from 0 to 63"),
        ({"camera": {"seed": -3}}, "camera.seed = -3: allowed is a whole number from 0 to"),
        ({"data": {"dir": 5}}, "data.dir = 5: allowed is a folder path"),
        ({"game": {"players": ["Ann", 7]}}, "game.players = ['Ann', 7]: allowed is a list of 1 to 4 names"),
        ({"camera": {"scene": "garden"}}, 'camera.scene = \'garden\': allowed is one of "tray", "desk", "board"'),
        ({"game": {"kind": "counters", "handicap": "sideways"}}, 'game.handicap = \'sideways\': allowed is "apart" or "own"'),
        ({"game": {"dice_set": ""}}, "game.dice_set = '': allowed is a short label of the dice played with, 1 to 20 printable"),
        ({"game": {"dice_set": "   "}}, "game.dice_set = '   ': allowed is a short label"),
        ({"game": {"dice_set": "red casino dice, set 2"}}, "game.dice_set = 'red casino dice, set 2': allowed is a short"),
        ({"game": {"dice_set": "red\ncasino"}}, "game.dice_set = 'red\\ncasino': allowed is a short label"),
        ({"game": {"dice_set": 6}}, "game.dice_set = 6: allowed is a short label"),
    ],
)
def test_a_wrong_value_names_the_key_the_value_and_what_is_allowed(table, message):
    with pytest.raises(ConfigError) as error:
        parse_config(table)
    assert message in str(error.value)


def test_a_broken_file_is_refused_with_its_name(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[game\nplayers = ")
    with pytest.raises(ConfigError, match="broken.toml is not valid TOML"):
        load_config(broken)


def test_a_deeply_nested_value_is_refused_in_one_line(tmp_path):
    nested = tmp_path / "nested.toml"
    nested.write_text("x = " + "[" * 100_000 + "]" * 100_000 + "\n")
    with pytest.raises(ConfigError, match=r"nested.toml: values are nested too deeply") as error:
        load_config(nested)
    assert "\n" not in str(error.value)


def test_messages_stay_short_and_on_one_line_whatever_the_value():
    with pytest.raises(ConfigError) as error:
        parse_config({"camera": {"backend": "folder", "folder": "/" + "a\n" * 3000}})
    assert "\n" not in str(error.value) and len(str(error.value)) < 300


def test_a_panel_mounted_upside_down_is_rotate_2():
    assert parse_config({"display": {"rotate": 2}}).display.rotate == 2


def test_buttons_may_use_gpio2_when_no_oled_is_on_the_bus():
    assert parse_config({"buttons": {"next": 2}, "display": {"type": "terminal"}}).buttons.pins[Press.NEXT] == 2


def test_a_file_that_is_not_text_is_refused(tmp_path):
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe[game]")
    with pytest.raises(ConfigError, match="binary.toml is not UTF-8 text"):
        load_config(binary)


def test_run_refuses_a_bad_configuration_before_opening_anything(tmp_path, capsys):
    config_file = tmp_path / "table.toml"
    config_file.write_text('[display]\ntype = "lcd"\n')
    assert main(["run", "--config", str(config_file)]) == 2
    assert "display.type = 'lcd'" in capsys.readouterr().err
    assert main(["run", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "no configuration file at" in capsys.readouterr().err


def unreadable(self: Path, *args: object, **kwargs: object) -> str:
    """What reading a file this user may not read raises (tests run as root, who reads every file)."""
    raise PermissionError(errno.EACCES, "Permission denied", str(self))


def test_a_configuration_that_cannot_be_read_is_said_in_one_plain_line(tmp_path, capsys, monkeypatch):
    """A folder said '[Errno 21] Is a directory: ...', an unreadable file '[Errno 13] Permission denied: ...'."""
    assert main(["run", "--config", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"dice-companion: {tmp_path} is a folder, not a configuration file\n"
    config_file = tmp_path / "table.toml"
    config_file.write_text("")
    monkeypatch.setattr(Path, "read_text", unreadable)
    assert main(["history", "--config", str(config_file)]) == 2
    assert capsys.readouterr().err == (f"dice-companion: cannot read {config_file}: permission denied (the user that "
                                       "runs dice-companion needs to read it)\n")


def test_the_synthetic_board_scene_is_one_board_camera_of_the_configured_size():
    config = parse_config({"camera": {"backend": "synthetic", "scene": "board", "width": 640, "height": 480, "seed": 3}})
    opener = camera_opener(config.camera)
    assert opener is not None
    camera = opener()
    assert isinstance(camera, SyntheticBoardCamera) and opener() is camera, "one simulated board, whoever opens it"
    assert camera.frame().shape == (480, 640, 3) and camera.levels.frame_size == (640, 480)


LEVELS = [[[100 + 10 * k, 100 * k], [700 - 10 * k, 100 * k], [710 - 10 * k, 100 * k + 100], [90 + 10 * k, 100 * k + 100]]
          for k in range(5)]


def test_board_levels_are_read_as_given():
    config = parse_config({"camera": {"width": 800, "height": 600}, "board": {"levels": LEVELS}})
    assert config.board.levels == tuple(tuple((float(x), float(y)) for x, y in outline) for outline in LEVELS)
    assert parse_config({}).board.levels is None


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        ("all of it", "board.levels = 'all of it': allowed is 5 outlines [[[x, y], [x, y], [x, y], ...], ...], level 0"),
        (LEVELS[:4], "a level map has one outline per level 0 to 4 (5), got 4; allowed is 5 outlines"),
        ([*LEVELS[:4], [[0, 0], [10, 0]]], "level 4's outline needs at least 3 corners, got 2"),
        ([*LEVELS[:4], [[0, 0], [10, 0], [10, True]]], "allowed is 5 outlines"),
        ([*LEVELS[:4], [[0, 0], [10, 0], [10, "ten"]]], "allowed is 5 outlines"),
        ([*LEVELS[:4], [[0, 0], [10, 0], [10]]], "allowed is 5 outlines"),
        ([*LEVELS[:4], [[0, 0], [900, 0], [10, 10]]], "level 4's corner (900, 0) lies outside the 800x600 frame; allowed is"),
        ([*LEVELS[:4], [[0, 0], [5, 5], [10, 10]]], "level 4's corners enclose no area"),
    ],
)
def test_wrong_board_levels_are_refused(levels, message):
    with pytest.raises(ConfigError) as error:
        parse_config({"camera": {"width": 800, "height": 600}, "board": {"levels": levels}})
    assert message in str(error.value) and "inside the camera's 800x600 frame" in str(error.value)


def test_the_configuration_knows_only_levels_in_its_board_section():
    with pytest.raises(ConfigError, match="unknown key board.corners; known: levels"):
        parse_config({"board": {"corners": []}})


def test_bots_for_a_game_of_skill_are_refused_in_one_line():
    """Tumblin' Dice took them and ignored them: Bob played as a person."""
    with pytest.raises(ConfigError, match=r"^game.bots = \['Bob'\]: Tumblin' Dice is a game of skill: no advisor plays a seat"):
        parse_config({"game": {"kind": "tumblin", "players": ["Ann", "Bob"], "bots": ["Bob"]}})
    assert parse_config({"game": {"kind": "tumblin", "players": ["Ann", "Bob"]}}).game.bots == ()
