"""A 3x5-pixel capital font for the graphic board, where Pillow's 6x11 font does not fit.

Eleven columns across 128 pixels leave 11 pixels a column: two-digit column numbers and the
players' names fit only at this size. Letters are drawn as capitals, one glyph a character (a
name's width is its length): an accented Latin letter as its base letter (five rows leave no room
for the accent: "Zoë" reads ZOE, "Jürgen" JURGEN), ß as its own glyph, Æ, Ø, Ł and their like as the
letter they start with; any other character the font lacks is drawn as ``?``.
"""

from __future__ import annotations

import unicodedata

from PIL import ImageDraw

GLYPH_WIDTH, GLYPH_HEIGHT = 3, 5
ADVANCE_PX = GLYPH_WIDTH + 1

# Each glyph: five rows of three pixels, "#" lit.
_ROWS = {
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", "###"),
    "V": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "?": ("##.", "..#", ".#.", "...", ".#."),
    "-": ("...", "...", "###", "...", "..."),
    ".": ("...", "...", "...", "...", ".#."),
    "'": (".#.", ".#.", "...", "...", "..."),
    ">": ("#..", ".#.", "..#", ".#.", "#.."),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "%": ("#.#", "..#", ".#.", "#..", "#.#"),
    ":": ("...", ".#.", "...", ".#.", "..."),
    "ß": (".#.", "#.#", "##.", "#.#", "##."),
    " ": ("...", "...", "...", "...", "..."),
}
# Latin letters that do not decompose into a base letter and marks: the letter they start with
_BASE_LETTER = {"ẞ": "ß", "Æ": "A", "Œ": "O", "Ø": "O", "Ł": "L", "Đ": "D", "Ð": "D", "Þ": "P"}
GLYPHS = {
    char: tuple((x, y) for y, row in enumerate(rows) for x, lit in enumerate(row) if lit == "#")
    for char, rows in _ROWS.items()
}


def tiny_spelling(text: str) -> str:
    """``text`` as the font draws it, one glyph a character: capitals, accented letters as their
    base letters, ``?`` for what it cannot draw."""
    return "".join(_glyph_of(char) for char in text)


def _glyph_of(char: str) -> str:
    upper = char.upper()
    if len(upper) == 1 and upper in _ROWS:
        return upper
    if char in _ROWS:  # ß: its capital is two letters
        return char
    if upper in _BASE_LETTER:
        return _BASE_LETTER[upper]
    if unicodedata.category(char).startswith("L"):  # a letter with marks: its base letter, if alone
        base = "".join(c for c in unicodedata.normalize("NFD", upper) if not unicodedata.combining(c))
        if len(base) == 1 and base in _ROWS:
            return base
    return "?"


def tiny_width(text: str) -> int:
    """Pixels ``text`` takes, the gap after the last letter not counted."""
    return max(0, ADVANCE_PX * len(text) - 1)  # one glyph a character (see tiny_spelling)


def tiny_text(canvas: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 1) -> None:
    """``text`` in capitals with its top left corner at ``xy``."""
    x, y = xy
    for char in tiny_spelling(text):
        canvas.point([(x + dx, y + dy) for dx, dy in GLYPHS.get(char, GLYPHS["?"])], fill=fill)
        x += ADVANCE_PX
