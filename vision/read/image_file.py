"""Pictures read from files, refused with one clear line when they cannot be used.

A file can be missing, unreadable, not an image, or an image whose header claims more pixels
than the device can hold (a 100000x100000 PNG is a few bytes on disk and 30 GB decoded): each is
an :class:`ImageFileError` naming the file, never a library's traceback.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, UnidentifiedImageError

MAX_IMAGE_PIXELS = 50_000_000  # px: a 12 MP camera photo fits four times; decoded BGR, 150 MB at most


class ImageFileError(ValueError):
    """An image file that cannot be read, or should not be (too large)."""


def one_line(path: Path) -> str:
    """``path`` as a message shows it: as it is, or quoted with escapes if it holds a line break or
    another control character (a message is one line)."""
    text = str(path)
    return text if text.isprintable() else repr(text)


def read_image(path: Path) -> np.ndarray:
    """The picture in ``path`` as a BGR uint8 array, or ImageFileError saying what is wrong with the file."""
    try:
        exists = path.is_file()
        size = _claimed_size(path) if exists else (0, 0)
    except (OSError, ValueError) as error:  # a name too long, a NUL in it, no permission
        raise ImageFileError(f"cannot read image {one_line(path)}: {getattr(error, 'strerror', None) or error}") from None
    if not exists:
        raise ImageFileError(f"no image file at {one_line(path)}")
    if size is None or size[0] * size[1] > MAX_IMAGE_PIXELS:
        refused_by_pillow = f"more than {2 * Image.MAX_IMAGE_PIXELS // 1_000_000} megapixels"
        claimed = refused_by_pillow if size is None else f"{size[0]}x{size[1]} pixels"
        raise ImageFileError(
            f"{one_line(path)} claims {claimed}; at most {MAX_IMAGE_PIXELS // 1_000_000} megapixels are read"
        )
    try:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    except cv2.error as error:  # a header OpenCV refuses
        raise ImageFileError(f"cannot decode {one_line(path)}: {error.err}") from None
    if image is None:
        raise ImageFileError(f"cannot decode {one_line(path)} as an image (PNG, JPEG, BMP...)")
    return image


def _claimed_size(path: Path) -> tuple[int, int] | None:
    """(width, height) as the file's header states it, read without decoding the pixels; None when the
    header claims so many that Pillow refuses to open it; (0, 0) when Pillow does not know the format."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            with Image.open(path) as picture:
                return picture.size
        except Image.DecompressionBombError:
            return None
        except (UnidentifiedImageError, SyntaxError):  # not a format Pillow knows (or a broken header): OpenCV decides
            return (0, 0)
