"""The 3x5 font of the graphic boards: the names people have, not question marks."""

from __future__ import annotations

from PIL import Image, ImageDraw

from firmware.drawing.tiny_font import tiny_spelling, tiny_text, tiny_width


def drawn(text: str) -> bytes:
    image = Image.new("1", (tiny_width(text) + 1, 5))
    tiny_text(ImageDraw.Draw(image), (0, 0), text)
    return image.tobytes()


def test_accented_latin_letters_are_drawn_as_their_base_letters():
    """"Zoë" came out as "ZO?" in the board's legend while every other screen drew it."""
    assert tiny_spelling("Zoë Jürgen Çağla Łukasz Søren Æsa") == "ZOE JURGEN CAGLA LUKASZ SOREN ASA"
    assert drawn("Zoë") == drawn("ZOE") and drawn("Zoë") != drawn("ZO?")


def test_one_glyph_a_character_so_a_name_s_width_is_its_length():
    """Names are limited in characters where they are drawn: "Großmann" as GROSSMANN lost its
    last letter on Counters' board."""
    for name in ("Großmann", "STRAẞE", "Ærø", "Ĳsbrand", "½"):
        assert len(tiny_spelling(name)) == len(name) and tiny_width(name) == 4 * len(name) - 1
    assert tiny_spelling("Großmann") == "GROßMANN" and drawn("ß") not in (drawn("?"), drawn("S"))


def test_what_no_letter_stands_for_is_still_a_question_mark():
    """A wrong letter or digit is worse than a question mark: "½" is not a 1, "Ĳ" not an I."""
    assert tiny_spelling("李 ½ № Ĳ ǅ") == "? ? ? ? ?" and drawn("李") == drawn("?")


def test_button_hints_have_their_colon():
    assert drawn("ROLL:KIND") != drawn("ROLL?KIND")
