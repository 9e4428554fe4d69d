"""Bit flips in the table's dice files, as an SD card's damage falls (issue 43): every bit of the zip's
and the arrays' headers, and random ones anywhere; none may stop a start or make the page fail."""

import io
import struct
import zipfile

import numpy as np
import pytest

from firmware.calibration import table_dice
from firmware.calibration.table_dice import EXAMPLES_NAME, LAYER_NAME, MOST_BYTES, UNREADABLE, TableDice, summary
from test_table_dice import odd_folder, play_throws  # noqa: F401 - the fixture, shared

NAMES = {EXAMPLES_NAME: ("crops", "labels", "throws", "sets"), LAYER_NAME: ("dice_set", "layer")}


def header_bytes(data: bytes) -> list[int]:
    """The offsets of every byte of the zip's local and central headers, its end record, and each
    member's .npy header (magic, version, length and the dictionary of dtype and shape)."""
    places: list[int] = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in archive.infolist():
            start = member.header_offset
            name_length, extra_length = struct.unpack("<HH", data[start + 26 : start + 30])
            body = start + 30 + name_length + extra_length
            npy_length = struct.unpack("<H", data[body + 8 : body + 10])[0]
            places += range(start, body + 10 + npy_length)
    end = data.rindex(b"PK\x05\x06")
    size, offset = struct.unpack("<II", data[end + 12 : end + 20])
    return places + list(range(offset, offset + size)) + list(range(end, len(data)))


def flipped(data: bytes, bit: int) -> bytes:
    damaged = bytearray(data)
    damaged[bit // 8] ^= 1 << (bit % 8)
    return bytes(damaged)


@pytest.mark.parametrize("name", [EXAMPLES_NAME, LAYER_NAME])
def test_every_bit_of_the_headers_flipped_is_read_or_refused_as_damage(odd_folder, name):  # noqa: F811
    data = (odd_folder / name).read_bytes()
    places = header_bytes(data)
    assert len(places) > 400
    refused = 0
    for byte in places:
        for bit in range(8):
            try:
                table_dice.parse_npz(flipped(data, byte * 8 + bit), MOST_BYTES[name], NAMES[name])
            except UNREADABLE:
                refused += 1
    assert refused > 0


@pytest.mark.parametrize("name", [EXAMPLES_NAME, LAYER_NAME])
def test_random_flips_never_stop_a_start_nor_fail_the_page(odd_folder, tmp_path, name):  # noqa: F811
    rng = np.random.default_rng(43)
    whole = {file.name: file.read_bytes() for file in odd_folder.iterdir() if file.is_file()}
    data = whole[name]
    header = header_bytes(data)
    kept_aside = 0
    for flip in range(150):
        folder = tmp_path / f"flip{flip}"
        folder.mkdir()
        for file, content in whole.items():
            (folder / file).write_bytes(content)
        byte = int(rng.choice(header)) if flip % 2 else int(rng.integers(len(data)))
        (folder / name).write_bytes(flipped(data, byte * 8 + int(rng.integers(8))))
        summary(folder)  # the page's reading: a problem said, never an exception
        dice = TableDice(folder, "odd set", background=False)
        kept_aside += bool(dice.notices)
    assert kept_aside > 0
