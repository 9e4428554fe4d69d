"""Find die candidates: things that differ from the local background, split into die-sized squares.

The background (tray, table, cloth) varies slowly across the image while dice are small, so a
large median gives the background colour everywhere; foreground is whatever differs from it in
lightness or colour. Touching dice form one component, which is split at its distance-transform
peaks with a watershed on the colour gradient.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.params import ReaderParams


def odd(n: float) -> int:
    """The nearest odd integer >= 1 (kernel sizes must be odd)."""
    k = max(1, int(round(n)))
    return k + 1 - k % 2


def disc(diameter: float) -> np.ndarray:
    """An elliptical structuring element of about ``diameter`` px."""
    k = odd(diameter)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))


def foreground_score(lab: np.ndarray, background: np.ndarray, p: ReaderParams) -> np.ndarray:
    """How far each pixel is from the background, in units of the foreground thresholds (>1 = foreground)."""
    dl = lab[..., 0] - background[..., 0]
    dc = np.sqrt((lab[..., 1] - background[..., 1]) ** 2 + (lab[..., 2] - background[..., 2]) ** 2)
    return np.maximum(np.maximum(dc / p.fg_chroma, -dl / p.fg_darker), dl / p.fg_brighter)


def background_lab(lab: np.ndarray, p: ReaderParams) -> np.ndarray:
    """Local background colour (float32 Lab) at the size of ``lab``.

    A median over a window much larger than a die ignores the dice; a second, masked mean over the
    pixels that look like background then follows lighting gradients more closely.
    """
    h, w = lab.shape[:2]
    s = p.background_scale
    small = cv2.resize(lab, (max(1, w // s), max(1, h // s)), interpolation=cv2.INTER_AREA)
    window = p.background_window_px / s / p.segment_scale
    median = cv2.medianBlur(small, min(odd(window), 255)).astype(np.float32)
    small = small.astype(np.float32)
    keep = (foreground_score(small, median, p) < 1.0).astype(np.float32)
    keep = cv2.erode(keep, np.ones((3, 3), np.uint8))
    k = odd(window / 2)
    total = cv2.blur(small * keep[..., None], (k, k))
    weight = cv2.blur(keep, (k, k))[..., None]
    refined = np.where(weight > 0.05, total / np.maximum(weight, 1e-6), median)
    return cv2.resize(refined, (w, h), interpolation=cv2.INTER_LINEAR)


def fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Fill holes smaller than ``max_area`` px^2 (pips); big holes, such as a tray's interior, stay open."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hierarchy is None:
        return out
    holes = [c for c, h in zip(contours, hierarchy[0]) if h[3] >= 0 and cv2.contourArea(c) < max_area]
    cv2.drawContours(out, holes, -1, 255, -1)
    return out


def foreground_mask(lab: np.ndarray, p: ReaderParams) -> np.ndarray:
    """uint8 mask (255 = foreground) of the segmentation-scale Lab image.

    Hysteresis: weakly different pixels count where they touch clearly different ones, so the
    faint shaded rim of a white die on a white tray joins its pips; the rim then closes around
    the face, and holes up to a die's size are filled.
    """
    ss = p.segment_scale
    score = foreground_score(lab.astype(np.float32), background_lab(lab, p), p)
    weak = (score > p.fg_weak).astype(np.uint8) * 255
    weak = cv2.morphologyEx(weak, cv2.MORPH_CLOSE, disc(p.fg_close_px / ss))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(weak, connectivity=8)
    strong = np.zeros(count, bool)
    strong[np.unique(labels[score > 1.0])] = True
    strong[0] = False
    fg = strong[labels].astype(np.uint8) * 255
    fg = fill_small_holes(fg, p.max_hole_fill_fraction * (p.max_die_side_px / ss) ** 2)
    return cv2.morphologyEx(fg, cv2.MORPH_OPEN, disc(p.fg_open_px / ss))


def colour_gradient(lab: np.ndarray, p: ReaderParams) -> np.ndarray:
    """3-channel uint8 gradient magnitude (max over Lab channels), the relief the watershed floods."""
    gx = np.abs(cv2.Sobel(lab, cv2.CV_16S, 1, 0)).max(-1)
    gy = np.abs(cv2.Sobel(lab, cv2.CV_16S, 0, 1)).max(-1)
    grad = cv2.convertScaleAbs(gx.astype(np.float32) + gy, alpha=p.gradient_gain)
    return cv2.cvtColor(grad, cv2.COLOR_GRAY2BGR)


def _peak_centres(dist: np.ndarray, p: ReaderParams) -> list[tuple[int, int, float]]:
    """Distance-transform maxima far enough apart to be separate dice: (x, y, inradius), biggest first."""
    top = float(dist.max())
    local_max = dist >= cv2.dilate(dist, disc(max(3.0, top)))
    ys, xs = np.nonzero(local_max & (dist >= p.split_peak_frac * top))
    centres: list[tuple[int, int, float]] = []
    for i in np.argsort(-dist[ys, xs]):
        x, y, r = int(xs[i]), int(ys[i]), float(dist[ys[i], xs[i]])
        if all(np.hypot(x - cx, y - cy) > p.split_merge * max(r, cr) for cx, cy, cr in centres):
            centres.append((x, y, r))
    return centres


def _kmeans_centres(mask: np.ndarray, count: int, p: ReaderParams) -> list[tuple[int, int, float]]:
    """``count`` die centres in a cluster of touching dice: k-means of its pixel positions (x, y, seed radius)."""
    ys, xs = np.nonzero(mask)
    points = np.column_stack([xs, ys]).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, p.kmeans_iterations, 0.5)
    _, _, centres = cv2.kmeans(points, count, None, criteria, p.kmeans_attempts, cv2.KMEANS_PP_CENTERS)
    radius = p.split_seed_frac * 0.5 * float(np.sqrt(len(points) / count))
    return [(int(round(x)), int(round(y)), radius / p.split_seed_frac) for x, y in centres]


def _split_component(
    mask: np.ndarray, gradient: np.ndarray, p: ReaderParams, min_side: float, die_area: float | None
) -> list[np.ndarray]:
    """Single-die contours in one component's mask (with a 1 px empty border).

    When the typical die area of the image is known, a component holding several of it is cut
    into that many dice (k-means centres); otherwise distance-transform peaks decide.
    """
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    if float(dist.max()) < min_side * p.min_inradius_frac:
        return []
    area = float(np.count_nonzero(mask))
    if die_area is not None and area > p.split_area_ratio * die_area:
        centres = _kmeans_centres(mask, int(round(area / die_area)), p)
    else:
        centres = _peak_centres(dist, p)
    if len(centres) <= 1:
        parts = [mask]
    else:
        markers = np.zeros(mask.shape, np.int32)
        for label, (x, y, r) in enumerate(centres, start=1):
            cv2.circle(markers, (x, y), max(1, int(r * p.split_seed_frac)), label, -1)
        markers[mask == 0] = len(centres) + 1
        flooded = cv2.watershed(gradient, markers)
        parts = [((flooded == label) * 255).astype(np.uint8) for label in range(1, len(centres) + 1)]
    contours = []
    for part in parts:
        radius = int(p.shave_frac * cv2.distanceTransform(part, cv2.DIST_L2, 3).max())
        if radius >= 2:
            part = cv2.morphologyEx(part, cv2.MORPH_OPEN, disc(2 * radius + 1))
        found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if found:
            # the hull restores notches where light pips near the edge looked like the backdrop
            contours.append(cv2.convexHull(max(found, key=cv2.contourArea)))
    return contours


def typical_die_area(labels: np.ndarray, stats: np.ndarray, p: ReaderParams, min_side: float) -> float | None:
    """Median pixel area of the components that look like one lone die (square, solid), or None if there are none.

    Dice in one photo are about the same size, so this tells how many dice a bigger cluster holds.
    """
    areas = []
    for i in range(1, len(stats)):
        x, y, w, h, area = stats[i]
        if min(w, h) < min_side or area < min_side**2:
            continue
        found, _ = cv2.findContours((labels[y : y + h, x : x + w] == i).astype(np.uint8), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(found, key=cv2.contourArea))
        (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
        if max(rw, rh) <= p.lone_die_max_aspect * min(rw, rh) and area >= p.lone_die_min_fill * rw * rh:
            areas.append(float(area))
    return float(np.median(areas)) if areas else None


def _is_die_shaped(contour: np.ndarray, p: ReaderParams) -> bool:
    """Size, squareness and solidity of a die seen from above (contour in working px)."""
    (_, _), (w, h), _ = cv2.minAreaRect(contour)
    if min(w, h) < p.min_die_side_px or max(w, h) > p.max_die_side_px:
        return False
    if max(w, h) > p.max_die_aspect * max(min(w, h), 1.0):
        return False
    return cv2.contourArea(contour) >= p.min_die_fill * w * h


def find_die_contours(bgr: np.ndarray, p: ReaderParams) -> list[np.ndarray]:
    """Contours (float32, working px) of the die-shaped foreground parts of a BGR image."""
    ss = p.segment_scale
    h, w = bgr.shape[:2]
    small = cv2.resize(bgr, (max(1, w // ss), max(1, h // ss)), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    fg = foreground_mask(lab, p)
    gradient = colour_gradient(lab, p)
    min_side = p.min_die_side_px / ss
    count, labels, stats, _ = cv2.connectedComponentsWithStats(fg, connectivity=8)
    die_area = None
    contours = []
    for i in range(1, count):
        x, y, cw, ch, area = stats[i]
        if max(cw, ch) < min_side or area < 0.5 * min_side**2:
            continue
        mask = cv2.copyMakeBorder((labels[y : y + ch, x : x + cw] == i).astype(np.uint8) * 255, 1, 1, 1, 1,
                                  cv2.BORDER_CONSTANT, value=0)
        relief = cv2.copyMakeBorder(gradient[y : y + ch, x : x + cw], 1, 1, 1, 1, cv2.BORDER_REPLICATE)
        for c in _split_component(mask, relief, p, min_side, die_area):
            full = (c.astype(np.float32) + np.float32([x - 1, y - 1]) + 0.5) * ss - 0.5
            if _is_die_shaped(full, p):
                contours.append(full)
    return contours
