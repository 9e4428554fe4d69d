"""Compare output with its reference in tests/golden/ (rewritten only with --update-golden).

OLED screens are compared pixel for pixel. Two kinds of picture are not, because the OpenCV
version draws them differently while what they say is the same (numpy 1.x pins OpenCV 4.11 on the
Pi, this machine has OpenCV 5): the camera's view dithered onto the OLED, compared by how many
pixels are lit in each 4x4 block; and annotated camera pictures, whose outlines must match to a
pixel while the labels' lettering and the tray under them may differ (the values the labels say are
compared exactly from the reading, by the test).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest
from PIL import Image, ImageChops

from firmware.drawing import screens, tiny_font
from firmware.games import five_dice
from vision.measure.annotate import READ_COLOUR, TRAY_COLOUR, UNREADABLE_COLOUR

GOLDEN = Path(__file__).resolve().parent / "golden"
Box = tuple[int, int, int, int]  # left, top, right, bottom px (right and bottom excluded)

DITHER_BLOCK_PX = 4
DITHER_BLOCK_TOLERANCE = 3  # lit pixels of 16 a block may gain or lose (OpenCV 4.11: 2 at most)
INK = (READ_COLOUR, UNREADABLE_COLOUR, TRAY_COLOUR)  # the colours annotate() draws outlines in
INK_DISTANCE = 60  # levels per channel: anti-aliased edges of a line still count as its colour
LABEL_BLACK = 10  # levels: the black backing of a label (kept clear of the tray by a margin)
LABEL_MARGIN_PX = 3
SHIFT_PX = 1  # an outline may lie this far from where it was
STRAY_INK_PX = 8  # outline pixels allowed without a partner (OpenCV 4.11: 2)
CHANGED_SHARE = 0.02  # of the pixels outside labels that may differ by more than CHANGED_LEVELS (OpenCV 4.11: 0.4 %)
CHANGED_LEVELS = 24


def _reference(name: str, update: bool, write) -> Path | None:
    """The reference's path, or None after (re)writing it with ``write(path)`` under --update-golden."""
    path = GOLDEN / name
    if update:
        GOLDEN.mkdir(exist_ok=True)
        write(path)
        return None
    assert path.exists(), f"no reference {path}; run pytest --update-golden and look at it"
    return path


def _as_image(picture: Image.Image | np.ndarray) -> Image.Image:
    """numpy arrays are taken as BGR (OpenCV's order)."""
    if isinstance(picture, np.ndarray):
        return Image.fromarray(picture[..., ::-1] if picture.ndim == 3 else picture)
    return picture


def _reference_image(picture: Image.Image, name: str, update: bool) -> Image.Image | None:
    """The reference of the same size and mode as ``picture``; None after writing it under --update-golden."""
    path = _reference(f"{name}.png", update, picture.save)
    if path is None:
        return None
    reference = Image.open(path)
    assert reference.size == picture.size and reference.mode == picture.mode, f"{name}: size or mode changed"
    return reference


def assert_matches_golden(picture: Image.Image | np.ndarray, name: str, update: bool, dithered: Box | None = None) -> None:
    """Pixel-exact comparison with ``name``.png; inside ``dithered`` (a camera picture dithered to one
    bit) each 4x4 block may have DITHER_BLOCK_TOLERANCE pixels more or fewer lit."""
    picture = _as_image(picture)
    reference = _reference_image(picture, name, update)
    if reference is None:
        return
    if picture.mode == "1":  # 1-bit pixels may be stored as 1 or 255 inside Pillow; compare what they show
        reference, picture = reference.convert("L"), picture.convert("L")
    if dithered is not None:
        worst = np.abs(_lit_blocks(picture, dithered) - _lit_blocks(reference, dithered)).max()
        assert worst <= DITHER_BLOCK_TOLERANCE, f"{name}: a 4x4 block of the dithered view has {worst} pixels lit more or fewer"
        reference, picture = reference.copy(), picture.copy()
        reference.paste(0, dithered)
        picture.paste(0, dithered)
    box = ImageChops.difference(reference, picture).getbbox()
    assert box is None, f"{name} differs from its reference inside {box}; if intended, rerun with --update-golden"


def _lit_blocks(picture: Image.Image, box: Box) -> np.ndarray:
    """How many pixels are lit in each 4x4 block of ``box`` (its sides whole multiples of 4)."""
    lit = np.asarray(picture.crop(box)) > 0
    rows, columns = lit.shape[0] // DITHER_BLOCK_PX, lit.shape[1] // DITHER_BLOCK_PX
    return lit.reshape(rows, DITHER_BLOCK_PX, columns, DITHER_BLOCK_PX).sum(axis=(1, 3)).astype(int)


def assert_matches_golden_annotated(picture: np.ndarray, name: str, update: bool) -> None:
    """An annotated camera picture (BGR) against ``name``.png: every outline in the same colour and
    place (to SHIFT_PX), and outside the labels at most CHANGED_SHARE of the pixels changed."""
    reference = _reference_image(_as_image(picture), name, update)
    if reference is None:
        return
    problems = annotation_differences(picture, np.asarray(reference)[..., ::-1])
    assert not problems, f"{name}: {'; '.join(problems)}; if intended, rerun with --update-golden"


def annotation_differences(picture: np.ndarray, reference: np.ndarray) -> list[str]:
    """What differs between two annotated pictures (BGR) beyond how OpenCV versions draw them."""
    labels = _labels(picture) | _labels(reference)
    problems = []
    for colour in INK:
        mine, theirs = _ink(picture, colour) & ~labels, _ink(reference, colour) & ~labels
        stray = int((mine & ~_grown(theirs, SHIFT_PX)).sum() + (theirs & ~_grown(mine, SHIFT_PX)).sum())
        if stray > STRAY_INK_PX:
            problems.append(f"{stray} pixels of outline in {colour} (BGR) are not where the reference has them")
    changed = (np.abs(picture.astype(int) - reference.astype(int)).max(axis=2) > CHANGED_LEVELS) & ~labels
    if changed.sum() > CHANGED_SHARE * changed.size:
        problems.append(f"{changed.mean():.1%} of the pixels outside the labels changed")
    return problems


def _labels(picture: np.ndarray) -> np.ndarray:
    """Where labels are: their black backing and the lettering on it."""
    return _grown(picture.max(axis=2) <= LABEL_BLACK, LABEL_MARGIN_PX)


def _ink(picture: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.abs(picture.astype(int) - np.array(colour)).max(axis=2) <= INK_DISTANCE


def _grown(mask: np.ndarray, px: int) -> np.ndarray:
    return cv2.dilate(mask.astype(np.uint8), np.ones((2 * px + 1, 2 * px + 1), np.uint8)).astype(bool)


def assert_matches_golden_text(text: str, name: str, update: bool) -> None:
    """Exact comparison with the text file ``name``."""
    path = _reference(name, update, lambda p: p.write_text(text))
    if path is not None:
        assert path.read_text() == text, f"{name} differs from its reference; if intended, rerun with --update-golden"


def watch_for_cut_text(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> list[str]:
    """Record every text that the drawing kit would cut at the panel's edge, in either font (and
    every title or footer whose halves would touch) while screens of ``modules`` (and the core's) are drawn; returns the list."""
    cut: list[str] = []
    original_text, original_big, original_title = screens.text, screens.big, screens.title
    original_tiny = tiny_font.tiny_text

    def whole_text(canvas, xy, text, fill=1, right=False):  # type: ignore[no-untyped-def]
        room = (xy[0] if right else screens.WIDTH - xy[0]) // screens.CHAR_PX
        if len(text) > room:
            cut.append(text)
        original_text(canvas, xy, text, fill, right)

    def big_text(canvas, xy, text):  # type: ignore[no-untyped-def]
        if len(text) * 2 * screens.CHAR_PX > screens.WIDTH - xy[0]:
            cut.append(text)
        original_big(canvas, xy, text)

    def title(canvas, text, right=""):  # type: ignore[no-untyped-def]
        if len(text) + len(right) + (1 if right else 0) > (screens.WIDTH - 2) // screens.CHAR_PX:
            cut.append(f"{text} | {right}")
        original_title(canvas, text, right)

    original_footer = screens.footer

    def footer(canvas, left, right="", rule=True):  # type: ignore[no-untyped-def]
        if right and len(left) + 1 + len(right) > screens.WIDTH // screens.CHAR_PX:  # the halves would touch
            cut.append(f"{left} | {right}")
        original_footer(canvas, left, right, rule)

    def tiny_text(canvas, xy, text, fill=1):  # type: ignore[no-untyped-def]
        if xy[0] < 0 or xy[0] + tiny_font.tiny_width(text) > screens.WIDTH:
            cut.append(text)
        original_tiny(canvas, xy, text, fill)

    for module in (screens, tiny_font, five_dice, *modules):  # five_dice: the five-dice games' shared screen
        for name, replacement in (("text", whole_text), ("big", big_text), ("title", title), ("tiny_text", tiny_text),
                                  ("footer", footer)):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, replacement)
    return cut


def watch_words(monkeypatch: pytest.MonkeyPatch, *modules: ModuleType) -> list[str]:
    """Record every text drawn in the 6-px font, at either size, in the order drawn, while screens
    of ``modules`` (and the core's) are drawn; returns the list: the words a player reads."""
    said: list[str] = []

    def recording(original):  # type: ignore[no-untyped-def]
        def draw(canvas, xy, words, *args, **kwargs):  # type: ignore[no-untyped-def]
            said.append(words)
            original(canvas, xy, words, *args, **kwargs)

        return draw

    for module in (screens, *modules):
        for name in ("text", "big"):
            if hasattr(module, name):
                monkeypatch.setattr(module, name, recording(getattr(module, name)))
    return said
