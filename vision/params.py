"""Every tuned number of the dice reader, in one frozen dataclass, and the reader's input error.

Units used below:
  px      pixels of the *working* image (the input, shrunk so its longest side is at most
          ``max_working_side_px``; for inputs up to that size these are input pixels)
  patch   fraction of the side of the canonical die patch (each candidate die is warped to a
          ``patch_px`` x ``patch_px`` square, the die's longest side filling it)
  Lab     8-bit OpenCV Lab units (L, a, b each 0..255)
  deg     degrees
  -       plain ratio or count
"""

from __future__ import annotations

from dataclasses import dataclass


class VisionInputError(ValueError):
    """The image handed to the reader is not something it can read (wrong type, dtype or shape)."""


@dataclass(frozen=True)
class ReaderParams:
    """Thresholds and sizes of the dice reader; see the module docstring for the units."""

    # --- input ---
    max_working_side_px: int = 1280  # px of the input: bigger images are shrunk to this longest side first

    # --- background model and foreground mask (finding dice) ---
    segment_scale: int = 1  # -: segmentation runs at 1/segment_scale of the working resolution
    background_scale: int = 4  # -: the background model is a further 1/background_scale smaller
    background_window_px: int = 120  # px: side of the median window that estimates the background colour
    fg_chroma: float = 14.0  # Lab: a/b distance from the local background that marks foreground
    fg_darker: float = 45.0  # Lab: L drop below the local background that marks foreground
    fg_brighter: float = 18.0  # Lab: L rise above the local background that marks foreground
    fg_weak: float = 1.0  # -: foreground score (1 = the thresholds above) of weak foreground that joins strong
    fg_close_px: int = 3  # px: closing kernel that joins a die's body across its pips
    fg_open_px: int = 3  # px: opening kernel that drops specks
    max_hole_fill_fraction: float = 0.5  # -: holes smaller than this x max_die_side_px^2 are filled (tray interiors are not)

    # --- die candidates ---
    min_die_side_px: float = 16.0  # px: smallest die side accepted
    max_die_side_px: float = 320.0  # px: largest die side accepted
    min_die_fill: float = 0.55  # -: contour area / min-area-rectangle area
    max_die_aspect: float = 2.2  # -: long / short side of the min-area rectangle
    min_inradius_frac: float = 0.3  # -: a component's inradius must reach this x min_die_side_px to hold a die
    split_peak_frac: float = 0.55  # -: distance-transform peaks below this x the component's highest are ignored
    split_merge: float = 1.2  # -: peaks closer than this x their inradius belong to one die
    split_seed_frac: float = 0.5  # -: watershed seed radius, x the peak's inradius
    lone_die_max_aspect: float = 1.3  # -: a component this square (long / short side of its hull's rectangle) ...
    lone_die_min_fill: float = 0.85  # -: ... and this solid (area / rectangle area; a disc is 0.79) is one lone die
    split_area_ratio: float = 1.5  # -: components bigger than this x the typical die area are clusters of dice
    kmeans_iterations: int = 10  # -: k-means iterations when cutting a cluster into dice
    kmeans_attempts: int = 2  # -: k-means restarts when cutting a cluster into dice
    shave_frac: float = 0.6  # -: opening radius after splitting, x the part's inradius (shaves walls, slivers)
    gradient_gain: float = 0.25  # -: Sobel magnitude scale to 8 bits for the watershed

    # --- pip blobs (in the canonical patch) ---
    patch_px: int = 64  # px of the patch: side of the canonical die patch
    inner_margin: float = 0.08  # patch: margin eroded from the die mask before searching for pips
    chroma_weight: float = 1.22  # -: weight of a/b against L in the colour difference of gaussians
    dog_sigma_inner: float = 0.035  # patch: inner sigma of the colour difference of gaussians
    dog_sigma_outer: float = 0.10  # patch: outer sigma of the colour difference of gaussians
    pip_min_contrast: float = 12.0  # Lab: weakest difference-of-gaussians peak that can be a pip
    peak_window: float = 0.12  # patch: non-maximum suppression window for pip peaks
    peak_relative: float = 0.35  # -: peaks weaker than this x the strongest peak are dropped
    max_blobs: int = 12  # -: strongest peaks measured per die
    pip_window: float = 0.18  # patch: half window in which a pip's extent is measured
    pip_extent_level: float = 0.5  # -: a pip extends where the response is above this x its peak
    pip_min_area: float = 0.004  # -: pip area / patch area, lowest
    pip_max_area: float = 0.12  # -: pip area / patch area, highest
    pip_max_elongation: float = 2.5  # -: major / minor axis of a pip blob

    # --- faces: centrally symmetric pip layouts ---
    pip_size_ratio: float = 3.5  # -: biggest / smallest pip area within one face
    symmetry_tolerance: float = 0.6  # -: distance to the mirrored pip, x median pip diameter
    face_centre_tolerance: float = 0.3  # patch: face centre offset from the die centre
    grid_tolerance: float = 0.35  # -: relative difference allowed between pip-pair lengths
    grid_angle_tolerance: float = 25.0  # deg: diagonals may be this far from perpendicular
    six_middle_tolerance: float = 1.5  # -: a six's middle pair may be off by this x grid_tolerance
    grid_min_pips: float = 0.75  # -: grid step / pip diameter, lowest
    grid_max_pips: float = 4.0  # -: grid step / pip diameter, highest
    one_min_diameter: float = 0.08  # patch: diameter of a lone pip, lowest
    one_max_diameter: float = 0.45  # patch: diameter of a lone pip, highest
    one_centre_tolerance: float = 0.15  # patch: a lone pip's offset from the die centre
    unexplained_contrast: float = 0.7  # -: a blob not in the face this strong (x the face's mean contrast) ...
    unexplained_reach: float = 1.3  # -: ... within this x the face's corner radius of its centre ...
    unexplained_elongation: float = 1.6  # -: ... and about as round as the face's pips -> face unreadable
    front_area_fraction: float = 0.7  # -: faces whose pips are smaller than this x the biggest are side faces

    # --- confidence reported per die ---
    confidence_read: float = 0.8  # 0..1: a face read with a clean layout
    confidence_unexplained: float = 0.3  # 0..1: a face layout found but contradicted by other pips
    confidence_no_layout: float = 0.2  # 0..1: pip blobs found but no layout

    # --- output ---
    row_tolerance: float = 0.5  # -: dice whose centres differ by less than this x die size in y share a row


DEFAULT_PARAMS = ReaderParams()
