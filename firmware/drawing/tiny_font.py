"""A 3x5-pixel capital font for the graphic board, where Pillow's 6x11 font does not fit.

Eleven columns across 128 pixels leave 11 pixels a column: two-digit column numbers and the
players' names fit only at this size. Letters are drawn as capitals; an accented Latin letter as
its base letter (five rows leave no room for the accent: "Zoë" reads ZOE, "Jürgen" JURGEN, "ß" SS);
any other character the font lacks is drawn as ``?``.
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
    " ": ("...", "...", "...", "...", "..."),
}
# Latin letters that do not decompose into a base letter and marks
_SPELLED = {"ẞ": "SS", "Æ": "AE", "Œ": "OE", "Ø": "O", "Ł": "L", "Đ": "D", "Ð": "D", "Þ": "TH"}
GLYPHS = {
    char: tuple((x, y) for y, row in enumerate(rows) for x, lit in enumerate(row) if lit == "#")
    for char, rows in _ROWS.items()
}


def tiny_spelling(text: str) -> str:
    """``text`` as the font draws it: capitals, accented letters as their base letters."""
    spelled = []
    for char in text.upper():
        if char not in _ROWS:
            base = unicodedata.normalize("NFKD", char)[:1]
            char = _SPELLED.get(char, base if base in _ROWS and base != " " else char)
        spelled.append(char)
    return "".join(spelled)


def tiny_width(text: str) -> int:
    """Pixels ``text`` takes, the gap after the last letter not counted."""
    return max(0, ADVANCE_PX * len(tiny_spelling(text)) - 1)


def tiny_text(canvas: ImageDraw.ImageDraw, xy: tuple[int, int], text: str, fill: int = 1) -> None:
    """``text`` in capitals with its top left corner at ``xy``."""
    x, y = xy
    for char in tiny_spelling(text):
        canvas.point([(x + dx, y + dy) for dx, dy in GLYPHS.get(char, GLYPHS["?"])], fill=fill)
        x += ADVANCE_PX
