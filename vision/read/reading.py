"""What the reader reports: every die it found, read or not."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Die:
    """One die seen from above.

    ``value`` is the top face (1-6), or None when the die was found but its face could not be
    read with confidence (leaning, half hidden, blurred): the reader never guesses.
    ``centre`` is (x, y) and ``size`` the longer side of the die's axis-aligned bounding box,
    both in pixels of the input image; ``outline`` is that box as a polygon, for drawing;
    ``confidence`` is the reader's probability (0..1) of the value it read (or would have read);
    ``reason`` says briefly why an unreadable die was not read; ``presence`` is the reader's
    probability (0..1) that this is a die at all; ``seen_closer`` says that only a closer look found
    it (a leaning camera's reading read again closer, the die of the throw's size), so it is no
    neighbour's side face.
    """

    value: int | None
    centre: tuple[float, float]
    size: float
    confidence: float
    outline: tuple[tuple[float, float], ...] = ()
    reason: str = ""
    presence: float = 1.0
    seen_closer: bool = False

    @property
    def is_readable(self) -> bool:
        return self.value is not None


@dataclass(frozen=True)
class DiceReading:
    """All dice found in one image, in reading order (top to bottom, left to right).

    ``doubtful`` holds the candidates less likely than not to be dice (or of another size than
    the dice and unsure of their face), likeliest first: not dice
    to anyone who does not know how many dice there are, but the place to look for the last one
    when someone does (:func:`vision.read.reader.likeliest`).
    """

    dice: tuple[Die, ...] = ()
    doubtful: tuple[Die, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        """The sorted face values of the dice that were read."""
        return tuple(sorted(d.value for d in self.dice if d.value is not None))

    @property
    def unreadable(self) -> tuple[Die, ...]:
        """Dice that were found but not read."""
        return tuple(d for d in self.dice if d.value is None)

    def summary(self) -> str:
        """One line for people and logs, e.g. ``4 dice: 1 3 5 6``, ``1 die: 5`` or ``3 dice: 2 4, 1 unreadable``."""
        read = " ".join(str(v) for v in self.values) or "-"
        extra = f", {len(self.unreadable)} unreadable" if self.unreadable else ""
        return f"{len(self.dice)} {'die' if len(self.dice) == 1 else 'dice'}: {read}{extra}"
