"""Compare output with its reference in tests/golden/ (rewritten only with --update-golden)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageChops

GOLDEN = Path(__file__).resolve().parent / "golden"


def _reference(name: str, update: bool, write) -> Path | None:
    """The reference's path, or None after (re)writing it with ``write(path)`` under --update-golden."""
    path = GOLDEN / name
    if update:
        GOLDEN.mkdir(exist_ok=True)
        write(path)
        return None
    assert path.exists(), f"no reference {path}; run pytest --update-golden and look at it"
    return path


def assert_matches_golden(picture: Image.Image | np.ndarray, name: str, update: bool) -> None:
    """Pixel-exact comparison with ``name``.png; numpy arrays are taken as BGR (OpenCV's order)."""
    if isinstance(picture, np.ndarray):
        picture = Image.fromarray(picture[..., ::-1] if picture.ndim == 3 else picture)
    path = _reference(f"{name}.png", update, picture.save)
    if path is None:
        return
    reference = Image.open(path)
    assert reference.size == picture.size and reference.mode == picture.mode, f"{name}: size or mode changed"
    if picture.mode == "1":  # 1-bit pixels may be stored as 1 or 255 inside Pillow; compare what they show
        reference, picture = reference.convert("L"), picture.convert("L")
    box = ImageChops.difference(reference, picture).getbbox()
    assert box is None, f"{name} differs from its reference inside {box}; if intended, rerun with --update-golden"


def assert_matches_golden_text(text: str, name: str, update: bool) -> None:
    """Exact comparison with the text file ``name``."""
    path = _reference(name, update, lambda p: p.write_text(text))
    if path is not None:
        assert path.read_text() == text, f"{name} differs from its reference; if intended, rerun with --update-golden"
