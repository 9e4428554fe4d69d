"""Temperature scaling of the face confidences: the fit finds a known temperature, and T=1 changes nothing."""

import numpy as np

from vision.read.reader import face_confidences
from vision.training.calibrate import fit_temperature, negative_log_likelihood, reliability_lines


def overconfident_faces(temperature: float, count: int = 4000):
    """Faces drawn from softmax(logits), reported by a net that sharpens them as softmax(logits * temperature)."""
    rng = np.random.default_rng(5)
    logits = rng.normal(0, 2.0, (count, 6))
    truth = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(6, p=p) for p in truth])
    reported = np.exp(logits * temperature)
    return reported / reported.sum(axis=1, keepdims=True), labels


def test_the_fit_recovers_the_temperature_that_undoes_overconfidence():
    faces, labels = overconfident_faces(2.0)
    fitted = fit_temperature(faces, labels)
    assert abs(fitted - 2.0) < 0.2
    assert negative_log_likelihood(faces, labels, fitted) < negative_log_likelihood(faces, labels, 1.0)


def test_temperature_one_only_renormalises_and_higher_softens():
    faces = np.array([0.5, 0.2, 0.1, 0.1, 0.05, 0.05]) * 0.8  # a die's six faces; the rest was "no die"
    assert np.allclose(face_confidences(faces, 1.0), faces / faces.sum())
    assert face_confidences(faces, 2.0).max() < face_confidences(faces, 1.0).max() < face_confidences(faces, 0.5).max()


def test_reliability_lines_end_with_the_calibration_error():
    faces, labels = overconfident_faces(1.0, 600)
    lines = reliability_lines(faces, labels, 1.0)
    assert lines[-1].startswith("  expected calibration error ")
    assert float(lines[-1].split()[-2]) < 5.0, "a calibrated source is off by a few points at most"
