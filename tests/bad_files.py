"""Files made to hurt: a PNG whose header claims more pixels than any device could decode."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def huge_png(path: Path, width: int = 100_000, height: int = 100_000) -> Path:
    """A valid-looking PNG of a few dozen bytes whose header claims ``width`` x ``height`` RGB pixels."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    pixels = zlib.compress(b"\0" * 16)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b""))
    return path
