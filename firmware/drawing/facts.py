"""The words beside a board on the web page: the lines of facts, and the moves in words.

A fact's value is prose, which the page wraps between words, or a list of pieces (a player's
pieces left, the choices a roll gives), each of which the page keeps on one line, wrapping only
between them: "R10 S3 D3" cut from its "L3" reads as two things. Each piece carries the mark that
follows it, so the pieces joined by spaces read as the line of text they make."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Value = str | list[str]
Fact = tuple[str, Value]


def pieces(parts: Iterable[str], mark: str = ",") -> list[str]:
    """``parts`` as pieces of a fact, each followed by ``mark`` but the last: ["5+11,", "5,", "11"]."""
    listed = list(parts)
    return [part + mark for part in listed[:-1]] + listed[-1:]


def and_list(words: Sequence[str]) -> str:
    """"3", "3 and 4", "2, 2 and 4": things named in a sentence."""
    return " and ".join(filter(None, [", ".join(words[:-1]), *words[-1:]]))
