"""Path-traced 3D dice trays for training, with Mitsuba 3 (``pip install '.[train]'``).

The fast 2D trays of ``vision/scenes/synthetic.py`` draw every die from above; real photos show
perspective, rounded edges, side faces, soft shadows, glare on glossy plastic, marbled and
translucent dice, motion blur and clutter beside the tray. This renders such scenes: rounded
cube meshes made here with numpy (pips painted through a texture atlas, often in dimples of
displaced geometry), a textured table, 3D clutter (coins, cards and labels, keycaps, a cable),
an area light plus a dim sky, and a perspective camera 0-40 degrees from vertical.

Each die is labelled with the value of the face whose outward normal points up (world +z) and
the box of its whole mesh projected by the camera's own matrix, as ``Scene`` dice
(centre x, centre y, longer side, value), and with where the middle of its top face lies in the
picture (``tops`` in ``labels.jsonl``; ``load_rendered(top_faces=True)``). The reader never imports
this; Mitsuba's CPU variant ``scalar_rgb`` needs nothing but the PyPI wheel.

    python -m vision.training.render3d --count 400 --out /tmp/rendered3d --seed 1
"""

from __future__ import annotations

import argparse
import json
import math
import string
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np

from vision.read.classify import far_side_degrees
from vision.scenes.clutter import draw_clutter
from vision.scenes.pips import PIP_LAYOUTS
from vision.scenes.synthetic import place_dice
from vision.training.photos import Scene

LABELS = "labels.jsonl"
# Runs on any CPU from the wheel alone. llvm_ad_rgb would be faster but needs a system libLLVM that
# Dr.Jit accepts: Debian 12's LLVM 14 is too old and its LLVM 15 aborts compiling Dr.Jit's kernels.
VARIANT = "scalar_rgb"
STRAIGHT_DOWN = 3.0  # degrees from vertical: a camera nearer than this has no far side (``Camera.far_side``)


@dataclass(frozen=True)
class RenderParams:
    """The renderer's tuned numbers. Lengths in mm unless named otherwise; ranges are (low, high)."""

    dice: tuple[int, int] = (1, 8)  # dice in a scene
    die_side: tuple[float, float] = (12.0, 19.0)
    corner_radius: tuple[float, float] = (0.06, 0.2)  # die sides
    pip_radius: tuple[float, float] = (0.075, 0.1)  # die sides
    pip_spread: float = 0.27  # die sides from a face's middle to an outer pip, less where the corners are round
    dimple_depth: tuple[float, float] = (0.02, 0.05)  # die sides
    dimpled_share: float = 0.7  # of dice whose pips are dimples (painted); the rest are printed flat
    face_cells: int = 40  # grid steps across a dimpled face; 4 for a flat one
    edge_cells: int = 4  # grid steps across a rounded edge
    atlas_face_px: int = 128  # texture pixels along one face's side
    touching_share: float = 0.4  # scenes whose dice are pressed together in groups
    place_unit: float = 0.25  # mm per unit of ``place_dice``, whose touching gap is 0.5-2.5 units
    spread: tuple[float, float] = (1.0, 3.0)  # tray width per die side and per square root of the dice
    tilt: tuple[float, float] = (0.0, 40.0)  # degrees of the camera from vertical
    fov: tuple[float, float] = (40.0, 65.0)  # horizontal field of view, degrees
    fill: tuple[float, float] = (0.35, 0.85)  # share of the frame's half-size the dice reach from its middle
    image_sizes: tuple[tuple[int, int], ...] = (  # (width, height) px
        (416, 320), (384, 288), (352, 352), (320, 320), (448, 320))
    spp: int = 16  # samples per pixel
    max_depth: int = 4  # light bounces: enough for opaque dice (more cost little but time)
    max_depth_translucent: int = 6  # light through clear resin bounces inside it
    milky: tuple[float, float] = (0.3, 0.6)  # share of a translucent die's light scattered as by coloured plastic
    firefly: float = 4.0  # a pixel this many times brighter than its 3x3 median (plus 0.05) is a sampling spike
    light_height: tuple[float, float] = (250.0, 1200.0)
    light_size: tuple[float, float] = (30.0, 700.0)  # side of the square lamp: small gives hard shadows
    sky: tuple[float, float] = (0.08, 0.6)  # dim uniform light from all around, relative to the lamp
    clutter: tuple[int, int] = (1, 5)  # clutter objects in a scene that has any
    clutter_share: float = 0.6  # scenes with any clutter
    motion_blur_share: float = 0.15  # scenes with one die smeared as if still rolling
    motion_blur: tuple[float, float] = (0.08, 0.3)  # die sides the smear runs
    exposure: tuple[float, float] = (0.6, 1.25)  # gain over an exposure that shows white paper as white
    noise: tuple[float, float] = (0.5, 4.0)  # sensor noise, grey levels
    focus_blur: tuple[float, float] = (0.0, 0.8)  # Gaussian blur, px
    jpeg_quality: tuple[int, int] = (55, 95)


PARAMS = RenderParams()

# Faces of a die in its own frame: outward normal, two in-face axes (right-handed with it), value.
FACES: tuple[tuple[tuple[int, int, int], tuple[int, int, int], tuple[int, int, int], int], ...] = (
    ((0, 0, 1), (1, 0, 0), (0, 1, 0), 1),
    ((0, 0, -1), (0, 1, 0), (1, 0, 0), 6),
    ((1, 0, 0), (0, 1, 0), (0, 0, 1), 2),
    ((-1, 0, 0), (0, 0, 1), (0, 1, 0), 5),
    ((0, 1, 0), (0, 0, 1), (1, 0, 0), 3),
    ((0, -1, 0), (1, 0, 0), (0, 0, 1), 4),
)

# (body, pips) in sRGB 0-255, RGB order: common dice; other scenes draw a random colour.
DIE_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((240, 238, 235), (25, 25, 25)),
    ((245, 235, 205), (40, 30, 30)),
    ((200, 30, 35), (245, 245, 245)),
    ((30, 30, 32), (240, 240, 240)),
    ((35, 140, 60), (245, 245, 245)),
    ((30, 80, 170), (245, 245, 245)),
    ((235, 200, 40), (30, 30, 30)),
    ((240, 238, 235), (190, 30, 40)),
)

TABLES = ("felt", "wood", "paper", "plastic")
Mesh = tuple[np.ndarray, np.ndarray, np.ndarray]  # vertices (n, 3) mm, triangles (m, 3), texture coords (n, 2)


@dataclass(frozen=True)
class DieLook:
    """How one die looks: colours in linear RGB 0-1, material ``plastic``, ``marbled`` or ``translucent``."""

    body: tuple[float, float, float]
    vein: tuple[float, float, float]  # the marble's second colour
    pips: tuple[float, float, float]
    material: str
    glossy: bool
    red_one: bool  # the 1 is a larger red pip, as on many white dice


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: where it is, what it looks at, which way is up in the picture, its field of view."""

    origin: tuple[float, float, float]
    target: tuple[float, float, float]
    up: tuple[float, float, float]
    fov_x: float  # degrees
    size: tuple[int, int]  # (width, height) px

    def world_to_pixels(self) -> np.ndarray:
        """The 4x4 matrix that takes world points to (x px, y px, depth, w), Mitsuba's own projection."""
        mi = _mitsuba()
        to_world = mi.ScalarTransform4f().look_at(origin=self.origin, target=self.target, up=self.up)
        film = mi.ScalarVector2i(*self.size)
        projection = mi.perspective_projection(film, film, mi.ScalarVector2i(0, 0), self.fov_x, 1.0, 1e5)
        scale = np.diag([self.size[0], self.size[1], 1.0, 1.0])
        return scale @ np.array(projection.matrix) @ np.linalg.inv(np.array(to_world.matrix))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixel (x, y) of world points (n, 3), x to the right and y down from the top-left corner."""
        homogeneous = np.column_stack([points, np.ones(len(points))]) @ self.world_to_pixels().T
        return homogeneous[:, :2] / homogeneous[:, 3:4]

    def far_side(self) -> float | None:
        """Degrees the table's far side (away from the camera) is turned counter-clockwise from the
        picture's top, at the point looked at: where the reader turns its crops so a die's top
        face lies above the side face turned to the camera (``ReaderParams.up``); None for a
        camera within ``STRAIGHT_DOWN`` degrees of vertical, which sees no side face to speak of."""
        target = np.array(self.target)
        view = target - np.array(self.origin)
        forward = np.array([view[0], view[1], 0.0])
        if np.linalg.norm(forward) <= math.sin(math.radians(STRAIGHT_DOWN)) * np.linalg.norm(view):
            return None
        ahead = target + 10.0 * forward / np.linalg.norm(forward)
        (x0, y0), (x1, y1) = self.project(np.stack([target, ahead]))
        return round(far_side_degrees(x1 - x0, y1 - y0), 1) % 360.0


def _to_linear(srgb: np.ndarray) -> np.ndarray:
    """sRGB 0-255 to linear 0-1 (float32), as Mitsuba renders."""
    c = np.asarray(srgb, np.float32) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4).astype(np.float32)


def _linear(srgb: Sequence[float]) -> tuple[float, float, float]:
    """One sRGB 0-255 colour in linear 0-1."""
    return tuple(float(v) for v in _to_linear(np.asarray(srgb)))


def _mitsuba():
    """Mitsuba, imported only here (the reader never needs it) and set to ``VARIANT``."""
    import mitsuba as mi

    if mi.variant() != VARIANT:
        mi.set_variant(VARIANT)
    return mi


def _to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear 0-1 to sRGB 0-255 floats."""
    c = np.clip(linear, 0, 1)
    return 255 * np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


# --- meshes -------------------------------------------------------------------------------------


def _face_grid(radius: float, cells: int, edge_cells: int) -> np.ndarray:
    """Grid coordinates across a face of a unit cube (-0.5..0.5): fine over the rounded edges, ``cells`` between."""
    inner = 0.5 - radius
    return np.concatenate([
        np.linspace(-0.5, -inner, edge_cells, endpoint=False),
        np.linspace(-inner, inner, cells, endpoint=False),
        np.linspace(inner, 0.5, edge_cells + 1),
    ])


def _grid_triangles(n: int, offset: int) -> np.ndarray:
    """Two triangles per cell of an n x n vertex grid, wound counter-clockwise seen from the grid's normal."""
    i, j = np.meshgrid(np.arange(n - 1), np.arange(n - 1), indexing="ij")
    a = (i * n + j).ravel() + offset
    b, c, d = a + n, a + n + 1, a + 1
    return np.concatenate([np.column_stack([a, b, c]), np.column_stack([a, c, d])])


def atlas_uv(face: int, a: np.ndarray | float, b: np.ndarray | float) -> tuple:
    """Where face point (a, b) lies in the 3x2 atlas, 0-1 with v down the image: seen from outside, not mirrored."""
    return (face % 3 + a + 0.5) / 3, (face // 3 + 0.5 - b) / 2


def pip_centres(value: int, spread: float) -> np.ndarray:
    """Pip centres (a, b) on a face of a unit cube, in the face's own axes."""
    return np.array(PIP_LAYOUTS[value], float) * spread


def rounded_die(radius: float, pip_radius: float, spread: float, depth: float, params: RenderParams = PARAMS) -> Mesh:
    """A unit die centred at the origin: a cube with edges rounded by ``radius``, pips dimpled ``depth`` deep.

    Each face is its own vertex grid, rounded by moving every point onto a sphere of ``radius``
    around the nearest point of the inner cube; its texture coordinates are its cell of a 3x2 atlas.
    """
    grid = _face_grid(radius, params.face_cells if depth > 0 else 4, params.edge_cells)
    a, b = (g.ravel() for g in np.meshgrid(grid, grid, indexing="ij"))
    vertices, triangles, texcoords = [], [], []
    for index, (normal, u_axis, v_axis, value) in enumerate(FACES):
        flat = 0.5 * np.array(normal, float) + a[:, None] * np.array(u_axis) + b[:, None] * np.array(v_axis)
        inner = np.clip(flat, radius - 0.5, 0.5 - radius)
        offset = flat - inner
        points = inner + radius * offset / np.linalg.norm(offset, axis=1, keepdims=True)
        if depth > 0:
            points -= np.array(normal) * _dimple_depth(a, b, pip_centres(value, spread), pip_radius, depth)[:, None]
        triangles.append(_grid_triangles(len(grid), sum(len(v) for v in vertices)))
        vertices.append(points)
        texcoords.append(np.column_stack(atlas_uv(index, a, b)))
    return np.concatenate(vertices), np.concatenate(triangles), np.concatenate(texcoords)


def _dimple_depth(a: np.ndarray, b: np.ndarray, pips: np.ndarray, pip_radius: float, depth: float) -> np.ndarray:
    """How far each face point sinks: a spherical cap ``depth`` deep in every pip."""
    reach = np.hypot(a[:, None] - pips[:, 0], b[:, None] - pips[:, 1]) / pip_radius
    return depth * np.sqrt(np.clip(1 - reach**2, 0, None)).max(axis=1)


def extruded(outline: np.ndarray, height: float, angle: float, centre: np.ndarray) -> Mesh:
    """A flat object on the table: a convex counter-clockwise ``outline`` (n, 2) mm raised ``height`` mm,
    turned ``angle`` radians and moved to ``centre``.

    The top face's texture covers the outline's bounding box, upright; the walls repeat its edge.
    """
    low, high = outline.min(axis=0), outline.max(axis=0)
    ring_uv = (outline - low) / np.maximum(high - low, 1e-6) * (1, -1) + (0, 1)
    n = len(outline)
    middle = outline.mean(axis=0)
    top = np.vstack([[*middle, height], np.column_stack([outline, np.full(n, height)])])
    walls = np.vstack([np.column_stack([outline, np.full(n, height)]), np.column_stack([outline, np.zeros(n)])])
    k = np.arange(n)
    fan = np.column_stack([np.zeros(n, int), 1 + k, 1 + (k + 1) % n])
    after = (k + 1) % n
    side = np.concatenate([np.column_stack([k, n + k, n + after]), np.column_stack([k, n + after, after])])
    c, s = math.cos(angle), math.sin(angle)
    vertices = np.vstack([top, walls]) @ np.array([[c, s, 0], [-s, c, 0], [0, 0, 1]]) + np.append(centre, 0)
    uv = np.vstack([ring_uv.mean(axis=0), ring_uv, ring_uv, ring_uv])
    return vertices, np.concatenate([fan, side + n + 1]), uv


def tube(path: np.ndarray, radius: float, sides: int = 10) -> Mesh:
    """A cable lying on the table along ``path`` (n, 2) mm: a tube of ``radius`` mm."""
    points = np.column_stack([path, np.full(len(path), radius)])
    tangent = np.gradient(points, axis=0)
    tangent /= np.linalg.norm(tangent, axis=1, keepdims=True)
    across = np.cross([0.0, 0.0, 1.0], tangent)
    across /= np.linalg.norm(across, axis=1, keepdims=True)
    up = np.cross(tangent, across)
    angles = np.linspace(0, 2 * math.pi, sides, endpoint=False)
    cos, sin = np.cos(angles)[:, None], np.sin(angles)[:, None]
    rings = points[:, None] + radius * (cos * across[:, None] + sin * up[:, None])
    i, j = np.meshgrid(np.arange(len(path) - 1), np.arange(sides), indexing="ij")
    a, b = (i * sides + j).ravel(), (i * sides + (j + 1) % sides).ravel()
    triangles = np.concatenate([np.column_stack([a, b + sides, a + sides]), np.column_stack([a, b, b + sides])])
    uv = np.zeros((len(path) * sides, 2))
    return rings.reshape(-1, 3), triangles, uv


def rotation_putting_up(value: int, turn: float) -> np.ndarray:
    """The die rotation that puts the face showing ``value`` up, then turns the die ``turn`` radians about +z."""
    normal = np.array(next(f[0] for f in FACES if f[3] == value), float)
    axis = np.cross(normal, [0.0, 0.0, 1.0])
    if np.linalg.norm(axis) < 1e-9:
        tilt = np.eye(3) if normal[2] > 0 else np.diag([1.0, -1.0, -1.0])
    else:
        k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
        tilt = np.eye(3) + k + k @ k  # Rodrigues for a quarter turn (|axis| = sin = 1, cos = 0)
    c, s = math.cos(turn), math.sin(turn)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]) @ tilt


def face_up(rotation: np.ndarray) -> int:
    """The value of the face whose outward normal points most nearly up (world +z) after ``rotation``."""
    heights = [(rotation @ np.array(normal, float))[2] for normal, _, _, _ in FACES]
    return FACES[int(np.argmax(heights))][3]


# --- textures and materials ---------------------------------------------------------------------


def _smooth_noise(shape: tuple[int, int], cells: int, rng: np.random.Generator) -> np.ndarray:
    """Noise in about -1..1 that varies over ``shape`` / ``cells`` pixels."""
    coarse = rng.normal(0, 1, (max(2, shape[0] // cells), max(2, shape[1] // cells))).astype(np.float32)
    return cv2.resize(coarse, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _marble(shape: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A 0-1 marble pattern: veins bent by turbulence at several scales."""
    ys, xs = np.mgrid[0 : shape[0], 0 : shape[1]].astype(np.float32)
    turbulence = _smooth_noise(shape, 64, rng) + 0.4 * _smooth_noise(shape, 24, rng)
    theta = rng.uniform(0, math.pi)
    phase = (xs * math.cos(theta) + ys * math.sin(theta)) * rng.uniform(0.03, 0.08) + 2.5 * turbulence
    return (0.5 + 0.5 * np.sin(phase)) ** rng.uniform(1.0, 4.0)


def random_look(rng: np.random.Generator) -> DieLook:
    """A die look: a common colour pair or a random colour with contrasting pips, and a material."""
    if rng.random() < 0.5:
        body, pips = DIE_COLOURS[int(rng.integers(len(DIE_COLOURS)))]
    else:
        hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(40, 256)]]])
        body = tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])
        light = float(np.dot(body, (0.3, 0.59, 0.11))) > 140
        pips = (20, 20, 20) if light else (245, 245, 240) if rng.random() < 0.8 else (220, 180, 60)
    material = str(rng.choice(["plastic", "marbled", "translucent"], p=[0.65, 0.2, 0.15]))
    vein = tuple(float(np.clip(c + rng.normal(0, 90), 0, 255)) for c in body)
    white = min(body) > 200
    return DieLook(_linear(body), _linear(vein), _linear(pips), material, bool(rng.random() < 0.6),
                   bool(white and rng.random() < 0.4))


def die_atlas(look: DieLook, pip_radius: float, spread: float, params: RenderParams, rng: np.random.Generator
              ) -> tuple[np.ndarray, np.ndarray]:
    """The 3x2 face atlas in linear RGB (marble or plain body, painted pips) and its 0-1 pip mask."""
    px = params.atlas_face_px
    shape = (2 * px, 3 * px)
    if look.material == "marbled":
        veins = _marble(shape, rng)[..., None]
        atlas = np.array(look.body) * (1 - veins) + np.array(look.vein) * veins
    else:
        atlas = np.broadcast_to(np.array(look.body), (*shape, 3)).copy()
    mask = np.zeros(shape, np.float32)
    for index, (_, _, _, value) in enumerate(FACES):
        for a, b in pip_centres(value, spread):
            u, v = atlas_uv(index, a, b)
            centre = (u * shape[1], v * shape[0])
            scale = 1.6 if value == 1 and look.red_one else 1.0
            cv2.circle(mask, tuple(int(round(c * 16)) for c in centre), int(round(pip_radius * scale * px * 16)),
                       1.0, -1, cv2.LINE_AA, shift=4)
    coloured = np.zeros(shape, bool)
    coloured[:px, :px] = look.red_one  # the 1 is face 0, the atlas's top-left cell
    paint = np.where(coloured[..., None], np.array(_linear((200, 20, 30))), np.array(look.pips))
    atlas = atlas * (1 - mask[..., None]) + paint * mask[..., None]
    return atlas.astype(np.float32), mask


def _bitmap(array: np.ndarray) -> dict:
    """A Mitsuba bitmap texture from a linear float array (h, w) or (h, w, 3)."""
    mi = _mitsuba()
    data = np.ascontiguousarray(array if array.ndim == 3 else array[..., None], dtype=np.float32)
    bitmap = mi.Bitmap(data)
    bitmap.set_srgb_gamma(False)
    return {"type": "bitmap", "bitmap": bitmap, "raw": True, "filter_type": "bilinear"}


def _rgb(colour: Sequence[float]) -> dict:
    return {"type": "rgb", "value": [float(c) for c in colour]}


def die_bsdf(look: DieLook, atlas: np.ndarray, mask: np.ndarray, params: RenderParams,
             rng: np.random.Generator) -> dict:
    """Glossy or satin plastic over the painted atlas, or clear coloured resin with opaque painted pips."""
    if look.material == "translucent":  # clear resin, made a little milky: pure glass is all noise at 16 spp
        resin = {"type": "blendbsdf", "weight": float(rng.uniform(*params.milky)),
                 "bsdf_0": {"type": "roughdielectric", "alpha": float(rng.uniform(0.02, 0.15)), "int_ior": 1.5,
                            "specular_transmittance": _rgb(np.sqrt(look.body))},
                 "bsdf_1": {"type": "roughplastic", "diffuse_reflectance": _rgb(look.body), "alpha": 0.1}}
        paint = {"type": "diffuse", "reflectance": _bitmap(atlas)}
        return {"type": "blendbsdf", "weight": _bitmap(mask), "bsdf_0": resin, "bsdf_1": paint}
    if look.glossy:
        return {"type": "plastic", "diffuse_reflectance": _bitmap(atlas), "int_ior": 1.5}
    return {"type": "roughplastic", "diffuse_reflectance": _bitmap(atlas), "alpha": float(rng.uniform(0.1, 0.35))}


def table_texture(kind: str, rng: np.random.Generator, px: int = 512) -> np.ndarray:
    """A table top in linear RGB: green, blue or red felt, wood grain, paper or dark plastic."""
    shape = (px, px)
    if kind == "felt":
        base = [(40, 95, 45), (35, 60, 110), (120, 30, 35), (50, 50, 55)][int(rng.integers(4))]
        shade = 1 + 0.12 * rng.normal(0, 1, shape) + 0.08 * _smooth_noise(shape, 48, rng)
    elif kind == "wood":
        base = (int(rng.integers(110, 190)), int(rng.integers(70, 120)), int(rng.integers(35, 70)))
        ys = np.mgrid[0:px, 0:px][0].astype(np.float32)
        grain = np.sin(ys * rng.uniform(0.1, 0.3) + 4 * _smooth_noise(shape, 96, rng))
        shade = 1 + 0.15 * grain + 0.05 * rng.normal(0, 1, shape)
    elif kind == "paper":
        base = (int(rng.integers(215, 250)),) * 3
        shade = 1 + 0.015 * rng.normal(0, 1, shape) + 0.02 * _smooth_noise(shape, 128, rng)
    else:
        base = (int(rng.integers(25, 60)),) * 3
        shade = 1 + 0.06 * rng.normal(0, 1, shape)
    return _to_linear(np.clip(np.array(base, np.float32) * shade[..., None], 0, 255))


# --- scene layout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Die:
    """A die on the table: its mesh in world mm, the value on top, its material and size."""

    mesh: Mesh
    value: int
    bsdf: dict
    side: float  # mm
    translucent: bool

    @property
    def vertices(self) -> np.ndarray:
        return self.mesh[0]


def _dice(rng: np.random.Generator, params: RenderParams) -> list[Die]:
    """1-8 dice of one size resting on the table near the origin, some pressed together."""
    count = int(rng.integers(params.dice[0], params.dice[1] + 1))
    side = float(rng.uniform(*params.die_side))
    width = side * (1.5 + math.sqrt(count) * rng.uniform(*params.spread)) / params.place_unit
    height = width * rng.uniform(0.6, 1.0)
    values = [int(v) for v in rng.integers(1, 7, count)]
    touching = bool(rng.random() < params.touching_share)
    while True:
        try:
            placed = place_dice(values, rng, (int(width), int(height)), (side / params.place_unit,) * 2, touching)
            break
        except ValueError:  # no room: a wider tray
            width, height = width * 1.3, height * 1.3
    radius = float(rng.uniform(*params.corner_radius))
    pip_radius = float(rng.uniform(*params.pip_radius))
    spread = min(params.pip_spread, 0.5 - max(radius, 0.1) - pip_radius - 0.02)
    one_set = rng.random() < 0.6  # a set of alike dice, or a mixed handful
    look = random_look(rng)
    dice = []
    for die in placed:
        look = look if one_set else random_look(rng)
        depth = float(rng.uniform(*params.dimple_depth)) if rng.random() < params.dimpled_share else 0.0
        side = die.side * params.place_unit  # place_dice shrinks the dice where they did not fit
        vertices, triangles, uv = rounded_die(radius, pip_radius, spread, depth, params)
        atlas, mask = die_atlas(look, pip_radius, spread, params, rng)
        rotation = rotation_putting_up(die.value, math.radians(die.angle) + rng.uniform(-0.1, 0.1))
        middle = (np.array(die.centre) - (width / 2, height / 2)) * params.place_unit
        world = (vertices * side) @ rotation.T + np.append(middle, side / 2)
        bsdf = die_bsdf(look, atlas, mask, params, rng)
        dice.append(Die((world, triangles, uv), face_up(rotation), bsdf, side, look.material == "translucent"))
    return dice


def _clear_of(point: np.ndarray, reach: float, dice: Sequence[Die]) -> bool:
    return all(np.hypot(*(point - d.vertices[:, :2].mean(axis=0))) > reach + d.side * 0.75 for d in dice)


def _spot(dice: Sequence[Die], reach: float, rng: np.random.Generator) -> np.ndarray | None:
    """A table point at least ``reach`` mm clear of every die, near the dice."""
    centres = np.array([d.vertices[:, :2].mean(axis=0) for d in dice])
    span = np.ptp(centres, axis=0).max() + 4 * dice[0].side
    for _ in range(30):
        point = centres.mean(axis=0) + rng.uniform(-0.6, 0.6, 2) * span
        if _clear_of(point, reach, dice):
            return point
    return None


def _printed(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A card or label's print in linear RGB: pictures, text and barcodes on light paper."""
    canvas = np.full((size[1], size[0], 3), int(rng.integers(200, 250)), np.uint8)
    draw_clutter(canvas, int(rng.integers(1, 5)), min(size) * 0.45, [], rng)
    return _to_linear(canvas[..., ::-1])


def _keycap(rng: np.random.Generator) -> np.ndarray:
    """A keycap's top in linear RGB: one letter, digit or symbol on dark or light plastic."""
    dark = rng.random() < 0.5
    canvas = np.full((64, 64, 3), int(rng.integers(15, 60) if dark else rng.integers(190, 240)), np.uint8)
    glyph = str(rng.choice(list(string.ascii_uppercase + string.digits + "?%*#")))  # no dots: a key with one is a die
    ink = (230,) * 3 if dark else (25,) * 3
    cv2.putText(canvas, glyph, (18, 44), cv2.FONT_HERSHEY_SIMPLEX, 1.2, ink, 3, cv2.LINE_AA)
    return _to_linear(canvas)


def _rounded_rect(width: float, height: float, corner: float) -> np.ndarray:
    """Counter-clockwise outline (n, 2) of a rounded rectangle centred on the origin."""
    corner = min(corner, width / 2 - 1e-3, height / 2 - 1e-3)
    points = []
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        for t in np.linspace(0, math.pi / 2, 5):
            theta = k * math.pi / 2 + t
            points.append((sx * (width / 2 - corner) + corner * math.cos(theta),
                           sy * (height / 2 - corner) + corner * math.sin(theta)))
    return np.array(points)


def _clutter_piece(kind: str, spot: np.ndarray, side: float, rng: np.random.Generator) -> tuple[Mesh, dict]:
    """One thing beside the dice that is no die: a coin, card, label, keycap or cable."""
    angle = float(rng.uniform(0, math.pi))
    if kind == "coin":
        radius = side * rng.uniform(0.5, 0.9)
        turns = np.linspace(0, 2 * math.pi, 40, endpoint=False)
        circle = np.column_stack([np.cos(turns), np.sin(turns)]) * radius
        metal = str(rng.choice(["Cu", "Au", "Al", "Ag"]))
        coin = extruded(circle, rng.uniform(1.2, 2.2), angle, spot)
        return coin, {"type": "roughconductor", "material": metal, "alpha": float(rng.uniform(0.15, 0.4))}
    if kind in ("card", "label"):
        (w_low, w_high), (h_low, h_high) = ((3, 4.5), (4, 6)) if kind == "card" else ((1, 2.5), (0.6, 1.2))
        w, h = side * rng.uniform(w_low, w_high), side * rng.uniform(h_low, h_high)
        texture = _printed((int(w * 6), int(h * 6)), rng)
        paper = extruded(_rounded_rect(w, h, 2.0), 0.3, angle, spot)
        return paper, {"type": "diffuse", "reflectance": _bitmap(texture)}
    if kind == "key":
        w = side * rng.uniform(0.9, 1.2)
        return extruded(_rounded_rect(w, w, 1.5), rng.uniform(4, 8), angle, spot), {
            "type": "roughplastic", "diffuse_reflectance": _bitmap(_keycap(rng)), "alpha": 0.3}
    steps = np.cumsum(rng.normal(0, 0.12, 40))
    heading = angle + steps
    path = spot + np.cumsum(np.column_stack([np.cos(heading), np.sin(heading)]) * side * 0.25, axis=0)
    colour = _linear([int(rng.integers(10, 240))] * 3)
    cable = tube(path, side * rng.uniform(0.1, 0.2))
    return cable, {"type": "roughplastic", "diffuse_reflectance": _rgb(colour), "alpha": 0.25}


def _clutter(dice: Sequence[Die], rng: np.random.Generator, params: RenderParams) -> list[tuple[Mesh, dict]]:
    """Up to 5 things beside the dice, none touching one (a cable is dropped where it would cross a die)."""
    if rng.random() >= params.clutter_share:
        return []
    pieces = []
    side = dice[0].side
    for _ in range(int(rng.integers(params.clutter[0], params.clutter[1] + 1))):
        kind = str(rng.choice(["coin", "card", "label", "key", "cable"]))
        reach = {"coin": 0.9, "card": 3.7, "label": 1.4, "key": 0.9, "cable": 1.0}[kind] * side
        spot = _spot(dice, reach, rng)
        if spot is None:
            continue
        mesh, bsdf = _clutter_piece(kind, spot, side, rng)
        if kind == "cable" and not all(_clear_of(p, side * 0.4, dice) for p in mesh[0][:, :2]):
            continue
        pieces.append((mesh, bsdf))
    return pieces


def _camera(dice: Sequence[Die], rng: np.random.Generator, params: RenderParams) -> Camera:
    """A camera 0-40 degrees from vertical whose distance puts the dice within ``fill`` of the frame."""
    size = params.image_sizes[int(rng.integers(len(params.image_sizes)))]
    points = np.concatenate([d.vertices[:: max(1, len(d.vertices) // 200)] for d in dice])
    centre = points.mean(axis=0)
    tilt, azimuth = math.radians(rng.uniform(*params.tilt)), rng.uniform(0, 2 * math.pi)
    view = np.array([math.sin(tilt) * math.cos(azimuth), math.sin(tilt) * math.sin(azimuth), -math.cos(tilt)])
    roll = azimuth + (rng.normal(0, 0.3) if rng.random() < 0.7 else rng.uniform(0, 2 * math.pi))
    up = (math.cos(roll), math.sin(roll), 0.0)
    target = centre + np.append(rng.normal(0, 0.15, 2) * np.ptp(points[:, :2], axis=0).max(), 0)
    fov, fill = float(rng.uniform(*params.fov)), float(rng.uniform(*params.fill))
    low, high = 1.2 * np.linalg.norm(points - target, axis=1).max(), 1e5  # from low on, every point is in front
    for _ in range(40):  # bisect the distance: nearer makes the dice reach further from the middle
        distance = math.sqrt(low * high)
        camera = Camera(tuple(target - distance * view), tuple(target), up, fov, size)
        reach = np.abs(camera.project(points) / np.array(size) - 0.5).max() * 2
        low, high = (distance, high) if reach > fill else (low, distance)
    return camera


def _light(camera: Camera, rng: np.random.Generator, params: RenderParams) -> tuple[dict, float]:
    """A square lamp above the table aimed at the dice (its size makes the shadows soft or hard), and a dim sky.

    Returns them and the light falling on the dice (irradiance, about 1 from the lamp plus the sky's).
    """
    mi = _mitsuba()
    target = np.array(camera.target)
    height = float(rng.uniform(*params.light_height))
    origin = target + np.append(rng.normal(0, 0.5, 2) * height, height)
    size = float(rng.uniform(*params.light_size))
    distance2 = float(np.sum((origin - target) ** 2))
    tint = np.array([1.0, 1.0, 1.0]) + rng.normal(0, 0.06, 3)
    to_world = mi.ScalarTransform4f().look_at(origin=origin, target=target, up=[0, 1, 0]).scale([size / 2, size / 2, 1])
    radiance = tint * distance2 / size**2
    sky = float(rng.uniform(*params.sky))
    return {
        "lamp": {"type": "rectangle", "to_world": to_world, "emitter": {"type": "area", "radiance": _rgb(radiance)}},
        "sky": {"type": "constant", "radiance": _rgb(tint * sky / math.pi)},
    }, 1 + sky


def _mitsuba_mesh(name: str, mesh: Mesh, bsdf: dict):
    """A Mitsuba triangle mesh with smooth normals computed from its vertices."""
    mi = _mitsuba()
    vertices, triangles, uv = mesh
    props = mi.Properties()
    props["bsdf"] = mi.load_dict(bsdf)
    shape = mi.Mesh(name, len(vertices), len(triangles), props=props,
                    has_vertex_normals=True, has_vertex_texcoords=True)
    values = mi.traverse(shape)
    values["vertex_positions"] = vertices.astype(np.float32).ravel()
    values["faces"] = triangles.astype(np.uint32).ravel()
    values["vertex_texcoords"] = uv.astype(np.float32).ravel()
    values.update()
    return shape


def _table(camera: Camera, rng: np.random.Generator) -> tuple[Mesh, dict]:
    """A textured table top far wider than the camera sees."""
    reach = 4 * np.linalg.norm(np.subtract(camera.origin, camera.target)) + 200
    centre = np.array(camera.target[:2])
    corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * reach + centre
    kind = str(rng.choice(TABLES))
    repeat = reach / float(rng.uniform(80, 200))  # the texture's 512 px span 80-200 mm
    uv = (np.array([[0, 0], [1, 0], [1, 1], [0, 1]]) * repeat)
    texture = _bitmap(table_texture(kind, rng))
    texture["wrap_mode"] = "mirror"
    bsdf = ({"type": "roughplastic", "diffuse_reflectance": texture, "alpha": 0.2} if kind == "plastic"
            else {"type": "diffuse", "reflectance": texture})
    return (np.column_stack([corners, np.zeros(4)]), np.array([[0, 1, 2], [0, 2, 3]]), uv), bsdf


# --- rendering ----------------------------------------------------------------------------------


def _projected_box(camera: Camera, points: np.ndarray) -> tuple[float, float, float]:
    """Centre (x, y) and longer side of the axis-aligned box around world ``points`` projected, px."""
    projected = camera.project(points)
    low, high = projected.min(axis=0), projected.max(axis=0)
    return float((low[0] + high[0]) / 2), float((low[1] + high[1]) / 2), float(max(high - low))


def _pixel_box(camera: Camera, die: Die) -> tuple[float, float, float]:
    """Centre (x, y) and longer side of the axis-aligned box around the die's projected mesh, px."""
    return _projected_box(camera, die.vertices)


def _top_face_centre(camera: Camera, die: Die) -> tuple[float, float]:
    """The middle (x, y) of the box around the die's projected top face (the mesh within 2 % of its
    side of its highest point), px. Every die rests on the table and all are of one size, so no die
    hides another's top face, where a leaning camera's box around a whole die holds its side faces
    and its middle may lie on a neighbour pressed against it."""
    vertices = die.vertices
    x, y, _ = _projected_box(camera, vertices[vertices[:, 2] > vertices[:, 2].max() - 0.02 * die.side])
    return x, y


def _motion_blur(image: np.ndarray, outline: np.ndarray, length: float, rng: np.random.Generator) -> np.ndarray:
    """Smear the die inside ``outline`` (its projected hull) along a random direction, ``length`` px in all.

    Mitsuba 3 has no moving objects, so the die's region is blurred after rendering with a line
    kernel and blended in through the die's equally smeared silhouette: the table it crosses shows through.
    """
    k = int(math.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    theta = rng.uniform(0, math.pi)
    half = (length / 2) * np.array([math.cos(theta), math.sin(theta)])
    middle = np.array([k // 2, k // 2])
    start, end = (tuple(int(round(v)) for v in middle + sign * half) for sign in (-1, 1))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA)
    kernel /= kernel.sum()
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(outline * 16).astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
    weight = np.clip(cv2.filter2D(mask, -1, kernel) * 1.5, 0, 1)[..., None]
    return image * (1 - weight) + cv2.filter2D(image, -1, kernel) * weight


def _despeckle(linear: np.ndarray, params: RenderParams) -> np.ndarray:
    """Replace sampling spikes (fireflies: lone pixels far brighter than their neighbours) by the local median."""
    median = cv2.medianBlur(linear.astype(np.float32), 3)
    spike = (linear.sum(axis=2) > params.firefly * median.sum(axis=2) + 0.05)[..., None]
    return np.where(spike, median, linear)


def _develop(linear: np.ndarray, irradiance: float, rng: np.random.Generator, params: RenderParams) -> np.ndarray:
    """A camera's picture from the rendered light: exposure, clipped glare, focus blur, noise, JPEG."""
    image = _to_srgb(linear * math.pi / irradiance * rng.uniform(*params.exposure))
    sigma = float(rng.uniform(*params.focus_blur))
    if sigma > 0.1:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    image = image + rng.normal(0, rng.uniform(*params.noise), image.shape)
    bgr = np.clip(image[..., ::-1], 0, 255).astype(np.uint8)
    quality = int(rng.integers(params.jpeg_quality[0], params.jpeg_quality[1] + 1))
    return cv2.imdecode(cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], cv2.IMREAD_COLOR)


Labels = tuple[tuple[float, float, float, int], ...]  # per die: centre x, centre y, longer side (px), top value
TopFaces = tuple[tuple[float, float], ...]  # per die: the middle of its top face in the picture (px)


def render_scene(
    rng: np.random.Generator, params: RenderParams = PARAMS
) -> tuple[np.ndarray, Labels, float | None, TopFaces]:
    """One rendered tray: a BGR image, its dice as ``Scene`` labels them, where the camera's far
    side lies in the picture (:meth:`Camera.far_side`), and where each die's top face lies
    (:func:`_top_face_centre`)."""
    mi = _mitsuba()
    dice = _dice(rng, params)
    clutter = _clutter(dice, rng, params)
    camera = _camera(dice, rng, params)
    table_mesh, table_bsdf = _table(camera, rng)
    shapes = {f"die{i}": _mitsuba_mesh(f"die{i}", d.mesh, d.bsdf) for i, d in enumerate(dice)}
    shapes |= {f"clutter{i}": _mitsuba_mesh(f"clutter{i}", mesh, bsdf) for i, (mesh, bsdf) in enumerate(clutter)}
    shapes["table"] = _mitsuba_mesh("table", table_mesh, table_bsdf)
    to_world = mi.ScalarTransform4f().look_at(origin=camera.origin, target=camera.target, up=camera.up)
    lights, irradiance = _light(camera, rng, params)
    scene = mi.load_dict({
        "type": "scene",
        "integrator": {"type": "path", "max_depth": params.max_depth_translucent if any(d.translucent for d in dice)
                       else params.max_depth},
        "sensor": {"type": "perspective", "fov": camera.fov_x, "fov_axis": "x", "to_world": to_world,
                   "near_clip": 1.0, "far_clip": 1e5,
                   "film": {"type": "hdrfilm", "width": camera.size[0], "height": camera.size[1],
                            "rfilter": {"type": "gaussian"}},
                   "sampler": {"type": "independent", "sample_count": params.spp}},
        **shapes,
        **lights,
    })
    linear = _despeckle(np.array(mi.render(scene, seed=int(rng.integers(2**31))), dtype=np.float32)[..., :3], params)
    if rng.random() < params.motion_blur_share:
        die = dice[int(rng.integers(len(dice)))]
        outline = cv2.convexHull(camera.project(die.vertices).astype(np.float32))[:, 0]
        linear = _motion_blur(linear, outline, _pixel_box(camera, die)[2] * rng.uniform(*params.motion_blur), rng)
    labels = tuple((*_pixel_box(camera, d), d.value) for d in dice)
    tops = tuple(_top_face_centre(camera, d) for d in dice)
    return _develop(linear, irradiance, rng, params), labels, camera.far_side(), tops


# --- files --------------------------------------------------------------------------------------


def scene_rng(seed: int, index: int) -> np.random.Generator:
    """Scene ``index``'s own random stream, so any scene renders alike alone or in a run."""
    return np.random.default_rng([seed, index])


def _done(out: Path) -> dict[str, dict]:
    """The scenes already on disk: labels whose image was written (a line cut short by a stop is left out)."""
    labels = out / LABELS
    rows = {}
    for line in labels.read_text().splitlines() if labels.exists() else []:
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        if (out / row["file"]).exists():
            rows[row["file"]] = row
    return rows


def render_folder(out: Path, count: int, seed: int, params: RenderParams = PARAMS) -> int:
    """Render scenes 0..count-1 into ``out`` (PNG images and ``labels.jsonl``), skipping any already there.

    An image is written to a temporary name and renamed, and its labels appended after it, so a
    stop at any moment costs only the scene being rendered. Returns how many were rendered now.
    """
    out.mkdir(parents=True, exist_ok=True)
    done = _done(out)
    rendered = 0
    with (out / LABELS).open("a+") as labels:
        labels.seek(0)
        written = labels.read()
        if written and not written.endswith("\n"):  # a line cut short by a stop: start a new one
            labels.write("\n")
        for index in range(count):
            name = f"render3d-s{seed}-{index:05d}.png"
            if name in done:
                continue
            started = time.monotonic()
            image, dice, up, tops = render_scene(scene_rng(seed, index), params)
            partial = out / f".{name}"
            cv2.imwrite(str(partial), image)
            partial.rename(out / name)
            rounded = [[round(x, 2), round(y, 2), round(side, 2), value] for x, y, side, value in dice]
            tops_rounded = [[round(x, 2), round(y, 2)] for x, y in tops]
            labels.write(json.dumps({"file": name, "dice": rounded, "up": up, "tops": tops_rounded}) + "\n")
            labels.flush()
            rendered += 1
            print(f"{name}: {len(dice)} dice, {time.monotonic() - started:.2f} s", flush=True)
    return rendered


def load_rendered(folder: Path, top_faces: bool = False) -> list[Scene]:
    """The rendered scenes of ``folder`` as training ``Scene``s, in file order, each with where its
    camera's far side lies (None, any way, for a camera straight above and for scenes rendered
    before that was written, whose camera may have been turned any way). With ``top_faces`` each
    die's centre is the middle of its top face (its box's size kept), as a leaning camera's
    detector learns to find it: ValueError naming a scene rendered before top faces were written."""
    scenes = []
    for _, row in sorted(_done(folder).items()):
        dice = [(float(x), float(y), float(side), int(value)) for x, y, side, value in row["dice"]]
        if top_faces:
            dice = [(x, y, side, value) for (x, y), (_, _, side, value) in zip(_top_faces(row, folder), dice)]
        scenes.append(Scene(row["file"], cv2.imread(str(folder / row["file"]), cv2.IMREAD_COLOR), tuple(dice),
                            _far_side(row, folder)))
    return scenes


def _top_faces(row: dict, folder: Path) -> list[tuple[float, float]]:
    """A labels row's ``tops``, each die's (x, y) in px; ValueError naming the scene where there is
    none for each die (rendered before they were written) or one is no pair of numbers."""
    tops = row.get("tops")
    where = f"{folder / LABELS}: {row['file']}"
    if not isinstance(tops, list) or len(tops) != len(row["dice"]):
        raise ValueError(f"{where}: no top face for each die (rendered before they were written): render the "
                         "folder anew (another --out, the same --seed and --count)")
    for top in tops:
        if not (isinstance(top, list) and len(top) == 2 and all(
                isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) for c in top)):
            raise ValueError(f"{where}: a top face must be [x, y] pixels, got {top!r}")
    return [(float(x), float(y)) for x, y in tops]


def _far_side(row: dict, folder: Path) -> float | None:
    """A labels row's ``up`` in degrees (0-360), None where it has none; ValueError naming the scene
    for anything else."""
    up = row.get("up")
    if up is None:
        return None
    if isinstance(up, bool) or not isinstance(up, (int, float)) or not math.isfinite(up):
        raise ValueError(f"{folder / LABELS}: {row['file']}: up must be degrees (a number), got {up!r}")
    return float(up) % 360.0


def write_photo_set(folder: Path) -> int:
    """``folder/manifest.csv`` and ``boxes.csv`` for the scenes rendered into ``folder/images``, so
    ``dice-companion eval-vision folder`` measures the reader on them (each die labelled with the
    face pointing up, its box the square of its projected mesh; each photo with where its camera's
    far side lies, for ``--up photo``). Returns the number of photos."""
    rows = sorted(_done(folder / "images").items())
    with (folder / "manifest.csv").open("w") as manifest, (folder / "boxes.csv").open("w") as boxes:
        manifest.write("file,values,n_dice,source_repo,up\n")
        boxes.write("file,x0,y0,x1,y1,value\n")
        for name, row in rows:
            values = sorted(value for _, _, _, value in row["dice"])
            up = row.get("up")
            manifest.write(f"{name},{' '.join(map(str, values))},{len(values)},render3d,{'' if up is None else up}\n")
            for x, y, side, value in row["dice"]:
                boxes.write(f"{name},{x - side / 2:.2f},{y - side / 2:.2f},{x + side / 2:.2f},{y + side / 2:.2f},{value}\n")
    return len(rows)


def main(argv: Sequence[str] | None = None) -> None:
    """Render ``--count`` scenes with ``--seed`` into ``--out`` (resumable: scenes on disk are kept)."""
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tilt", type=float, nargs=2, metavar=("LOW", "HIGH"), default=PARAMS.tilt,
                        help="the camera's angle from vertical, degrees (default %(default)s)")
    parser.add_argument("--photo-set", action="store_true",
                        help="render into OUT/images and write OUT/manifest.csv and boxes.csv, for eval-vision")
    args = parser.parse_args(argv)
    started = time.monotonic()
    params = replace(PARAMS, tilt=tuple(args.tilt))
    rendered = render_folder(args.out / "images" if args.photo_set else args.out, args.count, args.seed, params)
    if args.photo_set:
        write_photo_set(args.out)
    print(f"rendered {rendered} scenes in {time.monotonic() - started:.0f} s into {args.out}")


if __name__ == "__main__":
    main()
