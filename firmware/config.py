"""The companion's TOML configuration, checked whole before any device is opened.

Every key is optional (the defaults suit the wiring table in the README); an unknown key or a
wrong value is refused with a message naming the key, the value and what is allowed, so the
companion never starts half-configured. ``firmware/pi/dice-companion.toml`` is an example.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Iterable
from typing import Any

from engine.errors import EngineError
from firmware.core.catalogue import default_kind, games, kinds, table_game
from firmware.core.game_setup import DICE_SET_ALLOWED, GameSetup, is_dice_set
from hardware.buttons import BUTTONS
from firmware.device_config import (
    BoardConfig,
    ButtonConfig,
    CameraConfig,
    DeviceConfig,
    DisplayConfig,
    TrayConfig,
    WebConfig,
)
from hardware.display import PANELS
from vision.board.board_levels import LEVELS, LevelMap, LevelMapError
from vision.read.frame_outline import Outline, is_outline

DISPLAYS = (*PANELS, "terminal", "dummy")
CAMERAS = ("picamera2", "usb", "folder", "synthetic", "none")
SCENES = ("tray", "desk", "board")  # what the synthetic camera shows
BUTTON_SOURCES = ("gpio", "keyboard")
MAX_NAME_LENGTH = 8  # characters: a name must fit the OLED's title line
BCM_PINS = range(2, 28)  # the 40-pin header's usable GPIO numbers
I2C_ADDRESSES = range(0x03, 0x78)
I2C_BUS_PINS = (2, 3)  # SDA1 and SCL1: the OLED's wires
ROTATIONS = range(0, 4, 2)  # quarter turns: 0 or 2; the screens are drawn 128x64, so 1 and 3 (portrait) cannot show them
PATH_MAX_BYTES = 4095  # Linux refuses longer paths (PATH_MAX, less the closing NUL) ...
NAME_MAX_BYTES = 255  # ... and longer names of one file or folder in them
ADDRESS_ALLOWED = '"127.0.0.1" (this machine only), "0.0.0.0" (every network the Pi is on) or one of its IP addresses'
SHOWN_CHARS = 60  # a value quoted in a message is cut to this many characters


class ConfigError(ValueError):
    """A configuration value the companion cannot use."""


def shown(value: Any) -> str:
    """``value`` as a message quotes it: on one line, cut to SHOWN_CHARS characters (a 5,000-character
    path or a list nested 500 deep must not bury what the message says)."""
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else f"{text[:SHOWN_CHARS]}... ({len(text)} characters)"


def _key_name(key: str) -> str:
    """A key or section name as a message shows it: bare if TOML could write it bare, else quoted."""
    return key if len(key) <= SHOWN_CHARS and re.fullmatch(r"[A-Za-z0-9_-]+", key) else shown(key)


@dataclass(frozen=True)
class Config(DeviceConfig):
    """The whole configuration: the devices and the data folder (what calibration and the devices
    read), and the game set up by default."""

    game: GameSetup = field(default_factory=GameSetup)


def load_config(path: Path) -> Config:
    """Read and check a TOML file; raises ConfigError, also when it cannot be read."""
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as error:
        raise ConfigError(f"no configuration file at {path} (firmware/pi/dice-companion.toml is an example)") from error
    except OSError as error:
        raise ConfigError(_unreadable(path, error)) from error
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from error
    except UnicodeDecodeError as error:
        raise ConfigError(f"{path} is not UTF-8 text: {error}") from error
    except RecursionError:  # tomllib parses nested arrays and tables by recursion
        raise ConfigError(f"{path}: values are nested too deeply (no key of the configuration nests)") from None
    return parse_config(table, base=path.parent)


def _unreadable(path: Path, error: OSError) -> str:
    """Why the file at ``path`` cannot be read, in one plain line: Python's own says its errno and the
    path again ("[Errno 21] Is a directory: '...'")."""
    if isinstance(error, IsADirectoryError):
        return f"{path} is a folder, not a configuration file"
    reason = (error.strerror or type(error).__name__).lower()
    advice = " (the user that runs dice-companion needs to read it)" if isinstance(error, PermissionError) else ""
    return f"cannot read {path}: {reason}{advice}"


def parse_config(table: dict[str, Any], base: Path = Path(".")) -> Config:
    """A checked Config from a parsed TOML table; relative paths are taken from ``base``."""
    reader = _Reader(table)
    game = reader.section("game")
    names = _names(reader.value(game, "players", list, list(GameSetup.names), f"a list of {_players()} names"))
    bots = reader.value(game, "bots", list, [], "a list of the players' names that the advisor plays")
    if not all(bot in names for bot in bots) or len(set(bots)) >= len(names):
        raise ConfigError(
            f"game.bots = {shown(bots)}: allowed is a list of some of the players {list(names)}, leaving at least one person"
        )
    kind = reader.choice(game, "kind", kinds(), default_kind())
    if bots and not table_game(kind).advised:
        raise ConfigError(f"game.bots = {shown(bots)}: {table_game(kind).title} is a game of skill: no advisor plays "
                          "a seat (leave bots out)")
    config = Config(
        game=GameSetup(
            names=names,
            bots=tuple(bots),
            hints=reader.value(game, "hints", bool, GameSetup.hints, "true or false"),
            kind=kind,
            options=_game_options(reader, game, base),
            dice_set=_dice_set(reader, game),
        ),
        buttons=_buttons(reader),
        display=_display(reader),
        camera=(camera := _camera(reader, base)),
        tray=_tray(reader, camera),
        board=_board(reader, camera),
        web=_web(reader),
        data_dir=base / reader.path(reader.section("data"), "dir", str(Config.data_dir), "a folder path"),
    )
    reader.known(game, (option.key for table_game in games() for option in table_game.options))  # every game's
    reader.refuse_unknown()
    _refuse_buttons_on_the_i2c_bus(config)
    try:
        config.game.check()
    except EngineError as error:
        given = [f"game.{key}" for key in config.game.game_options() if key in config.game.options] or ["game.players"]
        raise ConfigError(f"{' / '.join(given)}: {error}") from error
    return config


def _game_options(reader: _Reader, game: tuple[str, dict[str, Any]], base: Path) -> dict[str, Any]:
    """Every game's options given in ``[game]`` (each game uses its own; the set-up screen may switch games)."""
    options = {}
    for table_game in games():
        for option in table_game.options:
            if option.key not in game[1]:
                continue
            value = reader.value(game, option.key, object, None, option.allowed)
            try:
                options[option.key] = option.parse(value, base)
            except EngineError as error:
                raise ConfigError(f"game.{option.key} = {shown(value)}: {error}") from None
    return options


def _dice_set(reader: _Reader, game: tuple[str, dict[str, Any]]) -> str:
    """The label of the dice played with (spaces at either end dropped, as in a name)."""
    given = reader.value(game, "dice_set", str, GameSetup.dice_set, DICE_SET_ALLOWED)
    if not is_dice_set(given.strip()):
        raise ConfigError(f"game.dice_set = {shown(given)}: allowed is {DICE_SET_ALLOWED}")
    return given.strip()


def _refuse_buttons_on_the_i2c_bus(config: Config) -> None:
    if config.display.type not in PANELS:
        return
    for button, pin in config.buttons.pins.items():
        if pin in I2C_BUS_PINS:
            raise ConfigError(
                f"buttons.{button.value} = {pin}: GPIO2 and GPIO3 carry the I2C bus of the display "
                f'(display.type = "{config.display.type}"); allowed is another BCM GPIO number'
            )


def _player_range() -> range:
    """Any game's player counts; each game's own range is its set-up's check."""
    return range(min(game.players.start for game in games()), max(game.players[-1] for game in games()) + 1)


def _players() -> str:
    counts = _player_range()
    return f"{counts[0]} to {counts[-1]}"


def _names(names: list[Any]) -> tuple[str, ...]:
    if len(names) not in _player_range() or not all(isinstance(n, str) and 1 <= len(n.strip()) <= MAX_NAME_LENGTH for n in names):
        raise ConfigError(
            f"game.players = {shown(names)}: allowed is a list of {_players()} names of 1 to {MAX_NAME_LENGTH} characters"
        )
    if not all(n.isprintable() for n in names):  # a control character would reach the log and terminals raw
        raise ConfigError(f"game.players = {shown(names)}: a name may not hold control characters")
    stripped = tuple(n.strip() for n in names)
    if len(set(stripped)) != len(stripped):
        raise ConfigError(f"game.players = {shown(names)}: the names must differ")
    return stripped


def _buttons(reader: _Reader) -> ButtonConfig:
    section = reader.section("buttons")
    defaults = ButtonConfig()
    pins = {b: reader.number(section, b.value, BCM_PINS, defaults.pins[b], "a BCM GPIO number from 2 to 27") for b in BUTTONS}
    if len(set(pins.values())) != len(pins):
        raise ConfigError(f"buttons: two buttons share a pin ({', '.join(f'{b.value} = {p}' for b, p in pins.items())})")
    return ButtonConfig(
        source=reader.choice(section, "source", BUTTON_SOURCES, defaults.source),
        pins=pins,
        double_press_ms=reader.number(section, "double_press_ms", range(0, 1001), defaults.double_press_ms),
        long_press_ms=reader.number(section, "long_press_ms", range(300, 5001), defaults.long_press_ms),
    )


def _display(reader: _Reader) -> DisplayConfig:
    section = reader.section("display")
    defaults = DisplayConfig()
    return DisplayConfig(
        type=reader.choice(section, "type", DISPLAYS, defaults.type),
        i2c_port=reader.number(section, "i2c_port", range(0, 23), defaults.i2c_port),
        i2c_address=reader.number(section, "i2c_address", I2C_ADDRESSES, defaults.i2c_address, "0x03 to 0x77"),
        rotate=reader.number(
            section, "rotate", ROTATIONS, defaults.rotate,
            "0, or 2 for a panel mounted upside down (the screens are landscape, 128x64: 1 and 3 would stand them on end)",
        ),
    )


def _web(reader: _Reader) -> WebConfig:
    section = reader.section("web")
    defaults = WebConfig()
    address = reader.value(section, "address", str, defaults.address, ADDRESS_ALLOWED)
    check_address(address, "web.address")
    return WebConfig(
        enabled=reader.value(section, "enabled", bool, defaults.enabled, "true or false"),
        address=address,
        port=reader.number(section, "port", range(1, 65536), defaults.port),
        hosts=_host_names(reader.value(section, "hosts", list, list(defaults.hosts), HOSTS_ALLOWED)),
    )


HOSTS_ALLOWED = 'a list of host names the page is reached by, like ["dice.local"]'


def _host_names(names: list[Any]) -> tuple[str, ...]:
    """Host names as a browser sends them: letters, digits, dots and hyphens."""
    pattern = re.compile(r"[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*")
    if not all(isinstance(name, str) and len(name) <= 253 and pattern.fullmatch(name) for name in names):
        raise ConfigError(f"web.hosts = {shown(names)}: allowed is {HOSTS_ALLOWED}")
    return tuple(names)


def check_address(address: str, name: str) -> None:
    """Refuse an address the page cannot listen on by number (a host name would need a lookup)."""
    try:
        ipaddress.ip_address(address)
    except ValueError:
        raise ConfigError(f"{name} = {shown(address)}: allowed is {ADDRESS_ALLOWED}") from None


def _camera(reader: _Reader, base: Path) -> CameraConfig:
    section = reader.section("camera")
    defaults = CameraConfig()
    backend = reader.choice(section, "backend", CAMERAS, defaults.backend)
    folder = reader.path(section, "folder", "", "a folder of images")
    if backend == "folder" and not folder:
        raise ConfigError('camera.folder is missing: camera.backend = "folder" needs a folder of images')
    return CameraConfig(
        backend=backend,
        width=reader.number(section, "width", range(64, 4097), defaults.width),
        height=reader.number(section, "height", range(64, 4097), defaults.height),
        usb_index=reader.number(section, "usb_index", range(0, 64), defaults.usb_index),
        folder=base / folder if folder else None,
        seed=reader.number(section, "seed", range(0, 2**32), defaults.seed),
        scene=reader.choice(section, "scene", SCENES, defaults.scene),
    )


def _tray(reader: _Reader, camera: CameraConfig) -> TrayConfig:
    """The tray's corners, if given: four [x, y] pairs inside the camera's frame, going round an area."""
    width, height = camera.width, camera.height
    allowed = (
        f"four corners [[x, y], [x, y], [x, y], [x, y]] in order around the tray, "
        f"inside the camera's {width}x{height} frame"
    )
    corners = reader.value(reader.section("tray"), "corners", list, None, allowed)
    if corners is None:
        return TrayConfig()
    numbers = (int, float)
    if len(corners) != 4 or not all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(v, numbers) and not isinstance(v, bool) for v in c)
        for c in corners
    ):
        raise ConfigError(f"tray.corners = {shown(corners)}: allowed is {allowed}")
    outside = [c for c in corners if not (0 <= c[0] <= width and 0 <= c[1] <= height)]
    if outside:
        raise ConfigError(f"tray.corners = {shown(corners)}: {shown(outside[0])} lies outside the frame; allowed is {allowed}")
    points = tuple((float(x), float(y)) for x, y in corners)
    if not _goes_round(points):
        raise ConfigError(f"tray.corners = {shown(corners)}: in this order they do not go round a convex area (sides cross, or three lie in a line); allowed is {allowed}")
    return TrayConfig(points)


def _board(reader: _Reader, camera: CameraConfig) -> BoardConfig:
    """The levels' outlines, if given: one per level, each inside the camera's frame around an area."""
    frame = (camera.width, camera.height)
    allowed = (
        f"{LEVELS} outlines [[[x, y], [x, y], [x, y], ...], ...], level 0 (the 0x level) to level {LEVELS - 1}, "
        f"each of 3 or more corners inside the camera's {frame[0]}x{frame[1]} frame"
    )
    levels = reader.value(reader.section("board"), "levels", list, None, allowed)
    return BoardConfig(None if levels is None else _level_outlines(levels, frame, allowed))


def _level_outlines(levels: list[Any], frame: tuple[int, int], allowed: str) -> tuple[Outline, ...]:
    """The outlines of ``levels``, checked as a level map of frames of ``frame`` size is."""
    if not all(is_outline(outline) for outline in levels):
        raise ConfigError(f"board.levels = {shown(levels)}: allowed is {allowed}")
    outlines = tuple(tuple((float(x), float(y)) for x, y in outline) for outline in levels)
    try:
        return LevelMap(outlines, frame).outlines
    except LevelMapError as error:
        raise ConfigError(f"board.levels = {shown(levels)}: {error}; allowed is {allowed}") from None


def _goes_round(points: tuple[tuple[float, float], ...]) -> bool:
    """Whether the corners, in their order, outline a convex area (no crossing sides, no three in a line)."""
    turns = []
    for i, (ax, ay) in enumerate(points):
        bx, by = points[(i + 1) % len(points)]
        cx, cy = points[(i + 2) % len(points)]
        turns.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return all(t > 0 for t in turns) or all(t < 0 for t in turns)


class _Reader:
    """Takes values out of the parsed table, checking each, and remembers which keys were used."""

    def __init__(self, table: dict[str, Any]) -> None:
        self.table = table
        self.used: dict[str, set[str]] = {}

    def section(self, name: str) -> tuple[str, dict[str, Any]]:
        value = self.table.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{name} = {shown(value)}: allowed is a table ([{name}])")
        self.used.setdefault(name, set())
        return name, value

    def value(self, section: tuple[str, dict[str, Any]], key: str, kind: type, default: Any, allowed: str) -> Any:
        name, table = section
        self.used[name].add(key)
        if key not in table:
            return default
        value = table[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind not in (bool, object):
            raise ConfigError(f"{name}.{key} = {shown(value)}: allowed is {allowed}")
        return value

    def path(self, section: tuple[str, dict[str, Any]], key: str, default: str, allowed: str) -> str:
        """A path the system can open and a message can show: no NUL, no line break or other control
        character, within Linux's length limits."""
        text = self.value(section, key, str, default, allowed)
        encoded = text.encode("utf-8")
        if not text.isprintable() or len(encoded) > PATH_MAX_BYTES or any(len(n) > NAME_MAX_BYTES for n in encoded.split(b"/")):
            raise ConfigError(
                f"{section[0]}.{key} = {shown(text)}: allowed is {allowed}, without control characters (NUL, line breaks), "
                f"of at most {PATH_MAX_BYTES} bytes with at most {NAME_MAX_BYTES} in each name"
            )
        return text

    def number(
        self, section: tuple[str, dict[str, Any]], key: str, allowed: range, default: int, what: str = ""
    ) -> int:
        text = what or f"a whole number from {allowed.start} to {allowed.stop - 1}"
        value = self.value(section, key, int, default, text)
        if value not in allowed:
            raise ConfigError(f"{section[0]}.{key} = {shown(value)}: allowed is {text}")
        return value

    def choice(self, section: tuple[str, dict[str, Any]], key: str, allowed: tuple[str, ...], default: str) -> str:
        text = "one of " + ", ".join(f'"{a}"' for a in allowed)
        value = self.value(section, key, str, default, text)
        if value not in allowed:
            raise ConfigError(f"{section[0]}.{key} = {shown(value)}: allowed is {text}")
        return value

    def known(self, section: tuple[str, dict[str, Any]], keys: Iterable[str]) -> None:
        """Keys the section may hold though they were not read (another game's options)."""
        self.used[section[0]].update(keys)

    def refuse_unknown(self) -> None:
        """Refuse a section or key no one read, naming the known ones and the nearest."""
        for name in self.table:
            if name not in self.used:
                hint = _nearest(name, self.used, "[{}]")
                raise ConfigError(f"unknown section [{_key_name(name)}]{hint}; known: {', '.join(sorted(self.used))}")
            for key in self.table[name]:
                if key not in self.used[name]:
                    raise ConfigError(f"unknown key {name}.{_key_name(key)}{_nearest(key, self.used[name])}; "
                                      f"known: {', '.join(sorted(self.used[name]))}")


def _nearest(name: str, known: Iterable[str], form: str = "{}") -> str:
    """The hint ' (did you mean X?)', X the known name nearest a misspelt one (written in ``form``), or ''
    when none is near: a typo is seen at once, where the list of known names must be read through."""
    nearest = difflib.get_close_matches(str(name), list(known), 1)
    return f" (did you mean {form.format(nearest[0])}?)" if nearest else ""
