"""A stopped training run goes on from its checkpoint and ends where an unstopped one does.

torch comes only with the train extra; CI installs the test extra, so these skip there."""

from dataclasses import replace

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from vision.read.params import DEFAULT_PARAMS  # noqa: E402
from vision.training import train  # noqa: E402
from vision.training.photos import synthetic_scenes  # noqa: E402


@pytest.fixture
def small_epochs(monkeypatch):
    monkeypatch.setattr(train, "DETECTOR_EPOCH", 64)


class Stopped(Exception):
    """The power went after the first epoch's checkpoint was written."""


def _detector(scenes, checkpoint, monkeypatch=None):
    torch.manual_seed(1)
    rng = np.random.default_rng(1)
    weights = np.full(len(scenes), 1 / len(scenes))
    if monkeypatch is not None:
        save = train._save

        def save_then_stop(*args):
            save(*args)
            raise Stopped

        with monkeypatch.context() as patch:
            patch.setattr(train, "_save", save_then_stop)
            with pytest.raises(Stopped):
                train.train_detector(scenes, weights, 2, rng, DEFAULT_PARAMS, checkpoint)
        torch.manual_seed(5)
        rng = np.random.default_rng(99)  # what the restarted run draws before it loads the saved state
    return train.train_detector(scenes, weights, 2, rng, DEFAULT_PARAMS, checkpoint)


def test_a_stopped_detector_run_goes_on_from_its_checkpoint(tmp_path, small_epochs, monkeypatch, capsys):
    scenes = synthetic_scenes(3, np.random.default_rng(4))
    whole = _detector(scenes, tmp_path / "whole.pt")
    resumed = _detector(scenes, tmp_path / "stopped.pt", monkeypatch)
    assert "going on from epoch 1" in capsys.readouterr().out
    for name, weights in whole.state_dict().items():
        assert torch.equal(weights, resumed.state_dict()[name]), name


def test_a_checkpoint_of_the_same_scenes_with_their_dice_placed_otherwise_is_not_gone_on_from(
        tmp_path, small_epochs, monkeypatch, capsys):
    """A leaning detector learns the renders' dice at their top faces (``load_rendered(top_faces=True)``):
    the same scenes by name, other targets, another run."""
    scenes = synthetic_scenes(3, np.random.default_rng(4))
    _detector(scenes, tmp_path / "stopped.pt", monkeypatch)
    moved = [replace(s, dice=tuple((x + 3.0, y, side, value) for x, y, side, value in s.dice)) for s in scenes]
    _detector(moved, tmp_path / "stopped.pt")
    assert "is of another run" in capsys.readouterr().out
