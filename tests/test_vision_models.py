"""The reader's nets: a missing or broken model file is a clear error; an unsure face is never guessed."""

from dataclasses import replace

import numpy as np
import pytest

from vision.read.detect import Candidate
from vision.read.network import VisionModelError
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import _die, read_dice
from vision.scenes.synthetic import render_tray


@pytest.fixture
def tray():
    return render_tray((1, 2, 3, 4), np.random.default_rng(2))[0]


def test_a_missing_model_file_is_named(tray, tmp_path):
    params = replace(DEFAULT_PARAMS, detector_model=tmp_path / "gone.onnx")
    with pytest.raises(VisionModelError, match="gone.onnx is missing"):
        read_dice(tray, params)


def test_a_broken_model_file_is_named(tray, tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"\x00not a model")
    with pytest.raises(VisionModelError, match="broken.onnx cannot be loaded"):
        read_dice(tray, replace(DEFAULT_PARAMS, classifier_model=broken))


def test_a_sure_face_is_read():
    die = _die(Candidate((10.0, 20.0), 30.0, 0.9), np.array([0.01, 0.01, 0.95, 0.01, 0.01, 0.01]), 2.0, DEFAULT_PARAMS)
    assert die.value == 3 and die.confidence == pytest.approx(0.95)
    assert die.centre == (20.0, 40.0) and die.size == 60.0


def test_an_unsure_face_is_unreadable_and_says_between_what():
    faces = np.array([0.02, 0.02, 0.02, 0.45, 0.44, 0.05])
    die = _die(Candidate((10.0, 20.0), 30.0, 0.9), faces, 1.0, DEFAULT_PARAMS)
    assert die.value is None and not die.is_readable
    assert die.reason == "unsure: 4 (45%) or 5 (44%)"


def test_a_camera_told_a_far_side_is_read_by_the_leaning_detector_and_one_straight_down_is_not(tray, monkeypatch):
    import vision.read.detect as detect

    ran = []
    real_run = detect.run
    monkeypatch.setattr(detect, "run", lambda model, blob: ran.append(model.name) or real_run(model, blob))
    straight_down = read_dice(tray)
    assert set(ran) == {"dice-detector.onnx"}
    ran.clear()
    leaning = read_dice(tray, up=30.0)
    assert set(ran) == {"dice-detector-leaning.onnx"}
    assert straight_down.values == leaning.values == (1, 2, 3, 4), "both read a plain tray"


def test_a_missing_leaning_detector_is_named_only_where_a_camera_leans(tray, tmp_path):
    params = replace(DEFAULT_PARAMS, leaning_detector_model=tmp_path / "gone-leaning.onnx")
    assert read_dice(tray, params).values == (1, 2, 3, 4)
    with pytest.raises(VisionModelError, match="gone-leaning.onnx is missing"):
        read_dice(tray, params, up=0.0)
