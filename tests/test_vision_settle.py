"""The settle detector on a synthetic sequence: dice moving, then still."""

import numpy as np

from vision.reading import DiceReading, Die
from vision.settle import ReadingConfirmer, SettleDetector, SettleParams
from vision.synthetic import render_tray


def noisy(image, rng, sigma=3.0):
    return np.clip(image + rng.normal(0, sigma, image.shape), 0, 255).astype(np.uint8)


def test_moving_dice_are_not_settled_and_still_dice_settle_after_a_few_frames():
    rng = np.random.default_rng(5)
    values = (1, 3, 5, 6)
    rolling = [render_tray(values, np.random.default_rng(s))[0] for s in range(6)]
    resting, _ = render_tray(values, np.random.default_rng(99))
    detector = SettleDetector()
    assert not any(detector.update(frame) for frame in rolling)
    still = [detector.update(noisy(resting, rng)) for _ in range(6)]
    needed = SettleParams().still_frames
    assert still == [False] * needed + [True] * (6 - needed)
    assert not detector.update(rolling[0]), "a new movement unsettles at once"


def test_a_single_nudged_die_counts_as_movement():
    values = (2, 2, 4, 6)
    image, dice = render_tray(values, np.random.default_rng(3))
    nudged = np.roll(image, 6, axis=1)  # everything slides 6 px: well above noise
    detector = SettleDetector()
    for _ in range(4):
        detector.update(image)
    assert detector.update(image)
    assert not detector.update(nudged)


def test_reset_forgets_the_stream():
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(1))
    detector = SettleDetector()
    for _ in range(5):
        detector.update(image)
    detector.reset()
    assert not detector.update(image)


def reading(*values, unreadable=0):
    dice = [Die(v, (10.0 * i, 0.0), 40.0, 0.9) for i, v in enumerate(values)]
    dice += [Die(None, (0.0, 50.0), 40.0, 0.2)] * unreadable
    return DiceReading(tuple(dice))


def test_a_reading_is_confirmed_only_when_consecutive_settled_frames_agree():
    confirmer = ReadingConfirmer()
    assert confirmer.offer(reading(1, 2, 3, 4)) is None
    assert confirmer.offer(reading(1, 2, 3, 4)) is None
    assert confirmer.offer(reading(1, 2, 3, 5)) is None  # disagreement restarts the count
    assert confirmer.offer(reading(1, 2, 3, 5)) is None
    assert confirmer.offer(reading(1, 2, 3, 5)).values == (1, 2, 3, 5)


def test_a_reading_is_confirmed_once_per_run_of_agreement():
    confirmer = ReadingConfirmer()
    answers = [confirmer.offer(reading(2, 2, 4, 6)) for _ in range(6)]
    needed = SettleParams().agreeing_readings
    assert [a is not None for a in answers] == [False] * (needed - 1) + [True] + [False] * (6 - needed)


def test_single_channel_frames_are_watched_too():
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(1))
    grey = image[..., :1].copy()
    detector = SettleDetector()
    assert [detector.update(grey) for _ in range(4)] == [False, False, False, True]


def test_an_unreadable_die_breaks_agreement():
    confirmer = ReadingConfirmer()
    confirmer.offer(reading(1, 2, 3))
    confirmer.offer(reading(1, 2, 3))
    assert confirmer.offer(reading(1, 2, 3, unreadable=1)) is None
