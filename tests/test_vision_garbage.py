"""Garbage in gives no dice or a clear error: never a crash, never invented dice."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from vision.read.params import DEFAULT_PARAMS, VisionInputError
from vision.read.reader import read_dice
from vision.scenes.synthetic import BACKGROUNDS, render_garbage, render_tray


def blank(colour, shape=(480, 640, 3)):
    image = np.empty(shape, np.uint8)
    image[:] = colour
    return image


@pytest.mark.parametrize(
    "image",
    [
        blank(0),
        blank(255),
        blank(128),
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((5, 5, 3), np.uint8),
        np.full((3, 2000, 3), 200, np.uint8),
        np.zeros((480, 640), np.uint8),
        np.zeros((480, 640, 4), np.uint8),
    ],
    ids=["black", "white", "grey", "1x1", "5x5", "sliver", "grayscale-black", "bgra-black"],
)
def test_blank_frames_have_no_dice(image):
    assert read_dice(image).dice == ()


@pytest.mark.parametrize("colour", BACKGROUNDS)
def test_empty_trays_have_no_dice(colour):
    rng = np.random.default_rng(0)
    image = np.clip(blank(colour).astype(np.float32) + rng.normal(0, 5, (480, 640, 3)), 0, 255)
    assert read_dice(image.astype(np.uint8)).dice == ()


@pytest.mark.parametrize("seed", range(3))
def test_uniform_noise_has_no_dice(seed):
    noise = np.random.default_rng(seed).integers(0, 256, (480, 640, 3), dtype=np.uint8)
    assert read_dice(noise).dice == ()


def test_a_huge_blank_image_has_no_dice():
    image = blank(BACKGROUNDS[0], (3000, 4000, 3))
    assert read_dice(image).dice == ()


@pytest.mark.parametrize(
    ("image", "message"),
    [
        ("not an image", "numpy array"),
        (np.zeros((4, 4, 3, 2), np.uint8), "shape"),
        (np.zeros((4, 4, 2), np.uint8), "shape"),
        (np.zeros((4, 4, 3), np.float32), "uint8"),
        (np.zeros((0, 4, 3), np.uint8), "empty"),
    ],
)
def test_what_is_not_an_image_is_refused_clearly(image, message):
    with pytest.raises(VisionInputError, match=message):
        read_dice(image)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    hnp.arrays(
        np.uint8,
        st.one_of(
            hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=300),
            st.tuples(st.integers(1, 300), st.integers(1, 300), st.sampled_from([1, 3, 4])),
        ),
    )
)
def test_fuzzed_arrays_never_crash(image):
    try:
        reading = read_dice(image)
    except VisionInputError:
        return
    for die in reading.dice:
        assert die.value in (None, 1, 2, 3, 4, 5, 6)
        assert 0 <= die.confidence <= 1


@pytest.mark.parametrize("seed", [314, 375])
def test_a_noise_blob_alone_taken_for_a_die_is_doubted_by_the_lone_die_classifier(seed):
    """The first classifier takes a blob of noise, alone in the picture, for a die (84-87 % sure);
    the second judge of lone dice (``lone_die_classifier_model``) doubts it, so no die is read.
    Without that judge (``lone_die_below`` 0) the die is invented. (The blobs of seeds 29 and 53,
    chosen so for the classifier before, the one fine-tuned with its colours kept doubts alone.)"""
    image = render_garbage(np.random.default_rng(seed), (640, 480))
    assert len(read_dice(image, replace(DEFAULT_PARAMS, lone_die_below=0.0)).dice) == 1
    assert read_dice(image).dice == ()


def test_a_die_alone_in_the_tray_is_still_read_with_the_lone_die_classifier_judging_it():
    """A die thrown alone is a lone die: on 60 one-die trays the second judge costs none of them."""
    unjudged = replace(DEFAULT_PARAMS, lone_die_below=0.0)
    judged = 0
    for seed in range(60):
        rng = np.random.default_rng(seed)
        image, placed = render_tray((int(rng.integers(1, 7)),), rng, (640, 480))
        reading = read_dice(image)
        assert reading.values == read_dice(image, unjudged).values == (placed[0].value,)
        judged += reading.dice[0].presence < DEFAULT_PARAMS.lone_die_below
    assert judged >= 2  # dice the second classifier did judge (seeds 11, 23, 41 and 57)
