"""The reader on the shared real photos it never trained on (skipped where ../shared is absent, as in a user's clone).

These guard against regressions; the accuracy targets themselves are measured by
``dice-companion eval-vision`` and reported in the README.
"""

from pathlib import Path

import pytest

from golden import assert_matches_golden_text
from vision.evaluation import evaluate, figures, read_manifest, trained_on, unseen
from vision.params import DEFAULT_PARAMS
from vision.reader import read_dice

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "dice-photos"

pytestmark = pytest.mark.skipif(
    not (PHOTOS / "manifest.csv").is_file(),
    reason=f"the shared photo set is not at {PHOTOS} (it is not part of the repository)",
)

# Measured on the held-out photos (see README), less a small margin: the set must not get worse.
PER_DIE_FLOOR = 94.0
PER_PHOTO_FLOOR = 72.0


@pytest.fixture(scope="module")
def held_out():
    photos = read_manifest(PHOTOS)
    return unseen(PHOTOS, photos, trained_on(DEFAULT_PARAMS.trained_on))


@pytest.fixture(scope="module")
def results(held_out):
    return list(evaluate(PHOTOS, read_dice, held_out))


def test_about_half_the_photos_are_held_out_from_training(held_out):
    total = len(read_manifest(PHOTOS))
    assert 0.4 * total <= len(held_out) <= 0.6 * total
    assert {photo.group for photo in held_out} == {"nell", "epanemu"}


def test_held_out_photos_do_not_regress(results):
    overall = figures("overall", results)
    assert overall.per_die >= PER_DIE_FLOOR
    assert overall.per_photo >= PER_PHOTO_FLOOR


def test_dice_are_rarely_invented(results):
    """Found dice beyond a photo's label, summed: measured about 1.5 %, mostly number tokens on a Catan board."""
    invented = sum(max(0, len(r.reading.dice) - len(r.photo.values)) for r in results)
    labelled = sum(len(r.photo.values) for r in results)
    assert invented <= 0.02 * labelled


def reading_lines(photo, reading) -> str:
    """One line per die: value (or ?) and centre rounded to 10 px, so only real changes show."""
    dice = [f"  {d.value or '?'} at ({round(d.centre[0], -1):.0f}, {round(d.centre[1], -1):.0f})" for d in reading.dice]
    return "\n".join([f"{photo.file}: label {' '.join(map(str, photo.values))}", *dice])


def test_a_handful_of_held_out_photos_read_as_recorded(held_out, update_golden):
    """The first three held-out photos of each source, by name: what the reader saw, die by die."""
    by_name = sorted(held_out, key=lambda photo: photo.file)
    chosen = [photo for group in ("epanemu", "nell") for photo in [p for p in by_name if p.group == group][:3]]
    text = "\n".join(reading_lines(r.photo, r.reading) for r in evaluate(PHOTOS, read_dice, chosen)) + "\n"
    assert_matches_golden_text(text, "held-out-photo-readings.txt", update_golden)
