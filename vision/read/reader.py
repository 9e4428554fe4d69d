"""Read six-sided pip dice in a top-down photo: ``read_dice(image) -> DiceReading``.

Pipeline (all numbers in :class:`vision.read.params.ReaderParams`):
  1. check and normalise the input (BGR uint8; shrink very large images);
  2. find die candidates with a small detector net, in two passes for small and big dice
     (:mod:`vision.read.detect`);
  3. read each candidate's top face with a small classifier net over a crop around it, which
     also says when a candidate is no die at all (:mod:`vision.read.classify`);
  4. of candidates that overlap (a side face or a pip on a die, two passes finding one die),
     the likeliest die stays; a face the classifier is unsure of is reported unreadable, never
     guessed; the confidence is temperature-scaled to mean how often such a reading is right.
The nets are trained by :mod:`vision.training.train` and run by :mod:`vision.read.network`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np

from vision.read.classify import (
    NOT_A_DIE,
    far_side_direction,
    logits_and_features,
    mirror_images,
    quarter_turns,
    reader_crop,
    softmax,
)
from vision.read.detect import Candidate, Placed, drop_duplicates, find_candidates, same_die
from vision.read.params import DEFAULT_PARAMS, ReaderParams, VisionInputError
from vision.read.reading import DiceReading, Die
from vision.read.table_tuning import TableHead


def as_bgr(image: object) -> np.ndarray:
    """The image as a contiguous BGR uint8 array (never the caller's buffer), or VisionInputError.

    Accepts BGR (H, W, 3), grey (H, W) or (H, W, 1), BGRA (H, W, 4); uint8, or uint16 scaled to 8 bits.
    """
    if not isinstance(image, np.ndarray):
        raise VisionInputError(f"image must be a numpy array of shape (H, W, 3) BGR uint8, got {type(image).__name__}")
    shape_hint = f"image must be a numpy array of shape (H, W, 3) BGR, (H, W) grey or (H, W, 4) BGRA, got shape {image.shape}"
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3, 4)):
        raise VisionInputError(shape_hint)
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise VisionInputError(f"image is empty: shape {image.shape}")
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise VisionInputError(
            f"image must have dtype uint8 (0-255) or uint16, got {image.dtype}; "
            "float images are refused because their value range is ambiguous: convert to uint8 first"
        )
    if image.ndim == 2 or image.shape[2] == 1:
        return cv2.cvtColor(np.ascontiguousarray(image.reshape(image.shape[:2])), cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGRA2BGR)
    return np.array(image, dtype=np.uint8, order="C", copy=True)


def _working_image(bgr: np.ndarray, p: ReaderParams) -> tuple[np.ndarray, float]:
    """The image shrunk so its longest side is at most ``max_working_side_px``, and the scale (input px per working px)."""
    h, w = bgr.shape[:2]
    scale = max(h, w) / p.max_working_side_px
    if scale <= 1:
        return bgr, 1.0
    size = (max(1, round(w / scale)), max(1, round(h / scale)))
    return cv2.resize(bgr, size, interpolation=cv2.INTER_AREA), scale


def face_confidences(faces: np.ndarray, temperature: float) -> np.ndarray:
    """The six face probabilities among themselves, raised to ``1 / temperature`` (softmax of logits / T)."""
    scaled = np.power(np.maximum(faces, 1e-12), 1.0 / temperature)
    return scaled / float(scaled.sum())


def _die(candidate: Candidate, faces: np.ndarray, scale: float, p: ReaderParams) -> Die:
    """A die in input px from a candidate and the classifier's probabilities of the six faces.

    The candidate is already taken to be a die, so the faces are weighed among themselves, after
    temperature scaling.
    """
    faces = face_confidences(faces, p.face_temperature)
    ranked = np.argsort(-faces)
    best, second = int(ranked[0]), int(ranked[1])
    confidence = float(faces[best])
    readable = p.keeps_every_face or confidence >= p.face_threshold
    reason = "" if readable else f"unsure: {best + 1} ({confidence:.0%}) or {second + 1} ({faces[second]:.0%})"
    x, y = candidate.centre[0] * scale, candidate.centre[1] * scale
    half = candidate.size * scale / 2
    return Die(
        value=best + 1 if readable else None,
        centre=(x, y),
        size=candidate.size * scale,
        confidence=confidence,
        outline=((x - half, y - half), (x + half, y - half), (x + half, y + half), (x - half, y + half)),
        reason=reason,
        presence=candidate.score,
    )


def reading_order(dice: list[Die], p: ReaderParams) -> tuple[Die, ...]:
    """Top to bottom, then left to right: dice whose centres are within ``row_tolerance`` sizes in y form a row."""
    rows: list[list[Die]] = []
    for die in sorted(dice, key=lambda d: d.centre[1]):
        if rows and die.centre[1] - rows[-1][0].centre[1] < p.row_tolerance * max(die.size, rows[-1][0].size):
            rows[-1].append(die)
        else:
            rows.append([die])
    return tuple(die for row in rows for die in sorted(row, key=lambda d: d.centre[0]))


def _judged(
    bgr: np.ndarray, candidates: list[Candidate], params: ReaderParams, head: TableHead | None
) -> dict[Candidate, np.ndarray]:
    """The candidates the classifier finds at least ``doubtful_presence`` likely to be dice, each
    scored by that likelihood, with its raw probabilities of the six faces."""
    if not candidates:
        return {}
    read = _probabilities_at(bgr, candidates, params, head)
    faces: dict[Candidate, np.ndarray] = {}
    for candidate, probabilities in zip(candidates, read):
        if 1.0 - probabilities[NOT_A_DIE] >= params.doubtful_presence:
            faces[replace(candidate, score=1.0 - float(probabilities[NOT_A_DIE]))] = probabilities[:NOT_A_DIE]
    return faces


def _probabilities_at(bgr: np.ndarray, candidates: list[Candidate], params: ReaderParams,
                      head: TableHead | None) -> np.ndarray:
    """The probabilities (N, 7) of the reader's crops at ``candidates`` (:func:`face_probabilities`)."""
    crops = np.array([reader_crop(bgr, c.centre, c.size, params) for c in candidates], np.uint8)
    return face_probabilities(crops, params, head)


def face_probabilities(crops: np.ndarray, params: ReaderParams, head: TableHead | None = None,
                       seen: np.ndarray | None = None) -> np.ndarray:
    """The probabilities (N, 7) of the reader's crops as it weighs them: through a table's own last
    layer where it has one and that layer reads this camera's classifier (``reads_with_table_layer``),
    an unsure die's averaged with its other views' (:func:`_with_other_views`). ``seen``: the crops'
    own probabilities where the caller has them already, so they are not read twice."""
    return _with_other_views(crops, _probabilities(crops, params, head) if seen is None else seen, params, head)


def _probabilities(crops: np.ndarray, params: ReaderParams, head: TableHead | None) -> np.ndarray:
    """The classifier's probabilities (N, 7) of ``crops``, through a table's own last layer if it has
    one; that layer was fitted on the straight-down classifier's features, so a leaning camera's own
    classifier (``ReaderParams.reading_classifier``) reads without it."""
    logits, features = logits_and_features(crops, params)
    return head.probabilities(features) if head is not None and params.reads_with_table_layer else softmax(logits)


def _with_other_views(crops: np.ndarray, probabilities: np.ndarray, params: ReaderParams,
                      head: TableHead | None) -> np.ndarray:
    """``probabilities``, those of each crop whose face is unsure (and that may be a die) averaged
    with its other views': for a camera straight down its three quarter turns
    (:func:`vision.read.classify.quarter_turns`, below ``quarter_turns_below``), since it sees a die
    as rightly at any turn; for one that leans its mirror image (:func:`vision.read.classify.mirror_images`,
    below ``mirror_below``), the far side kept at the top. A face the classifier doubts in one view
    it may read in another. Straight down, measured on the held-out photos at the table: right
    68.9 -> 70.9 % (dev), 84.6 -> 85.3 % (train-photos), silent unchanged; averaging the faces
    alone, the crop itself saying whether it is a die, gains the same dev throws and not the
    train-photos one (a die found)."""
    straight_down = params.up is None
    below = params.quarter_turns_below if straight_down else params.mirror_below
    unsure = [i for i, p in enumerate(probabilities) if 1.0 - p[NOT_A_DIE] >= params.doubtful_presence
              and face_confidences(p[:NOT_A_DIE], params.face_temperature).max() < below]
    if not unsure:
        return probabilities
    views = np.concatenate([quarter_turns(crops[i]) for i in unsure]) if straight_down else mirror_images(crops[unsure])
    seen = _probabilities(views, params, head).reshape(len(unsure), len(views) // len(unsure), -1)
    averaged = probabilities.copy()
    averaged[unsure] = (probabilities[unsure] + seen.sum(axis=1)) / (1 + seen.shape[1])
    return averaged


def _at_the_typical_size(candidates: list[Candidate], kept: list[Candidate], params: ReaderParams) -> list[Candidate]:
    """Candidates to look at again at the size of the dice already found: the detector takes a die
    pressed among others for one of its pips (a candidate half its size, which the classifier then
    rejects), and the dice of one throw are of one size. Only candidates far off that size and
    lying on no die already found are looked at again; those near a die found are also looked at
    shifted each of eight ways (:func:`_shifted`), since a pip lies off its die's centre."""
    dice = _sure_dice(kept, params)
    if not dice:
        return []
    typical = _typical_size(dice)
    again = []
    for c in candidates:
        resized = replace(c, size=typical)
        if _of_another_size(c, typical, params) and not _lies_on_one_of(resized, dice, params):
            again.append(resized)
    again = drop_duplicates(again, params.duplicate_distance)
    shifted = [s for c in again if _near_a_die(c, dice, typical, params)
               for s in _shifted(c, params.typical_size_shift * typical)]
    return again + [s for s in shifted if not _lies_on_one_of(s, dice, params)]


def _recentred(bgr: np.ndarray, kept: list[Candidate], faces: dict[Candidate, np.ndarray], params: ReaderParams,
               head: TableHead | None) -> list[Candidate]:
    """``kept``, each doubtful candidate near a die found replaced by the likeliest of its looks
    shifted each of eight ways at the dice's size (:func:`_looks_around`), where the classifier is at
    least ``typical_size_min_presence`` sure that one is a die and it lies on no other candidate
    kept (its probabilities go into ``faces``): proposed off the centre of a die pressed among
    others, a candidate's crop holds half a neighbour and is doubted, where the die itself is read."""
    dice = _sure_dice(kept, params)
    if not dice:
        return kept
    typical = _typical_size(dice)
    doubtful = [c for c in kept if not _is_sure_die(c, params) and _near_a_die(c, dice, typical, params)]
    recentred = list(kept)
    for c, looks in zip(doubtful, _looks_around(bgr, doubtful, typical, params.typical_size_shift, params, head)):
        look, probabilities = max(looks, key=lambda pair: pair[0].score)
        if look.score >= params.typical_size_min_presence and not any(
            k is not c and same_die(look, k, params.duplicate_distance) for k in recentred
        ):
            recentred[recentred.index(c)] = look
            faces[look] = probabilities[:NOT_A_DIE]
    return recentred


def _split_merged(bgr: np.ndarray, kept: list[Candidate], faces: dict[Candidate, np.ndarray], params: ReaderParams,
                  head: TableHead | None) -> list[Candidate]:
    """``kept``, each die bigger than the typical one (``merged_size_ratio``), its face unsure and
    another die near it, replaced by up to two of its looks shifted each of eight ways at the dice's
    size (``merged_shift``, :func:`_looks_around`) where the classifier is sure of a die and of its
    face, the two at least three eighths of a turn apart around it, and lying on no other candidate
    kept (their probabilities go into ``faces``): two dice pressed together, taken for one big
    candidate whose crop holds both faces (a camera that leans sees them so most often; a camera
    straight down is read the same way)."""
    dice = _sure_dice(kept, params)
    if len(dice) < 2:
        return kept
    typical = _typical_size(dice)
    merged = [c for c in dice if c.size > params.merged_size_ratio * typical and not _is_sure_face(faces[c], params)
              and _near_a_die(c, [d for d in dice if d is not c], typical, params)]
    apart = 1.5 * params.merged_shift * typical  # looks a quarter turn apart lie 1.41 shifts apart, three eighths 1.85
    split = list(kept)
    for c, looks in zip(merged, _looks_around(bgr, merged, typical, params.merged_shift, params, head)):
        chosen: list[Candidate] = []
        for look, probabilities in sorted(looks, key=lambda pair: -pair[0].score):
            if (len(chosen) < 2 and look.score >= params.typical_size_min_presence
                    and _is_sure_face(probabilities[:NOT_A_DIE], params)
                    and all(math.dist(look.centre, k.centre) > apart for k in chosen)
                    and not any(k is not c and same_die(look, k, params.duplicate_distance) for k in split)):
                chosen.append(look)
                faces[look] = probabilities[:NOT_A_DIE]
        if chosen:
            at = split.index(c)
            split[at : at + 1] = chosen
    return split


def _looks_around(bgr: np.ndarray, targets: list[Candidate], typical: float, shift: float, params: ReaderParams,
                  head: TableHead | None) -> list[list[tuple[Candidate, np.ndarray]]]:
    """Each target looked at the dice's size (``typical``) moved ``shift`` of it each of eight ways
    (:func:`_shifted`), read in one batch: per target, its eight looks, each scored by how likely the
    classifier finds it a die, with the classifier's probabilities (7) there."""
    if not targets:
        return []
    looks = [_shifted(replace(c, size=typical), shift * typical) for c in targets]
    read = _probabilities_at(bgr, [s for group in looks for s in group], params, head)
    read = read.reshape(len(targets), len(looks[0]), -1)
    return [[(replace(look, score=1.0 - float(p[NOT_A_DIE])), p) for look, p in zip(group, probabilities)]
            for group, probabilities in zip(looks, read)]


def _lone_dice_judged_again(bgr: np.ndarray, kept: list[Candidate], faces: dict[Candidate, np.ndarray],
                            params: ReaderParams) -> list[Candidate]:
    """``kept``, each die found straight down with no other die near it (``typical_size_near`` of
    the bigger one's size) and less than ``lone_die_below`` sure, as likely a die as the lower of
    its score and the lone-die classifier's (``lone_die_classifier_model``); its faces are the
    first classifier's. A noise blob or a printed mark alone in the picture looks like a die to the
    first net now and then; a net fine-tuned on such candidates doubts it, where alone it would read
    real photos worse."""
    if params.up is not None:
        return kept
    dice = _sure_dice(kept, params)
    lone = [c for c in dice if c.score < params.lone_die_below
            and not any(d is not c and same_die(c, d, params.typical_size_near) for d in dice)]
    if not lone:
        return kept
    # read as the first classifier reads (an unsure face with its quarter turns), never with a table's layer
    second = _probabilities_at(bgr, lone, replace(params, classifier_model=params.lone_die_classifier_model), None)
    judged = list(kept)
    for c, probabilities in zip(lone, second):
        doubted = replace(c, score=min(c.score, 1.0 - float(probabilities[NOT_A_DIE])))
        judged[judged.index(c)] = doubted
        faces[doubted] = faces[c]
    return judged


def _small_boxes_read_at_the_dices_size(bgr: np.ndarray, kept: list[Candidate], faces: dict[Candidate, np.ndarray],
                                        params: ReaderParams, head: TableHead | None) -> None:
    """Each die of ``kept`` whose box is under ``small_box_ratio`` of the size of the dice around it
    (:func:`_size_around`), its faces in ``faces`` read again at that size where it lies, where that
    look is still surely a die: a crop cut too tight cuts the die's edges and pips. Its place, size
    and presence stay the first look's.
    Under a leaning camera (``leaning_small_box_ratio``) only a die whose face is unsure is looked at
    again: there the dice's sizes run across the picture, and the die nearest the camera's far side,
    read surely, is smaller than all its neighbours. The caller leaves out the candidates held
    doubtful for another size (:func:`_odd_sized_doubted`): read at the dice's size, a key's corner
    becomes a die."""
    dice = _sure_dice(kept, params)
    sure = [c for c in dice if _is_sure_face(faces[c], params)]
    ratio = params.small_box_ratio if params.up is None else params.leaning_small_box_ratio
    doubted = dice if params.up is None else [c for c in dice if c not in sure]
    looks = [(c, size) for c in doubted if (size := _size_around(c, sure, params)) and c.size < ratio * size]
    if looks:
        read = _probabilities_at(bgr, [replace(c, size=size) for c, size in looks], params, head)
        for (c, size), probabilities in zip(looks, read):
            if _is_sure_die(replace(c, score=1.0 - float(probabilities[NOT_A_DIE])), params):
                faces[c] = probabilities[:NOT_A_DIE]


def _size_around(die: Candidate, sure: list[Candidate], params: ReaderParams) -> float | None:
    """The size ``die`` should have, from the dice read surely (``sure``): seen straight down, the
    dice of one throw are of one size, their median; a leaning camera sees the nearer dice bigger,
    so the median of the ``leaning_size_neighbours`` nearest others, of two at least. None where
    too few dice tell."""
    if params.up is None:
        return _typical_size(sure) if sure else None
    others = sorted((c for c in sure if c is not die), key=lambda c: math.dist(c.centre, die.centre))
    nearest = others[: params.leaning_size_neighbours]
    return _typical_size(nearest) if len(nearest) >= 2 else None


def _odd_sized_doubted(kept: list[Candidate], faces: dict[Candidate, np.ndarray], params: ReaderParams) -> set[Candidate]:
    """The dice found that are rather doubtful candidates: of another size than the throw's dice
    (their median, ``typical_size_ratio`` either way; of three dice found or more, so that the
    median is a die's), their face unsure and less than ``odd_size_min_presence`` likely a die. A
    key or a printed mark beside the dice, taken for a die, is seldom of their size; a real die of
    another size is read sure of its face or of being a die."""
    dice = _sure_dice(kept, params)
    if len(dice) < 3:
        return set()
    typical = _typical_size(dice)
    return {c for c in dice if c.score < params.odd_size_min_presence and not _is_sure_face(faces[c], params)
            and _of_another_size(c, typical, params)}


def _is_sure_face(faces: np.ndarray, params: ReaderParams) -> bool:
    """Whether the six face probabilities name a face surely enough to be read (``face_threshold``)."""
    return bool(face_confidences(faces, params.face_temperature).max() >= params.face_threshold)


def said_face(probabilities: np.ndarray, params: ReaderParams) -> int:
    """The face (1-6) the reader says for one crop's seven probabilities as it weighs them
    (:func:`face_probabilities`), 0 where it finds no die there (``max_not_die_probability``) or
    keeps the face unsure (:func:`_is_sure_face`)."""
    faces = probabilities[:NOT_A_DIE]
    if probabilities[NOT_A_DIE] > params.max_not_die_probability or not _is_sure_face(faces, params):
        return 0
    return int(np.argmax(faces)) + 1


def _sure_dice(kept: list[Candidate], params: ReaderParams) -> list[Candidate]:
    """The candidates kept that are dice, not doubtful ones (:func:`_is_sure_die`)."""
    return [c for c in kept if _is_sure_die(c, params)]


def _of_another_size(candidate: Placed, typical: float, params: ReaderParams) -> bool:
    """Bigger or smaller than the dice's ``typical`` size by more than ``typical_size_ratio``."""
    return not 1 / params.typical_size_ratio <= candidate.size / typical <= params.typical_size_ratio


def _typical_size(dice: list[Candidate]) -> float:
    """The dice of one throw are of one size: the median of those found."""
    return float(statistics.median(c.size for c in dice))


def _near_a_die(candidate: Candidate, dice: list[Candidate], typical: float, params: ReaderParams) -> bool:
    """Within ``typical_size_near`` typical die sizes of a die found: where a die pressed among others lies."""
    return any(math.dist(candidate.centre, d.centre) < params.typical_size_near * typical for d in dice)


def _shifted(candidate: Candidate, by: float) -> list[Candidate]:
    """``candidate`` moved ``by`` px each of eight ways (the four sides and the four corners): on
    crowded synthetic trays the pip candidates of a missed die lay 0.3-0.4 of a die off its centre."""
    x, y = candidate.centre
    return [replace(candidate, centre=(x + by * np.cos(a), y + by * np.sin(a))) for a in np.arange(8) * np.pi / 4]


def _is_sure_die(candidate: Candidate, params: ReaderParams) -> bool:
    """A die, not a doubtful candidate: at most ``max_not_die_probability`` likely to be none."""
    return candidate.score >= 1.0 - params.max_not_die_probability


def _found(
    image: np.ndarray, params: ReaderParams, head: TableHead | None = None
) -> tuple[list[tuple[Die, np.ndarray]], list[Die]]:
    """The dice found, each with the classifier's raw probabilities of the six faces, and the
    doubtful candidates (less likely than not a die, at least ``doubtful_presence``, or of another
    size than the dice and unsure: :func:`_odd_sized_doubted`), likeliest first.
    Of overlapping candidates the likeliest die stays, whichever list it is in. With a table's
    ``head`` its last layer reads the classifier's features instead of the shipped one."""
    bgr, scale = _working_image(as_bgr(image), params)
    candidates = find_candidates(bgr, params)
    faces = _judged(bgr, candidates, params, head)
    kept = drop_duplicates(list(faces), params.duplicate_distance)
    second = _judged(bgr, _at_the_typical_size(candidates, kept, params), params, head)
    for candidate in sorted(second, key=lambda c: -c.score):
        if candidate.score >= params.typical_size_min_presence and not _lies_on_one_of(candidate, kept, params):
            kept.append(candidate)
            faces[candidate] = second[candidate]
    kept = _split_merged(bgr, _recentred(bgr, kept, faces, params, head), faces, params, head)
    kept = _lone_dice_judged_again(bgr, kept, faces, params)
    odd = _odd_sized_doubted(kept, faces, params)
    _small_boxes_read_at_the_dices_size(bgr, [c for c in kept if c not in odd], faces, params, head)
    is_die = [_is_sure_die(c, params) and c not in odd for c in kept]
    return ([(_die(c, faces[c], scale, params), faces[c]) for c, die in zip(kept, is_die) if die],
            [_die(c, faces[c], scale, params) for c, die in zip(kept, is_die) if not die])


def crops_at(
    image: np.ndarray, places: Sequence[tuple[tuple[float, float], float]], params: ReaderParams = DEFAULT_PARAMS
) -> np.ndarray:
    """The classifier's crops (N, crop_px, crop_px, 3) around dice at ``places`` (centre and size in
    input px), cut as the reader cuts a candidate of that place and size."""
    bgr, scale = _working_image(as_bgr(image), params)
    crops = [reader_crop(bgr, (x / scale, y / scale), size / scale, params) for (x, y), size in places]
    return np.array(crops, np.uint8).reshape(-1, params.crop_px, params.crop_px, 3)


def crops_of(image: np.ndarray, dice: Sequence[Die], params: ReaderParams = DEFAULT_PARAMS) -> np.ndarray:
    """The classifier's crops of ``dice`` read from ``image``, cut as the reader cut them: what a
    table's own layer learns from (:mod:`vision.read.table_tuning`)."""
    return crops_at(image, [(d.centre, d.size) for d in dice], params)


def candidates_in(image: np.ndarray, params: ReaderParams = DEFAULT_PARAMS) -> list[tuple[tuple[float, float], float]]:
    """Every place the detector proposed (centre and size in input px), before the classifier judged
    any: where a die the reader missed was never a candidate at all (``eval-vision --why``)."""
    bgr, scale = _working_image(as_bgr(image), params)
    return [((c.centre[0] * scale, c.centre[1] * scale), c.size * scale) for c in find_candidates(bgr, params)]


def dice_with_faces(image: np.ndarray, params: ReaderParams = DEFAULT_PARAMS) -> list[tuple[Die, np.ndarray]]:
    """Every die found, with the classifier's raw probabilities of the six faces (for calibration)."""
    return _found(image, params)[0]


def likeliest(reading: DiceReading, expected: int, params: ReaderParams = DEFAULT_PARAMS) -> DiceReading:
    """Where ``expected`` dice lie (at the table the number is known): the ``expected`` likeliest dice
    of the reading, doubtful ones included, when the last of them is clearly a die
    (``expected_min_presence``) and the next clearly none (``expected_max_extra_presence``).
    Otherwise the dice that are clear (fewer or more than expected), so the count is refused. Where
    the camera leans (``params.up``) and a die more than thrown would refuse it, the candidates on a
    likelier one's near side are left out first (:func:`_side_faces_dropped`), and the throw is taken
    if that leaves as many as thrown."""
    chosen = _likeliest_of(reading, expected, params)
    if len(chosen.dice) > expected and params.up is not None:
        again = _likeliest_of(_side_faces_dropped(reading, params), expected, params)
        if len(again.dice) == expected:
            return again
    return chosen


def _likeliest_of(reading: DiceReading, expected: int, params: ReaderParams) -> DiceReading:
    ranked = sorted(reading.dice + reading.doubtful, key=lambda d: -d.presence)
    if expected > 0 and (len(ranked) < expected or ranked[expected - 1].presence < params.expected_min_presence):
        chosen = [d for d in ranked if d.presence >= params.expected_min_presence]
    elif len(ranked) > expected and ranked[expected].presence >= params.expected_max_extra_presence:
        chosen = [d for d in ranked if d.presence >= params.expected_max_extra_presence]
    else:
        chosen = ranked[:expected]
    return DiceReading(reading_order(chosen, params))


def _side_faces_dropped(reading: DiceReading, params: ReaderParams, smaller_than: float = math.inf,
                        of: tuple[Die, ...] | None = None) -> DiceReading:
    """``reading`` without the candidates that lie on a likelier one's near side: a camera whose far
    side is at ``params.up`` sees each die's side face below its top, towards the camera, and the
    detector now and then takes it for a die of its own (``side_face_near`` of the likelier one's
    size towards the camera, within ``side_face_across`` of it across); with ``smaller_than``, only
    those smaller than that share of the likelier one's size; with ``of``, only side faces of those
    dice (read anywhere, the dice read: a doubtful candidate, a key's corner twice a die's size say,
    would otherwise take a real die beside it for its side face). A die only a closer look found
    (``Die.seen_closer``) is a die of the throw's size there, not a side face: at the table a die
    missed in a pile and found so on a neighbour's near side would otherwise go, and a card read as
    a 1 take its place."""
    far = far_side_direction(params.up)
    towards = (-far[0], -far[1])  # the near side
    likelier = reading.dice + reading.doubtful if of is None else of
    nearest, farthest = params.side_face_near

    def is_side_face(candidate: Die) -> bool:
        if candidate.seen_closer:
            return False
        for die in likelier:
            if die is candidate or die.presence < candidate.presence:
                continue
            dx, dy = candidate.centre[0] - die.centre[0], candidate.centre[1] - die.centre[1]
            along = (dx * towards[0] + dy * towards[1]) / die.size
            across = abs(dx * towards[1] - dy * towards[0]) / die.size
            if (nearest <= along <= farthest and across <= params.side_face_across
                    and candidate.size < smaller_than * die.size):
                return True
        return False

    return DiceReading(tuple(d for d in reading.dice if not is_side_face(d)),
                       tuple(d for d in reading.doubtful if not is_side_face(d)))


def with_dice_a_closer_look_finds(reading: DiceReading, closer: DiceReading, params: ReaderParams) -> DiceReading:
    """``reading`` with the dice that ``closer`` (the same picture at a closer look) reads surely where
    ``reading`` has none: at least ``leaning_closer_look_presence`` likely dice and of the throw's size
    (within ``typical_size_ratio`` of the median of ``reading``'s dice read surely; a smaller one is a
    pip of a die pressed among others, read as a 1). A leaning camera sees the dice of a pile overlap,
    and the usual passes miss one now and then that the closer one finds; a doubtful candidate where
    it lies goes. Without a die read surely, ``reading`` has no size to hold them to, and stays. Each
    die added is ``seen_closer``: found at the throw's size, it is no neighbour's side face
    (:func:`_side_faces_dropped`), though it lies where one would."""
    sizes = [d.size for d in reading.dice if d.is_readable]
    if not sizes:
        return reading
    typical = float(statistics.median(sizes))
    found = [replace(d, seen_closer=True) for d in closer.dice
             if d.is_readable and d.presence >= params.leaning_closer_look_presence
             and not _of_another_size(d, typical, params) and not _lies_on_one_of(d, reading.dice, params)]
    if not found:
        return reading
    return DiceReading(reading_order([*reading.dice, *found], params),
                       tuple(d for d in reading.doubtful if not _lies_on_one_of(d, found, params)))


def _lies_on_one_of(place: Placed, places: Sequence[Placed], params: ReaderParams) -> bool:
    """Whether a candidate or die lies where one of ``places`` does: the same die
    (:func:`vision.read.detect.same_die` at ``duplicate_distance``)."""
    return any(same_die(place, other, params.duplicate_distance) for other in places)


def closer_look(params: ReaderParams, look: int) -> ReaderParams:
    """``params`` for the ``look``-th closer look (1, 2, ...) at a throw read short at the table: the
    detector passes less shrunk (``closer_looks``), so that big dice close to the camera, which the
    usual coarse pass shows only as their pips, and small dice pressed together are found. A closer
    look adds no dice of another look (``leaning_closer_look_presence`` off): whoever reads it, the
    companion or ``eval-vision`` with these params, reads it as it is."""
    if not 1 <= look <= len(params.closer_looks):
        raise ValueError(f"closer look {look} asked for: the reader has looks 1 to {len(params.closer_looks)}")
    coarse, fine = params.closer_looks[look - 1]
    return replace(params, coarse_shrink=coarse, fine_shrink=fine, leaning_closer_look_presence=0.0)


def taken(reading: DiceReading, expected: int, closer: Callable[[int], DiceReading],
          params: ReaderParams = DEFAULT_PARAMS) -> DiceReading:
    """What the companion takes of a throw of ``expected`` dice: the likeliest that many of
    ``reading`` (:func:`likeliest`). Where that is fewer dice than thrown, though ``reading`` holds
    something (an empty tray is the dice in a hand, not a throw to look at again), ``closer(look)``,
    the same throw read with :func:`closer_look`'s params and cut to the tray as ``reading`` was, is
    asked for each closer look in turn, and the first that holds as many dice as thrown (read or
    unsure) is taken; else the first refusal stands, and the player hears what the usual look saw."""
    chosen = likeliest(reading, expected, params)
    if len(chosen.dice) >= expected or not (reading.dice or reading.doubtful):
        return chosen
    for look in range(1, len(params.closer_looks) + 1):
        again = likeliest(closer(look), expected, params)
        if len(again.dice) == expected:
            return again
    return chosen


def read_dice(
    image: np.ndarray, params: ReaderParams = DEFAULT_PARAMS, expected: int | None = None, head: TableHead | None = None,
    *, up: float | None = None, closer: int = 0,
) -> DiceReading:
    """Every die in ``image`` (BGR uint8; grey and BGRA accepted) with its top-face value or None;
    with ``expected``, the dice where that many lie, or a refusal (:func:`taken`); with a table's
    ``head`` (:mod:`vision.read.table_tuning`), read with that table's own last layer; with ``up``,
    the camera's far side lies there (``ReaderParams.up``, as the tray's outline shows it), and a
    candidate on a likelier die's near side and under ``side_face_size_ratio`` of its size is that
    die's side face, left out, and the dice the first closer look alone finds are added
    (:func:`with_dice_a_closer_look_finds`); with ``closer`` a look's number (1, 2, ...), read as a
    throw read short is read again (:func:`closer_look`).

    Raises VisionInputError for inputs that are not images, VisionModelError if a model file is
    missing. The input is never modified.
    """
    if up is not None:
        params = replace(params, up=up)
    if closer:
        params = closer_look(params, closer)
    found, doubtful = _found(image, params, head)
    reading = DiceReading(reading_order([die for die, _ in found], params), tuple(doubtful))
    looks: dict[int, DiceReading] = {}

    def looked_closer(look: int) -> DiceReading:  # each closer look read once in this call, when asked for
        if look not in looks:
            looks[look] = read_dice(image, params, head=head, closer=look)
        return looks[look]

    if params.up is not None:  # a side face much smaller than its die is no die, count known or not
        reading = _side_faces_dropped(reading, params, params.side_face_size_ratio, of=reading.dice)
        if params.leaning_closer_look_presence > 0:  # not in a closer look (:func:`closer_look`)
            reading = with_dice_a_closer_look_finds(reading, looked_closer(1), params)
    if expected is None:
        return reading
    if closer:  # this is a closer look already: no other to take
        return likeliest(reading, expected, params)
    return taken(reading, expected, looked_closer, params)
