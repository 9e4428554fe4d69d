"""A classifier made wider (``finetune --widen``) reads as the narrow one did, and is read back at its width from its files.

torch comes only with the train extra; CI installs the test extra, so these skip there."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.read.network import as_net_input, run  # noqa: E402
from vision.read.params import MODELS  # noqa: E402
from vision.training.nets import ReaderClassifier  # noqa: E402
from vision.training import finetune, shipped_nets  # noqa: E402
from vision.training.crop_bank import CropBank  # noqa: E402
from vision.training.shipped_nets import classifier_width, shipped_classifier, torch_weights, widened, widened_classifier  # noqa: E402
from vision.training.train import export_classifier  # noqa: E402

NARROW = MODELS / "dice-classifier.onnx"  # the straight-down classifier: width 1


def crops(seed: int = 4) -> torch.Tensor:
    return torch.from_numpy(as_net_input(np.random.default_rng(seed).integers(0, 256, (6, 48, 48, 3), dtype=np.uint8)))


def test_a_widened_classifier_reads_every_crop_as_the_narrow_one_did(monkeypatch):
    monkeypatch.setattr(shipped_nets, "NOISE", 0.0)
    narrow = shipped_classifier(NARROW)
    wide = widened(narrow, 2, np.random.default_rng(1))
    assert wide.out.in_features == 2 * narrow.out.in_features
    with torch.no_grad():
        assert float((wide(crops()) - narrow(crops())).abs().max()) < 1e-4


def test_the_copies_noise_moves_the_logits_a_little_and_every_copy_apart_from_its_channel():
    narrow = shipped_classifier(NARROW)
    wide = widened(narrow, 2, np.random.default_rng(1))
    with torch.no_grad():
        moved = float((wide(crops()) - narrow(crops())).abs().max())
    assert 0 < moved < 0.5
    first = wide.features[0][0].weight.detach()
    assert torch.equal(first[:32], narrow.features[0][0].weight)  # the shipped channels as they were
    nearest = torch.cdist(first[32:].flatten(1), first[:32].flatten(1)).min(1).values
    assert bool((nearest > 0).all()) and bool((nearest < 0.1 * first[:32].flatten(1).norm(dim=1).mean()).all())


def test_a_wider_net_is_read_back_at_its_width_from_its_torch_weights_or_its_onnx_file(tmp_path):
    wide = widened(shipped_classifier(NARROW), 2, np.random.default_rng(2))
    onnx_file = tmp_path / "dice-classifier.onnx"
    export_classifier(wide, onnx_file)
    assert classifier_width(onnx_file) == 2 and classifier_width(NARROW) == 1
    again = shipped_classifier(onnx_file)
    with torch.no_grad():
        expected = ReaderClassifier(wide)(crops()).numpy()
        assert np.abs(ReaderClassifier(again)(crops()).numpy() - expected).max() < 1e-5
    assert np.abs(run(onnx_file, crops().numpy()).reshape(6, -1) - expected).max() < 1e-4
    torch_weights(onnx_file).unlink()  # the ONNX file alone: its layers say the width too
    assert classifier_width(onnx_file) == 2


def test_a_width_no_wider_than_the_nets_own_is_refused():
    with pytest.raises(ValueError, match="no wider than the net's own"):
        widened(shipped_classifier(NARROW), 1, np.random.default_rng(1))


def test_every_widening_of_one_net_is_the_same_net_so_its_fine_tuned_seeds_can_be_averaged():
    first, again = widened_classifier(NARROW, 2), widened_classifier(NARROW, 2)
    for name, weights in first.state_dict().items():
        assert torch.equal(weights, again.state_dict()[name]), name


def test_finetune_refuses_a_negative_widening_and_one_no_wider_than_its_start(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.argv", ["finetune", "--bank", "b.npz", "--out", str(tmp_path), "--widen", "-1"])
    with pytest.raises(SystemExit):
        finetune.main()
    assert "--widen 0 or more" in capsys.readouterr().err
    bank = CropBank(np.zeros((2, 48, 48, 3), np.uint8), np.array([0, 6], np.int8), np.zeros(2, np.int8), np.zeros(2, np.int32), np.zeros(2, bool),
                    np.zeros(2, bool), np.zeros((2, 7), np.float16), ("scene",))
    bank.save(tmp_path / "bank.npz")
    monkeypatch.setattr("sys.argv", ["finetune", "--bank", str(tmp_path / "bank.npz"), "--out", str(tmp_path / "out"),
                                     "--start", str(MODELS), "--widen", "1"])
    with pytest.raises(SystemExit):
        finetune.main()
    assert "--widen 1: a width of 1 is no wider than the net's own" in capsys.readouterr().err
