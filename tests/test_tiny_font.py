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
    assert tiny_spelling("Zoë Jürgen Çağla Łukasz Søren Æsa Straße") == "ZOE JURGEN CAGLA LUKASZ SOREN AESA STRASSE"
    assert drawn("Zoë") == drawn("ZOE") and drawn("Zoë") != drawn("ZO?")
    assert tiny_width("Straße") == tiny_width("STRASSE"), "the width follows what is drawn"


def test_what_no_letter_stands_for_is_still_a_question_mark():
    assert tiny_spelling("李") == "李" and drawn("李") == drawn("?")


def test_button_hints_have_their_colon():
    assert drawn("ROLL:KIND") != drawn("ROLL?KIND")
