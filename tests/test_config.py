"""The TOML configuration: the shipped example loads, and every wrong value is named and refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware.cli import main
from firmware.config import Config, ConfigError, load_config, parse_config
from hardware.buttons import Press

EXAMPLE = Path(__file__).resolve().parent.parent / "firmware" / "pi" / "dice-companion.toml"


def test_the_shipped_example_is_the_defaults():
    assert load_config(EXAMPLE) == parse_config({}, base=EXAMPLE.parent) == Config()


def test_values_are_read_and_relative_folders_taken_from_the_file(tmp_path):
    config_file = tmp_path / "table.toml"
    config_file.write_text(
        '[game]\nplayers = ["Ann", "Bob", "Cy"]\nrule = "jumping"\ncolumns_to_win = 4\n'
        '[buttons]\nroll = 5\n[display]\ntype = "sh1106"\ni2c_address = 0x3D\n'
        '[camera]\nbackend = "folder"\nfolder = "trays"\n[data]\ndir = "data"\n'
    )
    config = load_config(config_file)
    assert config.game.names == ("Ann", "Bob", "Cy") and config.game.variant().jumping
    assert config.buttons.pins[Press.ROLL] == 5 and config.display.i2c_address == 0x3D
    assert config.camera.folder == tmp_path / "trays" and config.data_dir == tmp_path / "data"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"game": {"players": ["Ann"]}}, "game.players = ['Ann']: allowed is a list of 2 to 4 names"),
        ({"game": {"players": ["Ann", "Bartholomew"]}}, "names of 1 to 8 characters"),
        ({"game": {"players": ["Ann", "Ann"]}}, "the names must differ"),
        ({"game": {"players": "Ann, Bob"}}, "game.players = 'Ann, Bob': allowed is a list of 2 to 4 names"),
        ({"game": {"rule": "cheating"}}, 'game.rule = \'cheating\': allowed is one of "standard", "jumping", "forced-move"'),
        ({"game": {"columns_to_win": 6}}, "game.columns_to_win = 6: allowed is a whole number from 3 to 5"),
        ({"game": {"players": ["A", "B", "C", "D"], "columns_to_win": 4}}, "4 players can play to at most 3 columns"),
        ({"buttons": {"roll": 40}}, "buttons.roll = 40: allowed is a BCM GPIO number"),
        ({"buttons": {"roll": 22}}, "two buttons share a pin"),
        ({"buttons": {"stop": True}}, "buttons.stop = True: allowed is a BCM GPIO number"),
        ({"buttons": {"source": "telepathy"}}, "buttons.source = 'telepathy'"),
        ({"buttons": {"long_press_ms": 50}}, "buttons.long_press_ms = 50: allowed is a whole number from 300 to 5000"),
        ({"display": {"type": "lcd"}}, 'display.type = \'lcd\': allowed is one of "ssd1306", "sh1106", "terminal", "dummy"'),
        ({"display": {"i2c_address": 0x99}}, "display.i2c_address = 153: allowed is 0x03 to 0x77"),
        ({"camera": {"backend": "folder"}}, "camera.folder is missing"),
        ({"camera": {"width": "wide"}}, "camera.width = 'wide'"),
        ({"camera": {"resolution": 5}}, "unknown key camera.resolution; known: backend, folder, height"),
        ({"speaker": {"volume": 3}}, "unknown section [speaker]"),
        ({"display": "oled"}, "display = 'oled': allowed is a table"),
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


def test_run_refuses_a_bad_configuration_before_opening_anything(tmp_path, capsys):
    config_file = tmp_path / "table.toml"
    config_file.write_text('[display]\ntype = "lcd"\n')
    assert main(["run", "--config", str(config_file)]) == 2
    assert "display.type = 'lcd'" in capsys.readouterr().err
    assert main(["run", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml" in capsys.readouterr().err
