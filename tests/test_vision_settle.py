"""The settle detector on a synthetic sequence: dice moving, then still."""

import cv2
import numpy as np
import pytest

from vision.read.reading import DiceReading, Die
from vision.read.settle import ReadingConfirmer, SettleDetector, SettleParams
from vision.scenes.synthetic import render_tray


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
    image, _ = render_tray(values, np.random.default_rng(3))
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


def reading(*values, unreadable=0, shift=0.0):
    dice = [Die(v, (50.0 * i + shift, 0.0), 40.0, 0.9) for i, v in enumerate(values)]
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


def test_a_die_unsure_in_one_frame_of_three_is_read_by_the_vote():
    confirmer = ReadingConfirmer()
    assert confirmer.offer(reading(1, 2, 3, 4)) is None
    assert confirmer.offer(reading(1, 2, 3, None)) is None
    confirmed = confirmer.offer(reading(1, 2, 3, 4))
    assert confirmed.values == (1, 2, 3, 4) and not confirmed.unreadable


def test_a_die_read_in_only_one_frame_of_three_is_unreadable_and_a_later_majority_reads_it():
    confirmer = ReadingConfirmer()
    confirmer.offer(reading(5, None))
    confirmer.offer(reading(5, None))
    confirmed = confirmer.offer(reading(5, 6))
    assert confirmed.values == (5,) and "6 in only 1 of 3 frames" in confirmed.unreadable[0].reason
    assert confirmer.offer(reading(5, 6)).values == (5, 6), "once most frames read it, the roll is read"


def test_a_die_read_as_two_faces_is_not_confirmed_until_the_frames_agree():
    confirmer = ReadingConfirmer()
    answers = [confirmer.offer(reading(2, v)) for v in (3, 3, 4, 4, 4)]
    assert [a is not None for a in answers] == [False, False, False, False, True]
    assert answers[-1].values == (2, 4)


def test_dice_that_moved_start_the_vote_again():
    confirmer = ReadingConfirmer()
    confirmer.offer(reading(1, 6))
    confirmer.offer(reading(1, 6))
    assert confirmer.offer(reading(1, 6, shift=30.0)) is None, "a die 0.75 of its size away is another place"
    assert confirmer.offer(reading(1, 6, shift=30.0)) is None
    assert confirmer.offer(reading(1, 6, shift=35.0)).values == (1, 6), "a few pixels of jitter are the same place"


def test_with_the_tray_given_movement_beside_it_is_ignored_and_movement_in_it_is_not():
    from vision.read.tray import TrayOutline

    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(1))
    tray = TrayOutline(((160.0, 0.0), (640.0, 0.0), (640.0, 480.0), (160.0, 480.0)), (640, 480))

    def hand_at(x, y):
        frame = image.copy()
        cv2.circle(frame, (x, y), 40, (120, 160, 220), -1)  # a hand moving about on the desk
        return frame

    beside = [hand_at(60, 60 + 40 * i) for i in range(6)]
    whole, in_tray = SettleDetector(), SettleDetector(tray=tray)
    assert not any(whole.update(frame) for frame in beside)
    assert [in_tray.update(frame) for frame in beside] == [False, False, False, True, True, True]
    assert not in_tray.update(hand_at(400, 240)), "a hand in the tray is movement"


def test_the_tray_is_watched_at_the_thumbnail_of_any_frame_of_its_shape():
    from vision.read.tray import TrayError, TrayOutline

    tray = TrayOutline(((0.0, 0.0), (64.0, 0.0), (64.0, 48.0)), (64, 48))
    image, _ = render_tray((5,), np.random.default_rng(2), (1280, 960), (96.0, 120.0))
    detector = SettleDetector(tray=tray)
    assert [detector.update(image) for _ in range(4)] == [False, False, False, True]
    other_shape = SettleDetector(tray=tray)
    other_shape.update(image[:, :400])
    with pytest.raises(TrayError, match="another shape"):
        other_shape.update(image[:, :400])
