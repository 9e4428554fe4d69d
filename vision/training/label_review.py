"""Find the labels of a photo set that are likely wrong, for a person to look at (confident learning).

    pip install '.[train]'
    python -m vision.training.label_review ../shared/datasets/dice-photos --sheet /tmp/dev-flagged.png
    python -m vision.training.label_review ../shared/datasets/dice-photos ../shared/datasets/train-photos \
        --corrections --sheet vision/measure/label_corrections.png

The classifier reads a crop of every clearly labelled box, as cut (the far side up) and mirrored;
cleanlab's ``find_label_issues`` (confident learning: per-class thresholds from the predicted
probabilities, Northcutt et al. 2021) flags the boxes whose label disagrees with what is seen more
than the class's own noise explains. On photos the nets never saw (the held-out halves) these are
out-of-sample probabilities, as the method asks; on photos the nets trained on they are not, so
there a wrong label is flagged only where the net did not learn it (fewer are found). Nothing is
corrected here: every flagged die is drawn on a contact sheet, and a person who has looked at the
pips writes the correction into ``vision/measure/label_corrections.csv`` (never to agree with the reader).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision.read.classify import NOT_A_DIE, classify
from vision.measure.evaluation import PHOTOS_OWN_UP, UNCLEAR, box_place, load_image, photo_params, read_manifest
from vision.measure.label_corrections import corrections
from vision.read.params import DEFAULT_PARAMS, ReaderParams
from vision.read.reader import crops_at
from vision.read.table_tuning import upright_views

TILE = 160  # px of a die on the contact sheet
COLUMNS = 8


def face_probabilities(image: np.ndarray, boxes: list[tuple], params: ReaderParams = DEFAULT_PARAMS) -> np.ndarray:
    """(N, 6) probabilities of the faces on each box, averaged over the crop's upright views."""
    views = upright_views(crops_at(image, [box_place(b) for b in boxes], params))
    views = classify(views, params)[:, :NOT_A_DIE].reshape(-1, len(boxes), NOT_A_DIE)
    faces = views / views.sum(axis=2, keepdims=True)
    return faces.mean(axis=0)


def tile(image: np.ndarray, box: tuple, caption: str) -> np.ndarray:
    """The die of ``box`` with some of what lies round it, TILE px square, captioned below."""
    (x, y), size = box_place(box)
    region = cv2.getRectSubPix(image, (round(size * 1.8), round(size * 1.8)), (x, y))
    picture = cv2.resize(region, (TILE, TILE), interpolation=cv2.INTER_AREA)
    canvas = np.full((TILE + 34, TILE, 3), 255, np.uint8)
    canvas[:TILE] = picture
    for row, text in enumerate(caption.split("\n")):
        cv2.putText(canvas, text, (3, TILE + 13 + 15 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.38, (0, 0, 0), 1, cv2.LINE_AA)
    return canvas


def sheet(tiles: list[np.ndarray]) -> np.ndarray:
    """The tiles in rows of COLUMNS."""
    blank = np.full_like(tiles[0], 255)
    rows = [tiles[i : i + COLUMNS] + [blank] * (COLUMNS - len(tiles[i : i + COLUMNS])) for i in range(0, len(tiles), COLUMNS)]
    return np.vstack([np.hstack(row) for row in rows])


def draw_corrections(folders: list[Path], path: Path) -> None:
    """One contact sheet of every reviewed correction of the photos in ``folders``: the die, its label and the correction."""
    tiles = []
    for file, rows in sorted(corrections().items()):
        folder = next((f for f in folders if (f / "images" / file).is_file()), None)
        if folder is not None:
            image = load_image(folder / "images" / file)
            for c in rows:
                was = "no label" if c.adds_a_die else f"label {c.old}"
                tiles.append(tile(image, (*c.box, c.old), f"{file[:24]}\n{was} -> {c.new or 'unclear'}"))
    if not tiles:
        print(f"no corrected die is in {', '.join(map(str, folders))}: no sheet written")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), sheet(tiles))
    print(f"{len(tiles)} corrected dice: {path}")


def main() -> None:
    from cleanlab.filter import find_label_issues  # train extra only

    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+", metavar="DIR",
                        help="a photo folder with manifest.csv, boxes.csv and images/ (several with --corrections)")
    parser.add_argument("--sheet", type=Path, required=True, help="the contact sheet of the flagged dice (PNG)")
    parser.add_argument("--raw-labels", action="store_true", help="the set's own labels, without the reviewed corrections")
    parser.add_argument("--corrections", action="store_true",
                        help="draw every reviewed correction of this folder instead (label before and after)")
    args = parser.parse_args()
    if args.corrections:
        draw_corrections(args.folders, args.sheet)
        return
    if len(args.folders) > 1:
        parser.error("flag the labels of one folder at a time")
    folder = args.folders[0]
    found = []  # (file, box, probabilities)
    for photo in read_manifest(folder, corrected=not args.raw_labels):
        clear = [b for b in photo.boxes if b[4] != UNCLEAR]
        if clear:
            image = load_image(folder / "images" / photo.file)
            faces = face_probabilities(image, clear, photo_params(photo, PHOTOS_OWN_UP))
            found += [(photo.file, b, p) for b, p in zip(clear, faces)]
    labels = np.array([b[4] - 1 for _, b, _ in found])
    probabilities = np.array([p for _, _, p in found])
    flagged = find_label_issues(labels, probabilities, return_indices_ranked_by="self_confidence")
    print(f"{len(flagged)} of {len(found)} labelled dice flagged")
    tiles = []
    for index in flagged:
        file, box, p = found[index]
        seen = int(np.argmax(p)) + 1
        print(f"{file},{box[0]},{box[1]},{box[2]},{box[3]},{box[4]},net {seen} ({p[seen - 1]:.2f})")
        tiles.append(tile(load_image(folder / "images" / file), box,
                          f"{len(tiles) + 1}. {file[:22]}\nlabel {box[4]}  net {seen}"))
    if tiles:
        args.sheet.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.sheet), sheet(tiles))
        print(f"contact sheet: {args.sheet}")


if __name__ == "__main__":
    main()
