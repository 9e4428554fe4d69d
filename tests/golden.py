"""Compare a picture with its reference PNG in tests/golden/ (rewritten only with --update-golden)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageChops

GOLDEN = Path(__file__).resolve().parent / "golden"


def assert_matches_golden(picture: Image.Image | np.ndarray, name: str, update: bool) -> None:
    """Pixel-exact comparison; numpy arrays are taken as BGR (OpenCV's order)."""
    if isinstance(picture, np.ndarray):
        picture = Image.fromarray(picture[..., ::-1] if picture.ndim == 3 else picture)
    path = GOLDEN / f"{name}.png"
    if update:
        GOLDEN.mkdir(exist_ok=True)
        picture.save(path)
        return
    assert path.exists(), f"no reference picture {path}; run pytest --update-golden and look at it"
    reference = Image.open(path)
    assert reference.size == picture.size and reference.mode == picture.mode, f"{name}: size or mode changed"
    box = ImageChops.difference(reference, picture).getbbox()
    assert box is None, f"{name} differs from its reference inside {box}; if intended, rerun with --update-golden"
