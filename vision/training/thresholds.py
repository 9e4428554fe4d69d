"""What the reader's two table thresholds trade, right against silent, on the photos held out for choosing.

    python -m vision.training.thresholds --photos ../shared/datasets/dice-photos \
        --train-photos ../shared/datasets/train-photos [--models DIR]

At a table a throw is refused when a die's face is less sure than ``min_value_probability`` (kept
unsure) or when a die beyond the thrown number is at least ``expected_max_extra_presence`` likely
(an extra die in the tray). Each photo is read once reporting every face (``keeping_every_face``;
a photo read short again: the closer looks, :func:`vision.read.reader.taken`), as the companion
reads at a table (the labelled dice's spread grown by 1.5 die sizes, the count known), and every
pair of thresholds is applied to that reading. The pair is chosen on the training photos held out
for choosing (``crop_bank.is_choosing_scene``; never trained on by a fine-tuned net, never a measured
half): the most throws right with no more silently wrong than the thresholds in use. The measured
sets (dev held-out, train-photos valid+test) are printed beside it to say what the choice trades
there, never to choose.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

from vision.measure.at_the_table import TRAY_MARGIN, at_the_table
from vision.measure.evaluation import (
    LabelledPhoto,
    PhotoResult,
    TableFigures,
    at_threshold,
    evaluate,
    read_manifest,
    trained_on,
    unseen,
)
from vision.read.params import DEFAULT_PARAMS, MODELS, ReaderParams, nets_in
from vision.read.reader import read_dice
from vision.training.crop_bank import is_choosing_scene
from vision.training.photos import is_training_photo, labels_only_one_face

VALUE_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
EXTRA_THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)


@dataclass(frozen=True)
class Thresholds:
    value: float  # min_value_probability
    extra: float  # expected_max_extra_presence

    def applied(self, params: ReaderParams) -> ReaderParams:
        return replace(params, min_value_probability=self.value, expected_max_extra_presence=self.extra)


def choosing_photos(dev: Path, train_photos: Path) -> list[tuple[Path, LabelledPhoto]]:
    """The training photos held out for choosing: of the dev photos' training half and of train-photos' train split."""
    kept = [(dev, p) for p in read_manifest(dev) if is_training_photo(p.file) and is_choosing_scene(p.file)]
    return kept + [(train_photos, p) for p in read_manifest(train_photos, ("train",))
                   if not labels_only_one_face(p.file) and is_choosing_scene(p.file)]


def read_all(photos: list[tuple[Path, LabelledPhoto]], params: ReaderParams) -> list[PhotoResult]:
    """Every photo with boxes read once reporting every face (each threshold is applied afterwards)."""
    open_params = params.keeping_every_face()
    return [result for folder, photo in photos if photo.boxes
            for result in evaluate(folder, read_dice, [photo], params=open_params)]


def at_the_table_with(results: list[PhotoResult], thresholds: Thresholds, params: ReaderParams) -> TableFigures:
    """The throws as a companion with ``thresholds`` takes them."""
    told = thresholds.applied(params)
    return TableFigures.of(at_threshold(at_the_table(r, TRAY_MARGIN, True, told), thresholds.value).table_outcome
                           for r in results)


def choose(results: list[PhotoResult], params: ReaderParams) -> Thresholds:
    """The thresholds with the most throws right and no more silently wrong than those of ``params``."""
    now = Thresholds(params.min_value_probability, params.expected_max_extra_presence)
    allowed = at_the_table_with(results, now, params).outcomes["silent"]
    pairs = [Thresholds(v, e) for v in VALUE_THRESHOLDS for e in EXTRA_THRESHOLDS]
    fair = [t for t in pairs if at_the_table_with(results, t, params).outcomes["silent"] <= allowed] or [now]
    return max(fair, key=lambda t: (at_the_table_with(results, t, params).outcomes["right"], t == now, t.value))


def main() -> None:
    parser = argparse.ArgumentParser(allow_abbrev=False, description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=Path, required=True, metavar="DIR", help="the dev photos")
    parser.add_argument("--train-photos", type=Path, required=True, metavar="DIR", help="the training photos")
    parser.add_argument("--models", type=Path, default=MODELS, metavar="DIR",
                        help="the nets (default vision/models; a candidate's folder, its missing net the shipped one)")
    args = parser.parse_args()
    params = replace(DEFAULT_PARAMS, **nets_in(args.models))
    seen = trained_on(DEFAULT_PARAMS.trained_on)
    sets = {
        "choosing": read_all(choosing_photos(args.photos, args.train_photos), params),
        "dev held-out": read_all([(args.photos, p) for p in unseen(args.photos, read_manifest(args.photos), seen)],
                                 params),
        "train-photos valid+test": read_all([(args.train_photos, p) for p in read_manifest(args.train_photos,
                                                                                          ("valid", "test"))], params),
    }
    for value in VALUE_THRESHOLDS:
        for extra in EXTRA_THRESHOLDS:
            t = Thresholds(value, extra)
            cells = "; ".join(at_the_table_with(results, t, params).line(name, "photos")
                              for name, results in sets.items())
            print(f"face {value:.1f} extra {extra:.1f}: {cells}")
    chosen = choose(sets["choosing"], params)
    print(f"chosen on the choosing photos: min_value_probability {chosen.value} "
          f"expected_max_extra_presence {chosen.extra}")


if __name__ == "__main__":
    main()
