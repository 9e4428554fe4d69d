"""The calibrated tray in the data folder: ``tray.json`` (its outline) and ``tray.png`` (the view
it was found in, outline drawn), both written atomically so a power cut never leaves half a file."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np

from vision.tray import TrayError, TrayOutline

TRAY_NAME = "tray.json"
TRAY_PICTURE_NAME = "tray.png"


def load_tray(data_dir: Path) -> TrayOutline | None:
    """The stored outline, or None when the tray was never calibrated; TrayError naming the file
    when it cannot be read or used."""
    path = data_dir / TRAY_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise TrayError(f"cannot read the tray outline {path}: {error}") from error
    try:
        return TrayOutline.from_json(text)
    except TrayError as error:
        raise TrayError(f"{path} is not a usable tray outline ({error}); run dice-companion calibrate again") from error


def save_tray(data_dir: Path, tray: TrayOutline, picture: np.ndarray) -> tuple[Path, Path]:
    """Store the outline and the picture of the view (BGR); returns their paths (outline, picture).
    The picture goes first, so an outline never stands without the view it was found in."""
    data_dir.mkdir(parents=True, exist_ok=True)
    encoded, png = cv2.imencode(".png", picture)
    if not encoded:
        raise OSError(f"cannot encode the tray picture of shape {picture.shape} as PNG")
    picture_path, outline_path = data_dir / TRAY_PICTURE_NAME, data_dir / TRAY_NAME
    write_atomically(picture_path, png.tobytes())
    write_atomically(outline_path, tray.to_json().encode("utf-8"))
    return outline_path, picture_path


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, synced, then renamed over it."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)  # the rename itself survives a power cut
    finally:
        os.close(folder)
