"""Fuzz the configuration: every config is refused in one clear line, or the companion builds its
devices from it on simulated hardware; never a traceback.

Configs are the shipped example with a few keys changed, to values that fit and values that do
not (wrong types, out of range, NUL characters, 5,000-character paths, nesting 100,000 deep), and
now and then a file broken as text. "Simulated hardware": the OLED is luma's real SSD1306/SH1106
driver writing to a no-op bus, the buttons gpiozero's MockFactory, the Pi and USB cameras the
synthetic camera, a folder camera a real folder (of images, of a broken one, or none at all).

    python tests/config_fuzz.py [--configs 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import sys
import tempfile
import traceback
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from unittest import mock

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import firmware.games  # noqa: E402, F401  (lists the games in the core's catalogue, as the commands do)
from firmware.config import Config, ConfigError, load_config  # noqa: E402
from firmware.devices import camera_opener, open_buttons, open_display  # noqa: E402
from firmware.journal.journal import Journal  # noqa: E402
from firmware.table._loop import EventQueue  # noqa: E402
from firmware.table.companion import Companion  # noqa: E402
from hardware.buttons import ButtonsError  # noqa: E402
from hardware.camera import CameraError  # noqa: E402
from hardware.display import DisplayError  # noqa: E402

EXAMPLE = ROOT / "firmware" / "pi" / "dice-companion.toml"
DEVICE_REFUSALS = (CameraError, DisplayError, ButtonsError)  # a device that cannot be used, said in one line
LONGEST_MESSAGE = 400  # characters: a clear message, not a dump

DEEP = 100_000
HOSTILE: tuple[Any, ...] = (
    -1, 0, 1, 3, 2**63 - 1, -(2**63), 1.5, math.nan, math.inf, True, False, "", " ", "x" * 5000, "a\0b",
    "Zoë", "\n", "/" + "a" * 5000, [], [1], ["Ann"], [[[]]], {}, {"k": 1},
    datetime(1979, 5, 27, 7, 32, tzinfo=timezone.utc), "0x3C", "ssd1306", "folder",
)
VALID: dict[str, dict[str, tuple[Any, ...]]] = {
    "game": {
        "players": (["Ann", "Bob"], ["A", "B", "C", "D"], ["Margaret", "You"], ["Zoë", "Ann", "Bo"], [" Ann ", "Bob"]),
        "rule": ("standard", "jumping", "forced-move"),
        "columns_to_win": (3, 4, 5),
        "bots": ([], ["Bob"], ["Ann"]),
        "hints": (True, False),
        "dice_set": ("dice", "red casino", "Zoë's d6", " green ", "x" * 20),
    },
    "buttons": {
        "source": ("gpio", "keyboard"),
        **{name: (2, 4, 17, 22, 23, 27) for name in ("roll", "stop", "next", "select")},
        "double_press_ms": (0, 200, 1000),
        "long_press_ms": (300, 1000, 5000),
    },
    "display": {
        "type": ("ssd1306", "sh1106", "terminal", "dummy"),
        "i2c_port": (0, 1, 22),
        "i2c_address": (0x03, 0x3C, 0x3D, 0x77),
        "rotate": (0, 1, 2, 3),
    },
    "camera": {
        "backend": ("picamera2", "usb", "folder", "synthetic", "none"),
        "width": (64, 640, 1280, 4096),
        "height": (64, 480, 960, 4096),
        "usb_index": (0, 63),
        "folder": ("trays", "broken", "missing", "/"),
        "seed": (0, 1, 2**32 - 1),
        "scene": ("tray", "desk", "board"),
    },
    "tray": {"corners": ([[160, 120], [1120, 120], [1120, 840], [160, 840]], [[0, 0], [64, 0], [64, 64], [0, 64]])},
    "board": {"levels": (
        [[[316, 154], [964, 154], [980, 311], [300, 311]], [[300, 311], [980, 311], [997, 468], [283, 468]],
         [[283, 468], [997, 468], [1014, 626], [266, 626]], [[266, 626], [1014, 626], [1031, 783], [249, 783]],
         [[249, 783], [1031, 783], [1048, 941], [232, 941]]],
        [[[0, 12 * k], [64, 12 * k], [64, 12 * k + 12], [0, 12 * k + 12]] for k in range(5)],
    )},
    "data": {"dir": ("data", "/var/lib/dice-companion")},
}


@dataclass
class Figures:
    configs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    tracebacks: list[str] = field(default_factory=list)  # the config and its traceback, for each

    def lines(self) -> list[str]:
        refused = self.outcomes["refused"] + self.outcomes["device refused"]
        return [
            f"configs {self.configs} accepted {self.outcomes['accepted']} refused {refused} "
            f"(by the check {self.outcomes['refused']}, by a device {self.outcomes['device refused']}) "
            f"tracebacks {len(self.tracebacks)}",
            *self.tracebacks,
        ]


def toml_value(value: Any) -> str:
    """``value`` written as TOML (JSON's string escapes are TOML's)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf"
    if isinstance(value, (int, float, str)):
        return json.dumps(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


def toml_text(table: dict[str, dict[str, Any]]) -> str:
    return "".join(
        f"[{json.dumps(section)}]\n" + "".join(f"{json.dumps(key)} = {toml_value(value)}\n" for key, value in keys.items())
        for section, keys in table.items()
    )


def random_config(rng: random.Random) -> str:
    """The text of one fuzzed configuration file."""
    table: dict[str, dict[str, Any]] = {section: {} for section in VALID}
    for _ in range(rng.randint(1, 4)):
        section = rng.choice(list(VALID)) if rng.random() > 0.02 else "speaker"
        keys = VALID.get(section, {})
        key = rng.choice(list(keys)) if keys and rng.random() > 0.03 else "volume"
        value = rng.choice(keys[key]) if key in keys and rng.random() < 0.85 else rng.choice(HOSTILE)
        table.setdefault(section, {})[key] = value
    if "folder" in table["camera"] and rng.random() < 0.7:  # who names a folder mostly means to use it
        table["camera"]["backend"] = "folder"
    text = toml_text(table)
    damage = rng.random()
    if damage < 0.05:
        return text + "x = " + "[" * DEEP + "]" * DEEP + "\n"
    if damage < 0.10:
        return text[: rng.randrange(len(text) + 1)]
    if damage < 0.15:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(["\0", "\ufffd", "[", '"', "=", "\n[game]\n"]) + text[at:]
    return text


def build_devices(config: Config) -> None:
    """What ``run`` opens, on simulated hardware: the display showing the first screen, the buttons,
    the camera (a folder camera also gives a frame). Raises what a device raises."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    from luma.core.interface.serial import noop

    simulated = ("picamera2", "usb")
    camera_config = replace(config.camera, backend="synthetic") if config.camera.backend in simulated else config.camera
    with (
        mock.patch("luma.core.interface.serial.i2c", lambda port, address: noop()),
        mock.patch.object(Device, "pin_factory", MockFactory()),
        mock.patch("sys.stdin", io.StringIO("")),
        mock.patch("sys.stdout", io.StringIO()),  # the terminal display draws here
    ):
        opener = camera_opener(camera_config)
        display = open_display(config.display)
        try:
            buttons = open_buttons(config.buttons, EventQueue().press)
            try:
                Companion(display, config.game, journal=Journal(":memory:"), has_camera=opener is not None)
                if opener is not None:
                    camera = opener()
                    if camera_config.backend == "folder":
                        camera.frame()
                    camera.close()
            finally:
                buttons.close()
        finally:
            display.close()


def _folders(scratch: Path) -> None:
    """The folders a fuzzed camera.folder may name: images, a broken image, none at all ("missing")."""
    (scratch / "trays").mkdir()
    cv2.imwrite(str(scratch / "trays" / "a.png"), np.full((48, 64, 3), 90, np.uint8))
    (scratch / "broken").mkdir()
    (scratch / "broken" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n broken")


def try_config(text: str, scratch: Path) -> str:
    """"refused", "device refused" or "accepted"; raises whatever else escapes (a bug)."""
    path = scratch / "dice-companion.toml"
    path.write_text(text, encoding="utf-8")
    try:
        config = load_config(path)
    except ConfigError as error:
        _check_message(error)
        return "refused"
    try:
        build_devices(config)
    except DEVICE_REFUSALS as error:
        _check_message(error)
        return "device refused"
    return "accepted"


def _check_message(error: Exception) -> None:
    message = str(error)
    if "\n" in message or not message or len(message) > LONGEST_MESSAGE:
        raise AssertionError(f"not one clear line: {message[:LONGEST_MESSAGE]!r}...") from error


def fuzz(configs: int, seed: int) -> Figures:
    """Try ``configs`` fuzzed configurations (the same ones for the same seed)."""
    rng = random.Random(seed)
    figures = Figures()
    with tempfile.TemporaryDirectory(prefix="dice-companion-config-fuzz-") as folder:
        scratch = Path(folder)
        _folders(scratch)
        for number in range(configs):
            text = random_config(rng)
            figures.configs += 1
            try:
                figures.outcomes[try_config(text, scratch)] += 1
            except Exception:  # the fuzz's finding: keep it with the config that caused it
                figures.tracebacks.append(f"config {number}:\n{text[:2000]}\n{traceback.format_exc()}")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", type=int, default=2000, help="how many configurations to try (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the fuzz (default 1): the same seed, the same configs")
    args = parser.parse_args(argv)
    figures = fuzz(args.configs, args.seed)
    print("\n".join(figures.lines()))
    return 1 if figures.tracebacks else 0


if __name__ == "__main__":
    sys.exit(main())
