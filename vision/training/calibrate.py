"""Fit the reader's face temperature on held-out photos, so that its confidence means what it says.

    python -m vision.training.calibrate ../shared/datasets/train-photos --split valid

Every die the reader finds on a photo with boxes is matched to its labelled die by location; the
temperature T that makes the labelled faces likeliest (softmax of logits / T, temperature
scaling) is written into ``ReaderParams.face_temperature`` by hand. Needs no PyTorch. Photos the
nets trained on are left out, as in ``eval-vision``.
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.measure.evaluation import (
    PHOTOS_OWN_UP,
    UNCLEAR,
    DatasetError,
    load_image,
    match_by_location,
    photo_params,
    read_manifest,
    trained_on,
    unseen,
)
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import dice_with_faces, face_confidences

TEMPERATURES = np.exp(np.linspace(np.log(0.25), np.log(4.0), 161))  # the grid searched, evenly on a log scale
BANDS = (0.5, 0.7, 0.9, 0.95, 0.98, 0.99, 1.0)


def labelled_faces(folder: Path, splits: list[str] | None, params: ReaderParams) -> tuple[np.ndarray, np.ndarray]:
    """(raw face probabilities (N, 6), labelled face index (N,)) of every found die matched to a clearly labelled one."""
    photos = unseen(folder, read_manifest(folder, splits), trained_on(params.trained_on))
    if not any(photo.boxes for photo in photos):
        raise DatasetError(f"{folder} has no boxes.csv rows for these photos: calibration matches dice by location")
    faces, labels = [], []
    for photo in photos:
        found = dice_with_faces(load_image(folder / "images" / photo.file), photo_params(photo, PHOTOS_OWN_UP, params))
        for box, index in match_by_location(photo.boxes, tuple(die for die, _ in found)).items():
            if photo.boxes[box][4] != UNCLEAR:
                faces.append(found[index][1])
                labels.append(photo.boxes[box][4] - 1)
    return np.array(faces, np.float64).reshape(-1, 6), np.array(labels, np.int64)


def scaled(faces: np.ndarray, temperature: float) -> np.ndarray:
    return np.array([face_confidences(f, temperature) for f in faces])


def negative_log_likelihood(faces: np.ndarray, labels: np.ndarray, temperature: float) -> float:
    return float(-np.mean(np.log(scaled(faces, temperature)[np.arange(len(labels)), labels] + 1e-12)))


def fit_temperature(faces: np.ndarray, labels: np.ndarray) -> float:
    """The temperature on the grid under which the labelled faces are likeliest."""
    return float(min(TEMPERATURES, key=lambda t: negative_log_likelihood(faces, labels, t)))


def reliability_lines(faces: np.ndarray, labels: np.ndarray, temperature: float) -> list[str]:
    """Per confidence band: dice, mean confidence, share right; then the expected calibration error."""
    probabilities = scaled(faces, temperature)
    confidence, right = probabilities.max(axis=1), probabilities.argmax(axis=1) == labels
    lines, gap = [], 0.0
    for low, high in zip((0.0, *BANDS), BANDS):
        inside = (confidence >= low) & ((confidence < high) | (high == 1.0))
        if inside.any():
            gap += inside.sum() * abs(confidence[inside].mean() - right[inside].mean())
            lines.append(f"  {low:.2f}-{high:.2f}: dice {inside.sum():5d} mean-confidence "
                         f"{100 * confidence[inside].mean():5.1f}% right {100 * right[inside].mean():5.1f}%")
    lines.append(f"  expected calibration error {100 * gap / max(len(labels), 1):.2f} points")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, metavar="DIR", help="a photo folder with manifest.csv, boxes.csv and images/")
    parser.add_argument("--split", metavar="NAMES", help="only rows whose split column is one of these, e.g. valid")
    args = parser.parse_args()
    params = replace(DEFAULT_PARAMS, face_temperature=1.0)
    faces, labels = labelled_faces(args.folder, args.split.split(",") if args.split else None, params)
    best = fit_temperature(faces, labels)
    print(f"{len(labels)} matched dice")
    for temperature in (1.0, best):
        print(f"temperature {temperature:.3f}: negative log-likelihood {negative_log_likelihood(faces, labels, temperature):.4f}")
        print("\n".join(reliability_lines(faces, labels, temperature)))
    print(f"fitted face_temperature = {best:.3f}")


if __name__ == "__main__":
    main()
