"""What the calibrations in the data folder share (the tray's outline, the board's levels): a JSON
file with a picture of the view it was made on, both written atomically so a power cut never
leaves half a file, and read back with a message naming the file and what to do when it is bad."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

T = TypeVar("T")


def load_calibration(path: Path, what: str, parse: Callable[[str], T], error: type[ValueError], again: str) -> T | None:
    """The calibration ``parse`` makes of the file at ``path``, or None when there is none; ``error``
    naming the file (``what`` it is, e.g. "tray outline") and saying to ``again`` when it is bad."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as problem:
        raise error(f"cannot read the {what} {path}: {problem}") from problem
    try:
        return parse(text)
    except error as problem:
        raise error(f"{path} is not a usable {what} ({problem}); {again}") from problem


def save_calibration(json_path: Path, text: str, picture_path: Path, picture: np.ndarray) -> tuple[Path, Path]:
    """Store the calibration's JSON ``text`` and the picture of the view (BGR); returns their paths
    (JSON, picture). The picture goes first, so a calibration never stands without its view."""
    json_path.parent.mkdir(parents=True, exist_ok=True)
    encoded, png = cv2.imencode(".png", picture)
    if not encoded:
        raise OSError(f"cannot encode the picture of shape {picture.shape} as PNG")
    write_atomically(picture_path, png.tobytes())
    write_atomically(json_path, text.encode("utf-8"))
    return json_path, picture_path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, synced, then renamed over it."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except OSError as error:  # write() names no file: "File too large" alone says nothing of which
        raise OSError(error.errno, f"cannot write {path}: {error.strerror or error}") from error
    finally:
        temporary.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a power cut
    finally:
        os.close(folder)
