"""Read a face from pip blobs: find centrally symmetric pip sets and check them against the d6 layouts.

Every d6 layout (1 to 6) is point-symmetric about the face centre, and a symmetric set stays
symmetric under the affine-ish distortion of a tilted or oblique view. So a face hypothesis is a
centre plus pips paired by reflection through it; the layout (lengths and angles of the pairs) is
then checked in coordinates whitened by the pips' mean shape, since pips are circles on the face.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.params import ReaderParams
from vision.pips import Blob


@dataclass(frozen=True)
class Face:
    """A symmetric pip set: its value (None if the layout is not a d6 face), members and geometry (patch px)."""

    value: int | None
    members: tuple[int, ...]
    centre: np.ndarray
    whiten: np.ndarray  # 2x2: patch px -> face coordinates where pips are round
    grid: float  # grid step of the layout (whitened px), 0 for a lone pip
    pip_diameter: float  # mean pip diameter (px)
    pip_area: float  # mean pip area (px^2)
    contrast: float  # mean peak contrast of the members (Lab)
    offset: float  # distance of the face centre from the die centre (patch)


@dataclass(frozen=True)
class FaceReading:
    """What one die's face says: value or None, confidence, pips used (patch px), and why."""

    value: int | None
    confidence: float
    pips: tuple[np.ndarray, ...]
    reason: str


def _is_perpendicular(u: np.ndarray, v: np.ndarray, p: ReaderParams) -> bool:
    cosine = abs(float(u @ v)) / max(float(np.linalg.norm(u) * np.linalg.norm(v)), 1e-9)
    return cosine <= np.cos(np.radians(90 - p.grid_angle_tolerance))


def _similar(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= tolerance * (a + b) / 2


def layout_value(has_centre: bool, half_pairs: np.ndarray, p: ReaderParams) -> tuple[int | None, float]:
    """(value, grid step) of a symmetric pip set, from the half-vectors of its pairs (whitened), or (None, 0).

    2, 3: one diagonal.  4, 5: two equal perpendicular diagonals.  6: two equal perpendicular
    diagonals plus a middle pair one grid step long, and no centre pip.
    """
    n = 2 * len(half_pairs) + has_centre
    if n == 0 or n > 6:
        return None, 0.0
    if n == 1:
        return 1, 0.0
    lengths = np.linalg.norm(half_pairs, axis=1)
    if n in (2, 3):
        return n, float(lengths[0] / np.sqrt(2))
    if n in (4, 5):
        if _similar(lengths[0], lengths[1], p.grid_tolerance) and _is_perpendicular(*half_pairs, p):
            return n, float(lengths.mean() / np.sqrt(2))
        return None, 0.0
    if has_centre:
        return None, 0.0
    middle = int(np.argmin(lengths))
    diagonals = [k for k in range(3) if k != middle]
    grid = float(lengths[diagonals].mean() / np.sqrt(2))
    if (
        _similar(lengths[diagonals[0]], lengths[diagonals[1]], p.grid_tolerance)
        and abs(lengths[middle] - grid) <= p.grid_tolerance * p.six_middle_tolerance * grid
        and _is_perpendicular(half_pairs[diagonals[0]], half_pairs[diagonals[1]], p)
    ):
        return 6, grid
    return None, 0.0


def _whitening(blobs: list[Blob], members: tuple[int, ...]) -> np.ndarray:
    """Linear map that makes the members' mean pip shape a circle of the same area."""
    cov = np.mean([blobs[m].cov for m in members], axis=0)
    eigenvalues, vectors = np.linalg.eigh(cov)
    eigenvalues = np.maximum(eigenvalues, 1e-6)
    return vectors @ np.diag(1 / np.sqrt(eigenvalues)) @ vectors.T * np.sqrt(np.sqrt(eigenvalues[0] * eigenvalues[1]))


def _pair_by_reflection(points: np.ndarray, centre: np.ndarray, tolerance: float) -> tuple[int | None, list[tuple[int, int]]]:
    """The centre pip (if one sits at ``centre``) and greedy closest pairs of points mirrored through it."""
    n = len(points)
    from_centre = np.linalg.norm(points - centre, axis=1)
    centre_pip = int(np.argmin(from_centre)) if from_centre.min() < tolerance else None
    mirrored = 2 * centre - points
    mismatch = np.linalg.norm(mirrored[:, None, :] - points[None, :, :], axis=2)
    np.fill_diagonal(mismatch, np.inf)
    if centre_pip is not None:
        mismatch[centre_pip, :] = np.inf
        mismatch[:, centre_pip] = np.inf
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for flat in np.argsort(mismatch, axis=None):
        i, j = divmod(int(flat), n)
        if mismatch[i, j] > 2 * tolerance:
            break
        if i in used or j in used:
            continue
        pairs.append((i, j))
        used.update((i, j))
    return centre_pip, pairs


def face_hypotheses(blobs: list[Blob], p: ReaderParams) -> list[Face]:
    """Every distinct symmetric pip set whose centre lies near the die centre (value None if no d6 layout).

    Centres tried: the die centre, each blob (a centre pip), and each pair's midpoint.
    """
    S = p.patch_px
    die_centre = np.array([S / 2, S / 2])
    points = np.array([b.centre for b in blobs])
    areas = np.array([b.area for b in blobs])
    tolerance = p.symmetry_tolerance * float(np.median([b.diameter for b in blobs]))
    n = len(points)
    centres = [die_centre, *points, *((points[i] + points[j]) / 2 for i in range(n) for j in range(i + 1, n))]
    faces: dict[tuple[int, ...], Face] = {}
    for centre in centres:
        offset = float(np.linalg.norm(centre - die_centre))
        if offset > p.face_centre_tolerance * S:
            continue
        centre_pip, pairs = _pair_by_reflection(points, centre, tolerance)
        members = tuple(sorted({i for pair in pairs for i in pair} | ({centre_pip} if centre_pip is not None else set())))
        if not members or members in faces:
            continue
        whiten = _whitening(blobs, members)
        half_pairs = np.array([whiten @ (points[i] - points[j]) / 2 for i, j in pairs]).reshape(-1, 2)
        value, grid = layout_value(centre_pip is not None, half_pairs, p)
        member_areas = areas[list(members)]
        diameter = 2 * float(np.sqrt(member_areas.mean() / np.pi))
        if value is not None and not _plausible(value, grid, diameter, offset, member_areas, p):
            value = None
        faces[members] = Face(value, members, centre, whiten, grid, diameter, float(member_areas.mean()),
                              float(np.mean([blobs[m].contrast for m in members])), offset / S)
    return list(faces.values())


def _plausible(value: int, grid: float, diameter: float, offset: float, areas: np.ndarray, p: ReaderParams) -> bool:
    """Pip sizes alike, grid step in proportion to pip size; a lone pip big enough and central."""
    S = p.patch_px
    if areas.max() > p.pip_size_ratio * areas.min():
        return False
    if value == 1:
        return p.one_min_diameter * S <= diameter <= p.one_max_diameter * S and offset <= p.one_centre_tolerance * S
    return p.grid_min_pips <= grid / diameter <= p.grid_max_pips


def count_unexplained(blobs: list[Blob], face: Face, p: ReaderParams) -> int:
    """Strong blobs shaped like the face's pips (same face plane) inside the face but not in its layout.

    Their presence means the layout is probably a subset of the true face: better unreadable than wrong.
    """
    reach = p.unexplained_reach * (face.grid * np.sqrt(2) if face.value and face.value > 1 else 2 * face.pip_diameter)
    count = 0
    for i, blob in enumerate(blobs):
        if i in face.members or blob.contrast < p.unexplained_contrast * face.contrast:
            continue
        if np.linalg.norm(face.whiten @ (blob.centre - face.centre)) > reach:
            continue
        small, big = np.linalg.eigvalsh(face.whiten @ blob.cov @ face.whiten.T)
        if big > p.unexplained_elongation**2 * max(small, 1e-6):
            continue  # foreshortened differently: a pip of another face
        count += 1
    return count


def read_face(blobs: list[Blob], p: ReaderParams) -> FaceReading:
    """The top face's value from the die's pip blobs, or None with a reason."""
    S = p.patch_px
    if not blobs:
        return FaceReading(None, 0.0, (), "no pips")
    valid = [f for f in face_hypotheses(blobs, p) if f.value is not None]
    if not valid:
        return FaceReading(None, p.confidence_no_layout, (np.array([S / 2, S / 2]),),
                           f"{len(blobs)} blobs, no pip layout")
    # Maximal sets only; the most frontal face has the biggest pips (side faces are foreshortened);
    # then more pips, then nearer the die centre.
    member_sets = [set(f.members) for f in valid]
    maximal = [f for f, s in zip(valid, member_sets) if not any(s < other for other in member_sets)]
    biggest = max(f.pip_area for f in maximal)
    frontal = [f for f in maximal if f.pip_area >= p.front_area_fraction * biggest]
    best = min(frontal, key=lambda f: (-len(f.members), f.offset))
    pips = tuple(blobs[m].centre for m in best.members)
    unexplained = count_unexplained(blobs, best, p)
    if unexplained:
        return FaceReading(None, p.confidence_unexplained, pips, f"{unexplained} pips outside the {best.value} layout")
    return FaceReading(best.value, p.confidence_read, pips, "")
