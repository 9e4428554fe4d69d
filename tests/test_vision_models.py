"""The reader's nets: a missing or broken model file is a clear error; an unsure face is never guessed."""

import sys
from dataclasses import replace
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from vision.read.detect import Candidate
from vision.read import network
from vision.read.network import VisionModelError
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import _die, read_dice
from vision.scenes.synthetic import render_tray


@pytest.fixture
def tray():
    return render_tray((1, 2, 3, 4), np.random.default_rng(2))[0]


@pytest.fixture(params=["onnxruntime", "opencv"])
def runtime(request, monkeypatch):
    """The nets on ONNX Runtime (skipped where it is not installed), or on OpenCV's DNN module as
    where ONNX Runtime cannot be imported (a 32-bit system); ``opencv_net``'s loads are counted."""
    if request.param == "onnxruntime":
        pytest.importorskip("onnxruntime")
    else:
        monkeypatch.setitem(sys.modules, "onnxruntime", None)
    loaded = []
    real = network.opencv_net
    monkeypatch.setattr(network, "opencv_net", lambda path: loaded.append(path.name) or real(path))
    network.forget_models()
    yield SimpleNamespace(name=request.param, opencv_loads=loaded)
    network.forget_models()


def test_a_missing_model_file_is_named(tray, tmp_path, runtime):
    params = replace(DEFAULT_PARAMS, detector_model=tmp_path / "gone.onnx")
    with pytest.raises(VisionModelError, match="gone.onnx is missing"):
        read_dice(tray, params)


def test_a_broken_model_file_is_named(tray, tmp_path, runtime):
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


@pytest.fixture
def leaning_copies(tmp_path):
    """The reader's params with a leaning camera's nets of their own names (copies of the straight-down ones)."""
    copies = {}
    for field, name in (("leaning_detector_model", "dice-detector-leaning.onnx"),
                        ("leaning_classifier_model", "dice-classifier-leaning.onnx")):
        copies[field] = tmp_path / name
        copies[field].write_bytes(getattr(DEFAULT_PARAMS, field.removeprefix("leaning_")).read_bytes())
    return replace(DEFAULT_PARAMS, **copies)


def test_a_camera_told_a_far_side_is_read_by_the_leaning_nets_and_one_straight_down_is_not(tray, leaning_copies,
                                                                                            monkeypatch):
    import vision.read.classify as classify
    import vision.read.detect as detect

    ran = []
    for module in (detect, classify):
        real_run = module.run
        monkeypatch.setattr(module, "run", lambda model, blob, real_run=real_run: ran.append(model.name)
                            or real_run(model, blob))
    straight_down = read_dice(tray, leaning_copies)
    assert set(ran) == {"dice-detector.onnx", "dice-classifier.onnx"}
    ran.clear()
    leaning = read_dice(tray, leaning_copies, up=30.0)
    assert set(ran) == {"dice-detector-leaning.onnx", "dice-classifier-leaning.onnx"}
    assert straight_down.values == leaning.values == (1, 2, 3, 4), "both read a plain tray"


@pytest.mark.parametrize("field", ["leaning_detector_model", "leaning_classifier_model"])
def test_a_missing_leaning_net_is_named_only_where_a_camera_leans(tray, tmp_path, field):
    params = replace(DEFAULT_PARAMS, **{field: tmp_path / "gone-leaning.onnx"})
    assert read_dice(tray, params).values == (1, 2, 3, 4)
    with pytest.raises(VisionModelError, match="gone-leaning.onnx is missing"):
        read_dice(tray, params, up=0.0)


def test_a_leaning_camera_takes_a_face_at_its_own_threshold():
    candidate = Candidate((10.0, 10.0), 20.0, 0.9)
    faces = np.array([0.05, 0.05, 0.05, 0.75, 0.05, 0.05])
    params = replace(DEFAULT_PARAMS, min_value_probability=0.7, leaning_min_value_probability=0.8)
    assert _die(candidate, faces, 1.0, params).value == 4
    assert _die(candidate, faces, 1.0, replace(params, up=0.0)).value is None
    assert _die(candidate, faces, 1.0, replace(params.keeping_every_face(), up=0.0)).value == 4


def test_a_tables_own_layer_reads_only_the_straight_down_classifiers_features(tray, leaning_copies):
    from vision.read.classify import CLASSES, feature_width
    from vision.read.reader import crops_at, face_probabilities
    from vision.read.table_tuning import TableHead

    rng = np.random.default_rng(5)
    layer = TableHead(rng.normal(size=(CLASSES, feature_width(DEFAULT_PARAMS))), rng.normal(size=CLASSES), 60, 1.0, 0.9)
    crops = crops_at(tray, [((100.0, 100.0), 40.0)], DEFAULT_PARAMS)
    leaning = replace(leaning_copies, up=0.0)
    assert not np.allclose(face_probabilities(crops, leaning_copies, layer), face_probabilities(crops, leaning_copies))
    assert np.allclose(face_probabilities(crops, leaning, layer), face_probabilities(crops, leaning)), \
        "a leaning camera's own classifier makes other features: the table's layer is not put on them"
    same_classifier = replace(leaning, leaning_classifier_model=DEFAULT_PARAMS.classifier_model)
    assert not np.allclose(face_probabilities(crops, same_classifier, layer), face_probabilities(crops, same_classifier))


@pytest.mark.parametrize("model, shape", [("detector_model", (1, 3, 64, 96)), ("classifier_model", (5, 3, 48, 48))])
def test_the_runtime_the_nets_run_on_gives_what_opencvs_default_engine_gives(model, shape, runtime):
    """The reader runs its nets on ONNX Runtime for speed, or else on OpenCV 5's classic DNN engine
    (network._ENGINE): the outputs must be those of OpenCV's default engine, or the measured
    figures would not be the reader's."""
    path = getattr(DEFAULT_PARAMS, model)
    batch = np.random.default_rng(3).random(shape, dtype=np.float32) - 0.5
    default = cv2.dnn.readNetFromONNX(str(path))
    default.setInput(batch)
    assert np.allclose(network.run(path, batch), default.forward(), atol=1e-5)
    assert runtime.opencv_loads == ([] if runtime.name == "onnxruntime" else [path.name])


def test_either_runtime_reads_the_same_dice(tray, runtime):
    assert read_dice(tray).values == (1, 2, 3, 4)
    assert bool(runtime.opencv_loads) == (runtime.name == "opencv")


def test_a_nets_input_is_its_images_as_planes_scaled_to_half_either_side_of_zero():
    images = np.random.default_rng(4).integers(0, 256, (2, 5, 7, 3), dtype=np.uint8)
    planes = network.as_net_input(images)
    assert planes.shape == (2, 3, 5, 7) and planes.dtype == np.float32 and planes.flags.c_contiguous
    assert np.array_equal(planes, images.transpose(0, 3, 1, 2).astype(np.float32) / 255.0 - 0.5)
    assert np.array_equal(network.as_net_input(images[0]), planes[:1])
