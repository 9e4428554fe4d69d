"""``compare-vision``: the shipped nets and a candidate's read every photo set and synthetic scene,
side by side, in a Markdown table that ends with one verdict line (:mod:`vision.measure.comparison`).

Each net reads each photo once (:func:`firmware.vision_commands.read_photos`, as ``eval-vision``
does); the figures read anywhere and at the table (:mod:`vision.measure.at_the_table`) both come
from that reading, and the grey camera and the colour tray are train-photos' photos of theirs.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from firmware.bench.progress import progress
from firmware.vision_commands import Out, measured_photos, read_photos, read_throws
from vision.measure.at_the_table import TRAY_MARGIN, at_the_table
from vision.measure.ceiling import ceiling
from vision.measure.comparison import PHOTO_FIGURES, SCENE_FIGURES, AimError, Figure, markdown, verdict
from vision.measure.evaluation import DatasetError, PhotoResult, TableFigures, figures
from vision.read.params import DEFAULT_PARAMS, NET_FILES, ReaderParams, nets_in
from vision.scenes.bench_trays import TRAY_KINDS, throws

OBLIQUE_COMMAND = "python -m vision.training.render3d --count 150 --out DIR --seed 7 --tilt 20 40 --photo-set"


@dataclass(frozen=True)
class Nets:
    """A pair of nets to compare, and the photos they were trained on (left out of every set)."""

    name: str
    params: ReaderParams
    trained_on: Path


@dataclass(frozen=True)
class Source:
    """A photo folder each net reads once: its splits. Each photo is told where its camera's far side
    lies (the manifest's ``up``; straight down where it says nothing)."""

    splits: tuple[str, ...] | None = None


SOURCES = {"dev": Source(), "train-photos": Source(("valid", "test")), "oblique": Source()}
PHOTO_SETS = (  # (set, source, only the photos whose names match)
    ("dev", "dev", None),
    ("train-photos", "train-photos", None),
    ("grey", "train-photos", "rune55_0*"),
    ("colour", "train-photos", "rune55_PXL*"),
    ("oblique", "oblique", None),
)


def candidate_nets(folder: Path, name: str, leaning_threshold: float | None = None) -> Nets:
    """The nets of a candidate's folder (``NET_FILES``: the classifier and the detector, each for a
    camera straight down and one that leans, and the judge of lone dice), the shipped one where one is missing, and its
    ``trained-on.txt``; read where the camera leans at ``leaning_threshold`` if given."""
    if not folder.is_dir():
        raise DatasetError(f"{folder}: no such folder of candidate nets")
    held = nets_in(folder)
    if not held:
        raise DatasetError(f"{folder} holds neither {' nor '.join(NET_FILES.values())}")
    params = replace(DEFAULT_PARAMS, **held)
    if leaning_threshold is not None:
        params = replace(params, leaning_min_value_probability=leaning_threshold)
    return Nets(name, params, folder / "trained-on.txt")


def photo_figures(name: str, results: list[PhotoResult], tray_margin: float, params: ReaderParams) -> dict[str, float]:
    """A set's figures read anywhere (per die, exact photos, silent), at the table (the tray from the
    labelled boxes, the count known) and of the classifier alone on the labelled boxes."""
    overall = figures(name, results)
    boxed = [r for r in results if r.photo.boxes]
    table = TableFigures.of(at_the_table(r, tray_margin, True, params).table_outcome for r in boxed)
    values = {"per-die": overall.per_die, "per-photo": overall.per_photo, "silent": overall.silent}
    if boxed:
        values |= {"table-right": table.percent("right"), "table-silent": table.percent("silent")}
    limit = ceiling(results)
    if limit is not None:
        values["label-boxes"] = 100 * limit.boxes_right / max(limit.dice, 1)
        if limit.said_right is not None:
            values["label-boxes-said"] = 100 * limit.said_right / max(limit.dice, 1)
    return values


def photo_set_figures(folders: dict[str, Path], nets: Sequence[Nets], tray_margin: float, out: Out) -> tuple[list[Figure], dict[str, str]]:
    """Every photo set's figures, each net's side by side, and each set's size: every folder of
    ``folders`` (a key of SOURCES each) read once by each net, on the photos none of them saw."""
    listings = [DEFAULT_PARAMS.trained_on, *(net.trained_on for net in nets)]
    photos = {source: measured_photos(folder, list(SOURCES[source].splits or ()) or None, None,
                                      lambda line, source=source: out(f"{source}: {line}"), listings=listings)
              for source, folder in folders.items()}  # every folder checked before any is read
    read = {(source, number): read_photos(folder, photos[source], params=net.params)
            for source, folder in folders.items() for number, net in enumerate(nets)}
    found: list[Figure] = []
    sizes: dict[str, str] = {}
    for name, source, only in PHOTO_SETS:
        if source not in folders:
            continue
        chosen = [[r for r in read[source, number] if only is None or fnmatch.fnmatchcase(r.photo.file, only)]
                  for number in range(len(nets))]
        if not chosen[0]:
            out(f"{name}: left out, no photo of {folders[source]} is named {only}")
            continue
        each = [photo_figures(name, results, tray_margin, net.params) for results, net in zip(chosen, nets)]
        found += [Figure(name, key, tuple(round(v[key], 1) for v in each)) for key in PHOTO_FIGURES if key in each[0]]
        sizes[name] = f"{len(chosen[0])} photo{'s' if len(chosen[0]) != 1 else ''}"
    return found, sizes


def scene_figures(nets: Sequence[Nets], trays: int, seed: int) -> tuple[list[Figure], dict[str, str]]:
    """Every ``bench-vision`` scene's figures (``trays`` of each kind from ``seed``), each net's side by side."""
    found: list[Figure] = []
    for number, kind in enumerate(TRAY_KINDS):
        thrown = list(progress(throws(kind, trays, seed + number), f"{kind.name} trays", trays))
        each = [read_throws(kind, thrown, net.params) for net in nets]
        values = [{"exact": f.share(f.exact), "invented": f.invented, "count": f.share(f.counted), "per-die": f.per_die}
                  for f in each]
        found += [Figure(kind.name, key, tuple(round(v[key], 1) for v in values), "scene") for key in SCENE_FIGURES]
    return found, {kind.name: f"{trays} trays" for kind in TRAY_KINDS}


def compare_command(candidates: Sequence[Path], aims: Sequence[tuple[str, str | None]], folders: dict[str, Path],
                    trays: int = 60, seed: int = 1, floor: float = 0.5, tray_margin: float = TRAY_MARGIN,
                    out: Out = print, leaning_threshold: float | None = None) -> int:
    """Read every set and scene with the shipped nets and the candidates' (one recipe, two seeds at
    most), print the Markdown table, and end with the verdict on the first candidate. The real sets'
    folders must be there; the oblique renders, made on demand, are left out, said, when they are not;
    an aim at a set not measured is refused before anything is read. ``leaning_threshold`` is the
    candidates' face threshold where the camera leans (the reader's where None)."""
    nets = [Nets("shipped", DEFAULT_PARAMS, DEFAULT_PARAMS.trained_on)]
    nets += [candidate_nets(folder, f"candidate {folder.name}", leaning_threshold) for folder in candidates]
    present = {source: folder for source, folder in folders.items() if source != "oblique" or folder.is_dir()}
    if "oblique" not in present:
        out(f"oblique: left out, no folder {folders['oblique']} (make it: "
            f"{OBLIQUE_COMMAND.replace('DIR', str(folders['oblique']))})")
    measured = {name for name, source, _ in PHOTO_SETS if source in present} | {kind.name for kind in TRAY_KINDS}
    missing = [name for name, _ in aims if name not in measured]
    if missing:
        raise AimError(f"--aim {missing[0]}: not measured (measured: {', '.join(sorted(measured))})")
    photo_rows, photo_sizes = photo_set_figures(present, nets, tray_margin, out)
    scene_rows, scene_sizes = scene_figures(nets, trays, seed)
    rows = photo_rows + scene_rows
    out(f"Per die, exact and silent: read anywhere (eval-vision DIR); at the table: the dice inside the labelled "
        f"dice's spread grown by {tray_margin:g} die sizes, the count known (eval-vision DIR --tray-from-boxes "
        f"{tray_margin:g} --table); label-boxes: the classifier alone on the labelled boxes; label-boxes said: "
        f"read right there surely enough to say (what a reader keeping its threshold reads on perfect boxes).")
    for line in markdown(rows, [net.name for net in nets], floor, photo_sizes | scene_sizes):
        out(line)
    out(verdict(rows, aims, floor))
    return 0
