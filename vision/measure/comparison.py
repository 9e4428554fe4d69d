"""One comparison decides: the shipped nets' figures beside a candidate's, set by set, and one verdict.

A candidate recipe is trained with two seeds; the two candidates' difference on a figure is that
figure's *spread* (never less than a floor: with one candidate, the floor alone), and a difference
from the shipped nets no larger than the spread is no difference. The first candidate is shipped
only where it is better, by more than the spread, on every figure it was aimed at, and worse by
more than the spread on no figure of a real set (photos, not renders or synthetic trays).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.measure.evaluation import DatasetError

REAL_SETS = ("dev", "train-photos", "grey", "colour")  # photos: a loss here is never traded for a gain elsewhere
PHOTO_FIGURES = {  # key: (label, higher is better)
    "per-die": ("per-die %", True),
    "per-photo": ("per-photo exact %", True),
    "silent": ("silent %", False),
    "table-right": ("at the table right %", True),
    "table-silent": ("at the table silent %", False),
    "label-boxes": ("label-boxes %", True),
    "label-boxes-said": ("label-boxes said %", True),
}
SCENE_FIGURES = {
    "exact": ("exact trays %", True),
    "invented": ("invented dice", False),
    "count": ("count right %", True),
    "per-die": ("per-die %", True),
}
HEADLINE = {"photos": "table-right", "scene": "exact"}  # the figure an aim naming only a set means


class AimError(DatasetError):
    """An ``--aim`` that names no set or figure the comparison measures."""


@dataclass(frozen=True)
class Figure:
    """One figure of one set, read by the shipped nets and by each candidate (in that order)."""

    set: str
    key: str
    values: tuple[float, ...]  # as printed: percentages to a tenth, counts whole
    kind: str = "photos"  # or "scene"

    @property
    def label(self) -> str:
        return (PHOTO_FIGURES if self.kind == "photos" else SCENE_FIGURES)[self.key][0]

    @property
    def gain(self) -> float:
        """How much better the first candidate reads than the shipped nets (negative: worse)."""
        better = (PHOTO_FIGURES if self.kind == "photos" else SCENE_FIGURES)[self.key][1]
        return (self.values[1] - self.values[0]) * (1 if better else -1)

    def spread(self, floor: float) -> float:
        """The two candidates' difference, at least ``floor``; ``floor`` with one candidate."""
        return max(abs(self.values[1] - self.values[2]), floor) if len(self.values) > 2 else floor

    def shown(self, value: float) -> str:
        """A value as the table prints it: a percentage to a tenth, a count whole."""
        return f"{value:.1f}" if self.label.endswith("%") else f"{value:.0f}"

    def change(self) -> str:
        """``set label shipped -> candidate``, as the verdict says it."""
        return f"{self.set} {self.label} {self.shown(self.values[0])} -> {self.shown(self.values[1])}"


def parse_aims(text: str) -> tuple[tuple[str, str | None], ...]:
    """``SET[:FIGURE][,SET[:FIGURE]...]`` as (set, figure or None) pairs; AimError for an unknown figure."""
    aims = []
    for item in text.split(","):
        name, _, key = item.strip().partition(":")
        if not name or (key and key not in PHOTO_FIGURES and key not in SCENE_FIGURES):
            raise AimError(f"--aim {item.strip()!r}: name a set, or SET:FIGURE with FIGURE one of "
                           f"{', '.join(sorted(set(PHOTO_FIGURES) | set(SCENE_FIGURES)))}")
        aims.append((name, key or None))
    return tuple(aims)


def aimed(figures: Sequence[Figure], aims: Sequence[tuple[str, str | None]]) -> list[Figure]:
    """The figures the aims name (a set alone: its headline figure); AimError for one not measured."""
    found = []
    for name, key in aims:
        match = [f for f in figures if f.set == name and f.key == (key or HEADLINE[f.kind])]
        if not match:
            raise AimError(f"--aim {name}{':' + key if key else ''}: not measured (sets measured: "
                           f"{', '.join(dict.fromkeys(f.set for f in figures))})")
        found += match
    return found


def verdict(figures: Sequence[Figure], aims: Sequence[tuple[str, str | None]], floor: float) -> str:
    """The one line that decides: ship the first candidate, or keep the shipped nets, and why."""
    if all(f.gain == 0 for f in figures):
        return "verdict: keep the shipped nets (the candidate reads every set exactly as they do)"
    losses = sorted((f for f in figures if f.set in REAL_SETS and -f.gain > f.spread(floor)),
                    key=lambda f: f.gain + f.spread(floor))
    if losses:
        worst = losses[0]
        more = f"; worse on {len(losses) - 1} more real figures" if len(losses) > 1 else ""
        return (f"verdict: keep the shipped nets ({worst.change()}, worse by {-worst.gain:.1f} > spread "
                f"{worst.spread(floor):.1f}{more})")
    short = [f for f in aimed(figures, aims) if f.gain <= f.spread(floor)]
    if short:
        return (f"verdict: keep the shipped nets (not better where aimed: {short[0].change()}, "
                f"{short[0].gain:+.1f} <= spread {short[0].spread(floor):.1f})")
    gains = ", ".join(f"{f.set} {f.label} by {f.gain:.1f} > spread {f.spread(floor):.1f}" for f in aimed(figures, aims))
    return f"verdict: ship (better on {gains}; worse on no real set by more than the spread)"


def markdown(figures: Sequence[Figure], nets: Sequence[str], floor: float, sizes: dict[str, str]) -> list[str]:
    """A Markdown table a kind of set (photos, then scenes): a row a set (named with its ``sizes``), a
    column a figure, each cell ``shipped -> candidate[ / candidate 2]``, in bold where the first
    candidate differs by more than the spread."""
    lines = [f"Each cell: {nets[0]} → {' / '.join(nets[1:])}; **bold**: the first candidate differs from the "
             f"shipped nets by more than the spread (the candidates' difference, at least {floor:g} points)."]
    for kind, keys in (("photos", PHOTO_FIGURES), ("scene", SCENE_FIGURES)):
        rows = [f for f in figures if f.kind == kind]
        if not rows:
            continue
        sets = list(dict.fromkeys(f.set for f in rows))
        lines += ["", f"| {'set' if kind == 'photos' else 'scene'} | {' | '.join(label for label, _ in keys.values())} |",
                  "|---" * (len(keys) + 1) + "|"]
        for name in sets:
            cells = {f.key: _cell(f, floor) for f in rows if f.set == name}
            lines.append(f"| {name} ({sizes[name]}) | {' | '.join(cells.get(key, '') for key in keys)} |")
    return lines


def _cell(figure: Figure, floor: float) -> str:
    shipped, *candidates = (figure.shown(v) for v in figure.values)
    text = f"{shipped} → {' / '.join(candidates)}"
    return f"**{text}**" if abs(figure.gain) > figure.spread(floor) else text
