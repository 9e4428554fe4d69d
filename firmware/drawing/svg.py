"""The kit the web page's board pictures are drawn with: SVG written as text (no library), every
word and attribute escaped (players' names come from a configuration), a root with only a viewBox
so the page scales it to a phone or a TV, and each seat's colour and shape.

Lines and words are ``currentColor``, so the page's dark or light theme colours them; seats get a
fixed palette that colour-blind eyes tell apart (Okabe and Ito's), and a shape each besides, so
that no player is told by colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from firmware.drawing.screens import player_mark

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"
SEAT_COLOURS = ("#0072B2", "#E69F00", "#CC79A7", "#009E73")  # blue, orange, reddish purple, bluish green
SEAT_SHAPES = ("circle", "square", "triangle", "diamond")
NAME_CHARS = 14  # a name longer than this is cut with an ellipsis
LEGEND_ROW = 24  # a row of the legend, in the viewBox's units
Value = str | int | float | None


def _value(value: str | int | float) -> str:
    if isinstance(value, float):
        return f"{round(value, 2):g}"
    return str(value)


def _attributes(attributes: dict[str, Value]) -> str:
    """``data_column=7, class_="x"`` as ` data-column="7" class="x"`; None leaves one out."""
    return "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(_value(value))}"
        for key, value in attributes.items()
        if value is not None
    )


def element(tag: str, *children: str, **attributes: Value) -> str:
    """``<tag ...>children</tag>``, or ``<tag .../>`` without children; children are SVG already."""
    if not children:
        return f"<{tag}{_attributes(attributes)}/>"
    return f"<{tag}{_attributes(attributes)}>{''.join(children)}</{tag}>"


def group(*children: str, **attributes: Value) -> str:
    return element("g", *children, **attributes)


def title(words: str) -> str:
    """A tooltip and an accessible name for the element it is the first child of."""
    return f"<title>{escape(words)}</title>"


def text(x: float, y: float, words: str, size: float = 14, **attributes: Value) -> str:
    """``words`` escaped, their baseline's start at (x, y) unless ``text_anchor`` says otherwise."""
    return f"<text{_attributes({'x': x, 'y': y, 'font_size': size, **attributes})}>{escape(words)}</text>"


def svg(width: float, height: float, label: str, *children: str) -> str:
    """The standalone picture: a viewBox and no size (the page sizes it), ``role="img"`` and
    ``label`` as its accessible name; text and lines in ``currentColor``."""
    return element(
        "svg",
        title(label),
        *children,
        xmlns=SVG_NS,
        viewBox=f"0 0 {_value(width)} {_value(height)}",
        role="img",
        aria_label=label,
        font_family=FONT,
        fill="currentColor",
        stroke_linejoin="round",
    )


def short_name(name: str, chars: int = NAME_CHARS) -> str:
    """``name`` cut to ``chars`` characters with an ellipsis, for a picture of fixed width."""
    return name if len(name) <= chars else name[: chars - 1] + "\u2026"


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on the ``#rrggbb`` ``colour``."""
    red, green, blue = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    luminance = 0.2126 * red**2.2 + 0.7152 * green**2.2 + 0.0722 * blue**2.2
    return "#000000" if luminance > 0.18 else "#ffffff"


def _shape(seat: int, cx: float, cy: float, r: float, **attributes: Value) -> str:
    """The seat's shape of about ``r`` radius centred on (cx, cy)."""
    kind = SEAT_SHAPES[seat]
    if kind == "circle":
        return element("circle", cx=cx, cy=cy, r=r, **attributes)
    if kind == "square":
        side = r * 1.8
        return element("rect", x=cx - side / 2, y=cy - side / 2, width=side, height=side, rx=r * 0.2, **attributes)
    if kind == "triangle":
        points = ((cx, cy - r * 1.15), (cx + r * 1.15, cy + r * 0.85), (cx - r * 1.15, cy + r * 0.85))
    else:
        points = ((cx, cy - r * 1.25), (cx + r * 1.25, cy), (cx, cy + r * 1.25), (cx - r * 1.25, cy))
    return element("polygon", points=" ".join(f"{_value(x)},{_value(y)}" for x, y in points), **attributes)


def seat_marker(seat: int, cx: float, cy: float, r: float, letter: bool = False, **attributes: Value) -> str:
    """A seat's piece: its shape in its colour, outlined in ``currentColor`` (so it stands out on
    either theme), with its letter inside where ``letter`` asks (a marker big enough to hold it)."""
    colour = SEAT_COLOURS[seat]
    parts = [_shape(seat, cx, cy, r, fill=colour, stroke="currentColor", stroke_width=max(1.0, r * 0.2))]
    if letter:
        size = r * 1.1
        baseline = cy + size * 0.36 + (r * 0.2 if SEAT_SHAPES[seat] == "triangle" else 0)
        parts.append(text(cx, baseline, player_mark(seat), size, text_anchor="middle", font_weight="bold", fill=ink_on(colour)))
    return group(*parts, **attributes)


def seat_slots(players: int, x: float, y: float, width: float, height: float) -> tuple[tuple[float, float, float], ...]:
    """Where each seat's marker goes in a box: (cx, cy, r); side by side for two players, in the
    four corners (A B above, C D below) for more, so a seat is always in the same place."""
    if players <= 2:
        r = min(width / 4, height / 2) * 0.78
        return tuple((x + width * (1 + 2 * seat) / 4, y + height / 2, r) for seat in range(players))
    r = min(width / 4, height / 4) * 0.9
    return tuple((x + width * (1 + 2 * (seat % 2)) / 4, y + height * (1 + 2 * (seat // 2)) / 4, r) for seat in range(players))


def turn_pointer(x: float, y: float, size: float) -> str:
    """A small right-pointing triangle with its tip at (x, y): whose turn it is."""
    return element("polygon", points=f"{_value(x - size)},{_value(y - size / 2)} {_value(x)},{_value(y)} {_value(x - size)},{_value(y + size / 2)}")


def legend(names: Sequence[str], pointed: int | None, x: float, y: float, notes: Sequence[str] = (), over: bool = False) -> str:
    """A row per seat from (x, y) down: the seat's marker with its letter, its name and a note
    beside it ("3/5 in space"); the seat ``pointed`` at (whose turn it is, or once ``over`` who
    won) in bold with a pointer."""
    entries = []
    for seat, name in enumerate(names):
        middle = y + seat * LEGEND_ROW + LEGEND_ROW / 2
        words = short_name(name) + (f"  {notes[seat]}" if notes and notes[seat] else "")
        mine = seat == pointed
        entries.append(group(
            turn_pointer(x + 10, middle, 9) if mine else "",
            seat_marker(seat, x + 22, middle, 8, letter=True),
            text(x + 35, middle + 5, words, 14, font_weight="bold" if mine else None),
            data_seat=seat,
            data_pointer=pointer_meaning(over) if mine else None,
        ))
    return group(*entries, class_="legend")


def pointer_meaning(over: bool) -> str:
    """What a pointer at a seat says, as its ``data-pointer``: "turn", or "winner" once the game is over."""
    return "winner" if over else "turn"


def legend_height(players: int) -> float:
    """The height :func:`legend` takes for ``players`` seats."""
    return players * LEGEND_ROW

