"""The tolerant golden comparisons still catch a wrong picture: a lost, moved or recoloured outline,
a dithered view that changed; and they let through what OpenCV versions draw differently."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

import golden
from golden import annotation_differences, assert_matches_golden
from vision.measure.annotate import annotate
from vision.read.reader import read_dice
from vision.read.reading import DiceReading
from vision.scenes.synthetic import render_tray


@pytest.fixture(scope="module")
def tray() -> tuple[np.ndarray, DiceReading]:
    image, _ = render_tray((1, 2, 3, 4, 5, 6), np.random.default_rng(12))
    return image, read_dice(image)


def changed_first_die(reading: DiceReading, **change) -> DiceReading:
    return replace(reading, dice=(replace(reading.dice[0], **change), *reading.dice[1:]))


def test_the_same_annotation_with_other_lettering_and_a_little_noise_passes(tray, monkeypatch):
    image, reading = tray
    reference = annotate(image, reading, "a note")
    monkeypatch.setattr(cv2, "FONT_HERSHEY_SIMPLEX", cv2.FONT_HERSHEY_DUPLEX)  # as another OpenCV letters it
    noisy = np.clip(image.astype(int) + np.random.default_rng(1).integers(-3, 4, image.shape), 0, 255).astype(np.uint8)
    assert annotation_differences(annotate(noisy, reading, "a note"), reference) == []


@pytest.mark.parametrize(
    "change",
    [
        lambda r: replace(r, dice=r.dice[1:]),  # a die not outlined
        lambda r: changed_first_die(r, value=None),  # outlined as unreadable
        lambda r: changed_first_die(r, outline=tuple((x + 2, y) for x, y in r.dice[0].outline)),  # 2 px aside
    ],
    ids=["missing", "unreadable", "moved"],
)
def test_a_wrong_annotation_is_caught(tray, change):
    image, reading = tray
    assert annotation_differences(annotate(image, change(reading)), annotate(image, reading))


def test_a_different_picture_under_the_same_outlines_is_caught(tray):
    image, reading = tray
    assert annotation_differences(annotate(255 - image, reading), annotate(image, reading))


def dithered_view() -> Image.Image:
    screen = Image.new("1", (128, 64), 0)
    screen.paste(Image.linear_gradient("L").resize((84, 64)).convert("1"), (0, 0))  # Floyd-Steinberg
    ImageDraw.Draw(screen).text((90, 0), "Tray", fill=1)
    return screen


def test_a_dithered_view_may_dither_otherwise_but_not_show_another_picture(tmp_path, monkeypatch):
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    box = (0, 0, 84, 64)
    assert_matches_golden(dithered_view(), "view", update=True)
    redithered = dithered_view()
    redithered.putpixel((40, 40), 1 - redithered.getpixel((40, 40)))  # the error diffusion went another way
    assert_matches_golden(redithered, "view", update=False, dithered=box)
    with pytest.raises(AssertionError, match="pixels lit more or fewer"):
        assert_matches_golden(Image.eval(dithered_view(), lambda v: 255 - v), "view", update=False, dithered=box)
    words = dithered_view()
    ImageDraw.Draw(words).text((90, 20), "found", fill=1)
    with pytest.raises(AssertionError, match="differs from its reference inside"):
        assert_matches_golden(words, "view", update=False, dithered=box)
