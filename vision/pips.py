"""Pip candidates on one die: warp the die to a canonical patch and find pip-like colour blobs.

Pips may be darker, lighter or just differently coloured than the die body, so blobs are found
with a colour difference of gaussians projected on the colour direction of the strongest
response: pips then all have one sign, while the body showing between pips has the other.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.find_dice import disc, odd
from vision.params import ReaderParams


@dataclass(frozen=True)
class DiePatch:
    """A die warped to a ``patch_px`` square: Lab pixels, mask of where to look for pips, and the warp."""

    lab: np.ndarray  # float32 (S, S, 3)
    inner: np.ndarray  # uint8 (S, S), 255 inside the die minus a margin
    to_patch: np.ndarray  # 2x3 affine, working px -> patch px


@dataclass(frozen=True)
class Blob:
    """A pip candidate in patch px: centre (x, y), area px^2, second moments (2x2) and peak contrast (Lab)."""

    centre: np.ndarray
    area: float
    cov: np.ndarray
    contrast: float

    @property
    def diameter(self) -> float:
        return 2.0 * float(np.sqrt(self.area / np.pi))


def die_patch(bgr: np.ndarray, contour: np.ndarray, p: ReaderParams) -> DiePatch | None:
    """Warp the die inside ``contour`` to the canonical patch (similarity: no stretch, so pips stay round).

    None when nothing of the die is left once the margin is eroded.
    """
    (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
    S = p.patch_px
    to_patch = cv2.getRotationMatrix2D((cx, cy), angle, S / max(w, h, 1.0))
    to_patch[:, 2] += np.array([S / 2 - cx, S / 2 - cy])
    lab = cv2.cvtColor(cv2.warpAffine(bgr, to_patch, (S, S), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE),
                       cv2.COLOR_BGR2LAB)
    outline = np.zeros((S, S), np.uint8)
    warped = cv2.transform(contour.reshape(-1, 1, 2).astype(np.float32), to_patch)
    cv2.fillPoly(outline, [np.round(warped).astype(np.int32)], 255)
    inner = cv2.erode(outline, disc(2 * p.inner_margin * S))
    if not inner.any():
        return None
    return DiePatch(lab.astype(np.float32), inner, to_patch)


def _signed_pip_response(patch: DiePatch, p: ReaderParams) -> np.ndarray:
    """Colour DoG projected on the pip colour direction: high on pips, low or negative elsewhere."""
    S = p.patch_px
    lab = patch.lab
    dog = cv2.GaussianBlur(lab, (0, 0), p.dog_sigma_inner * S) - cv2.GaussianBlur(lab, (0, 0), p.dog_sigma_outer * S)
    dog *= np.float32([1.0, p.chroma_weight, p.chroma_weight])
    magnitude = np.sqrt((dog**2).sum(-1))
    magnitude[patch.inner == 0] = 0
    y, x = np.unravel_index(int(np.argmax(magnitude)), magnitude.shape)
    direction = dog[y, x] / max(float(magnitude[y, x]), 1e-6)
    response = (dog @ direction).astype(np.float32)
    response[patch.inner == 0] = 0
    return response


def _measure_blob(response: np.ndarray, x: int, y: int, p: ReaderParams) -> Blob | None:
    """The pip around peak (x, y): the connected region above half the peak; None if not pip-like."""
    S = p.patch_px
    r = int(p.pip_window * S)
    y0, y1, x0, x1 = max(0, y - r), min(S, y + r + 1), max(0, x - r), min(S, x + r + 1)
    above = (response[y0:y1, x0:x1] >= p.pip_extent_level * response[y, x]).astype(np.uint8)
    _, labels = cv2.connectedComponents(above, connectivity=4)
    region = (labels == labels[y - y0, x - x0]).astype(np.uint8)
    area = float(region.sum())
    if not (p.pip_min_area * S * S <= area <= p.pip_max_area * S * S):
        return None
    m = cv2.moments(region, True)
    cov = np.array([[m["mu20"], m["mu11"]], [m["mu11"], m["mu02"]]]) / area
    small, big = np.linalg.eigvalsh(cov)
    if big > p.pip_max_elongation**2 * max(small, 1e-6):
        return None
    centre = np.array([x0 + m["m10"] / area, y0 + m["m01"] / area])
    return Blob(centre, area, cov, float(response[y, x]))


def find_blobs(patch: DiePatch, p: ReaderParams) -> list[Blob]:
    """Pip-like blobs in the patch, strongest first."""
    response = _signed_pip_response(patch, p)
    peaks = (response >= cv2.dilate(response, disc(p.peak_window * p.patch_px))) & (response > p.pip_min_contrast)
    ys, xs = np.nonzero(peaks)
    if len(ys) == 0:
        return []
    strengths = response[ys, xs]
    keep = strengths >= max(p.pip_min_contrast, p.peak_relative * float(strengths.max()))
    ys, xs, strengths = ys[keep], xs[keep], strengths[keep]
    blobs = []
    for i in np.argsort(-strengths)[: p.max_blobs]:
        blob = _measure_blob(response, int(xs[i]), int(ys[i]), p)
        if blob is not None:
            blobs.append(blob)
    return blobs


__all__ = ["Blob", "DiePatch", "die_patch", "find_blobs", "odd"]
