"""Fine-tuning from the shipped nets: read back exactly, a crop bank cut once, epochs chosen on held-out scenes.

torch comes only with the train extra; CI installs the test extra, so these skip there."""

import argparse
import json

import cv2
import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.read.classify import NOT_A_DIE  # noqa: E402
from vision.read.network import as_net_input, run  # noqa: E402
from vision.read.params import DEFAULT_PARAMS, MODELS, NET_FILES  # noqa: E402
from vision.training import finetune, finetune_detector, weight_average  # noqa: E402
from vision.training.crop_bank import (  # noqa: E402
    KINDS,
    CropBank,
    build,
    is_choosing_scene,
    parse_candidates_on,
    rendered_candidates,
    scene_candidates,
)
from vision.training.nets import ReaderClassifier  # noqa: E402
from vision.scenes.synthetic import render_tray  # noqa: E402
from vision.training.photos import Scene, synthetic_scenes  # noqa: E402
from vision.training.shipped_nets import shipped_classifier, shipped_detector  # noqa: E402


def test_the_shipped_nets_read_back_from_onnx_answer_as_the_reader_runs_them():
    rng = np.random.default_rng(3)
    crops = rng.integers(0, 256, (6, 48, 48, 3), dtype=np.uint8)
    torch_out = ReaderClassifier(shipped_classifier())(torch.from_numpy(as_net_input(crops))).detach().numpy()
    onnx_out = run(MODELS / "dice-classifier.onnx", as_net_input(crops)).reshape(6, -1)
    assert np.abs(torch_out - onnx_out).max() < 1e-4
    windows = rng.integers(0, 256, (2, 96, 96, 3), dtype=np.uint8)
    torch_maps = shipped_detector()(torch.from_numpy(as_net_input(windows))).detach().numpy()
    assert np.abs(torch_maps - run(MODELS / "dice-detector.onnx", as_net_input(windows))).max() < 1e-4


@pytest.fixture(scope="module")
def bank():
    rng = np.random.default_rng(7)
    scenes = synthetic_scenes(12, rng)
    top_down = Scene("a-photo-from-above", scenes[0].image, scenes[0].dice, None)
    plan = [(s, "synthetic", (3, 4)) for s in scenes] + [(top_down, "dev", (4, 4))]
    return build(plan, [s for s, _, _ in plan], rng)


def test_a_bank_keeps_each_crops_source_class_far_side_and_teacher(bank, tmp_path):
    assert len(bank) == len(bank.teacher) == len(bank.kinds) and len(bank) > 50
    assert set(bank.labels) <= set(range(7)) and NOT_A_DIE in bank.labels
    dev = bank.of_kind("dev")
    assert dev.any() and not bank.far_side_known[dev].any()  # from straight above: any turn is right
    assert not bank.far_side_known[bank.of_kind("false-candidate")].any()
    for i in np.flatnonzero(bank.of_kind("synthetic")):
        scene = bank.scenes[bank.scene_index[i]]
        assert bank.choosing[i] == is_choosing_scene(scene)
    np.testing.assert_allclose(bank.teacher.sum(1), 1.0, atol=1e-2)
    bank.save(tmp_path / "bank.npz")
    again = CropBank.load(tmp_path / "bank.npz")
    assert again.scenes == bank.scenes and np.array_equal(again.crops, bank.crops)
    joined = CropBank.joined([bank, again])
    assert len(joined) == 2 * len(bank) and len(joined.scenes) == 2 * len(bank.scenes)
    assert joined.scenes[joined.scene_index[len(bank)]] == bank.scenes[bank.scene_index[0]]


def test_desk_candidates_are_cut_where_the_leaning_reader_looks_and_labelled_by_the_nearest_die():
    desks = scene_candidates("desk", 3, 11)
    assert desks.scenes == ("desk-11-0", "desk-11-1", "desk-11-2")
    no_die = desks.labels == NOT_A_DIE
    assert no_die.any() and (~no_die).any()  # keys and side faces to refuse, dice to read
    assert desks.far_side_known.all()  # cut in the webcam's far-side frame
    # the leaning classifier reads the dice crops as the drawn dice they were labelled by
    assert (desks.teacher[~no_die].argmax(1) == desks.labels[~no_die]).mean() > 0.8
    assert np.array_equal(scene_candidates("desk", 3, 11).crops, desks.crops)


def test_candidates_on_pictures_seen_from_above_are_no_die_where_none_was_drawn_and_turn_any_way():
    garbage = scene_candidates("garbage", 6, 11)
    assert len(garbage) and (garbage.labels == NOT_A_DIE).all()
    assert (garbage.kinds == KINDS.index("false-candidate")).all() and not garbage.far_side_known.any()
    clutter = scene_candidates("clutter", 2, 11)
    dice = clutter.labels != NOT_A_DIE
    assert dice.any() and (clutter.teacher[dice].argmax(1) == clutter.labels[dice]).mean() > 0.8


def test_candidates_in_renders_are_cut_where_the_leaning_reader_looks_told_each_throw_s_far_side(tmp_path):
    """Throws drawn leaning away from a far side, written as render3d writes its renders: the crops lie
    where the leaning reader put its candidates and dice, in the far-side frame, the dice labelled
    with their faces (the leaning classifier agrees) and the places far from any die as no die."""
    rng = np.random.default_rng(4)
    rows = []
    for index, up in enumerate((30.0, 250.0)):
        image, placed = render_tray((1, 2, 3, 4, 5), rng, lean=0.3, far_side=up, clutter=4)
        name = f"render3d-s4-{index:05d}.png"
        cv2.imwrite(str(tmp_path / name), image)
        dice = [[*d.centre, d.side, d.value] for d in placed]
        rows.append(json.dumps({"file": name, "dice": dice, "up": up}))
    (tmp_path / "labels.jsonl").write_text("\n".join(rows) + "\n")
    bank = rendered_candidates(tmp_path)
    assert bank.scenes == ("render3d-s4-00000.png", "render3d-s4-00001.png")
    dice = bank.labels != NOT_A_DIE
    assert dice.sum() >= 10 and bank.far_side_known.all()
    assert set(bank.kinds[dice]) == {KINDS.index("render3d")}
    assert set(bank.kinds[~dice]) <= {KINDS.index("false-candidate")}
    assert (bank.teacher[dice].argmax(1) == bank.labels[dice]).mean() > 0.8
    assert np.array_equal(rendered_candidates(tmp_path).crops, bank.crops)


def test_candidates_on_names_a_wrong_kind_or_count():
    with pytest.raises(argparse.ArgumentTypeError, match="no bench-vision tray kind 'desks'"):
        parse_candidates_on("desks=40")
    with pytest.raises(argparse.ArgumentTypeError, match="as garbage=400"):
        parse_candidates_on("garbage")
    assert parse_candidates_on("crowd=30") == ("crowd", 30)


def test_the_shipped_nets_own_probabilities_cost_nothing_to_the_shipped_net():
    net = shipped_classifier()
    crops = np.random.default_rng(1).integers(0, 256, (5, 48, 48, 3), dtype=np.uint8)
    x = torch.from_numpy(as_net_input(crops))
    with torch.no_grad():
        teacher = torch.softmax(net(x), 1)
        labels = net(x).argmax(1)
        plain, _ = finetune.loss_of(net, x, labels, teacher, torch.ones(5, dtype=torch.bool), 0.0)
        distilled, _ = finetune.loss_of(net, x, labels, teacher, torch.ones(5, dtype=torch.bool), 1.0)
    assert float(distilled) == pytest.approx(float(plain), abs=1e-5)


def test_fine_tuning_writes_the_epoch_that_reads_the_held_out_scenes_best(bank, monkeypatch):
    monkeypatch.setattr(finetune, "EPOCH", 256)
    torch.manual_seed(1)
    net, history = finetune.fine_tune(bank, shipped_classifier(), 2, 3e-4, 1.0, finetune.DEFAULT_MIX,
                                      np.random.default_rng(1), log=lambda line: None)
    assert len(history) == 3  # the start, then each epoch
    best = max((1, 2), key=lambda i: finetune.choosing_score(history[i]))  # never the start
    assert finetune.choosing_score(finetune.choosing_figures(net, bank)) == pytest.approx(
        finetune.choosing_score(history[best]))


def test_fine_tuning_recolours_its_crops_by_the_look_it_is_given(bank, monkeypatch):
    """The crops a fine-tune learns from are those its look made (``--true-colours``: samples.true_colours)."""
    def black(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        return np.zeros_like(crop)
    batch = finetune.augmented(bank, np.arange(8), np.random.default_rng(3), black)
    assert tuple(batch.shape[:2]) == (8, 3) and float(batch.max() - batch.min()) == 0.0
    looked = []
    def spy(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        looked.append(crop)
        return crop
    monkeypatch.setattr(finetune, "EPOCH", 256)
    finetune.fine_tune(bank, shipped_classifier(), 1, 3e-4, 0.0, finetune.DEFAULT_MIX, np.random.default_rng(1),
                       log=lambda line: None, look=spy)
    assert len(looked) == finetune.EPOCH // finetune.BATCH * finetune.BATCH


def test_a_mix_names_kinds_and_weights_or_is_refused():
    assert finetune.parse_mix("render3d=4,dev=0")["render3d"] == 4.0
    with pytest.raises(argparse.ArgumentTypeError, match="no crops of kind 'renders'"):
        finetune.parse_mix("renders=2")
    with pytest.raises(argparse.ArgumentTypeError, match="must be a number"):
        finetune.parse_mix("dev=lots")
    with pytest.raises(argparse.ArgumentTypeError, match="0 or more"):
        finetune.parse_mix("dev=-1")
    assert set(finetune.DEFAULT_MIX) == set(KINDS)
    assert DEFAULT_PARAMS.crop_px == 48


def test_the_thresholds_chosen_read_most_throws_right_with_no_more_silent_than_those_in_use():
    """Three throws of 2 and 5: one with a sure 5 at 0.75 (a face threshold of 0.8 would refuse it),
    one whose 5 is a wrong 6 at 0.65 (below 0.7: refused today, taken silently at 0.6), one with a third
    die at presence 0.75 in the tray (an extra die today; under an extra threshold of 0.8 it is dropped)."""
    from vision.measure.evaluation import LabelledPhoto, PhotoResult
    from vision.read.reading import DiceReading, Die
    from vision.training.thresholds import Thresholds, at_the_table_with, choose

    boxes = ((90.0, 90.0, 110.0, 110.0, 2), (150.0, 90.0, 170.0, 110.0, 5))

    def die(value, centre, confidence=0.99, presence=1.0):
        return Die(value=value, centre=centre, size=20.0, confidence=confidence, presence=presence)

    def throw(*dice):
        return PhotoResult(LabelledPhoto("x.jpg", (2, 5), "test", boxes), DiceReading(dice), 1.0, frame_size=(400, 300))

    results = [
        throw(die(2, (100.0, 100.0)), die(5, (160.0, 100.0), confidence=0.75)),
        throw(die(2, (100.0, 100.0)), die(6, (160.0, 100.0), confidence=0.65)),
        throw(die(2, (100.0, 100.0)), die(5, (160.0, 100.0)), die(3, (130.0, 120.0), presence=0.75)),
    ]
    today = at_the_table_with(results, Thresholds(0.7, 0.7), DEFAULT_PARAMS)
    assert (today.outcomes["right"], today.outcomes["unsure"], today.outcomes["extra"]) == (1, 1, 1)
    assert at_the_table_with(results, Thresholds(0.6, 0.7), DEFAULT_PARAMS).outcomes["silent"] == 1
    chosen = choose(results, DEFAULT_PARAMS)
    assert chosen.value == 0.7 and chosen.extra >= 0.8
    assert at_the_table_with(results, chosen, DEFAULT_PARAMS).outcomes["right"] == 2


def test_a_detector_fine_tuned_from_the_shipped_one_moves_a_little_and_keeps_its_batch_norms(monkeypatch):
    from vision.training import train

    monkeypatch.setattr(train, "DETECTOR_EPOCH", 64)
    scenes = synthetic_scenes(3, np.random.default_rng(4))
    start = shipped_detector()
    torch.manual_seed(1)
    tuned = train.train_detector(scenes, np.full(len(scenes), 1 / len(scenes)), 1, np.random.default_rng(1),
                                 DEFAULT_PARAMS, start=start, lr=1e-4)
    before, after = start.state_dict(), tuned.state_dict()
    for name in before:
        if "running" in name:
            assert torch.equal(before[name], after[name]), name  # frozen: the folded statistics mean nothing
    moved = max(float((after[n] - before[n]).abs().max()) for n in before if n.endswith("weight"))
    assert 0 < moved < 0.01


def test_a_candidate_is_written_as_onnx_beside_its_torch_weights_and_read_back_from_them(tmp_path):
    net = shipped_classifier()
    with torch.no_grad():
        net.out.bias.add_(0.25)  # a net that is not the shipped one
    finetune.write_candidate(net, tmp_path, "a recipe\n")
    assert (tmp_path / "dice-classifier.pt").is_file() and (tmp_path / "recipe.txt").read_text() == "a recipe\n"
    again = shipped_classifier(tmp_path / "dice-classifier.onnx")
    for name, weights in net.state_dict().items():
        assert torch.equal(weights, again.state_dict()[name]), name
    crops = np.random.default_rng(2).integers(0, 256, (3, 48, 48, 3), dtype=np.uint8)
    torch_out = ReaderClassifier(again)(torch.from_numpy(as_net_input(crops))).detach().numpy()
    assert np.abs(torch_out - run(tmp_path / "dice-classifier.onnx", as_net_input(crops)).reshape(3, -1)).max() < 1e-4


def test_an_average_lies_its_share_of_the_way_from_the_shipped_net_to_the_candidates_mean(tmp_path):
    shipped = shipped_classifier()
    for number, shift in enumerate((0.2, 0.6)):  # two candidates: the shipped net, its output biases moved
        net = shipped_classifier()
        with torch.no_grad():
            net.out.bias.add_(shift)
        finetune.write_candidate(net, tmp_path / f"cand-{number}", "a recipe\n")
    fields = weight_average.write_average([tmp_path / "cand-0", tmp_path / "cand-1"], tmp_path / "avg", 0.5)
    assert fields == ["classifier_model"] and not (tmp_path / "avg" / "dice-detector.onnx").exists()
    again = shipped_classifier(tmp_path / "avg" / "dice-classifier.onnx")
    assert torch.allclose(again.out.bias, shipped.out.bias + 0.5 * 0.4, atol=1e-6)  # half way to the mean shift 0.4
    assert torch.equal(again.out.weight, shipped.out.weight)
    assert "0.5 of the way" in (tmp_path / "avg" / "recipe.txt").read_text()


def test_every_net_the_reader_loads_can_be_averaged():
    assert weight_average.NETS.keys() == NET_FILES.keys()


def test_an_average_of_candidates_holding_different_nets_or_at_no_share_is_refused(tmp_path):
    finetune.write_candidate(shipped_classifier(), tmp_path / "classifier", "a recipe\n")
    (tmp_path / "detector").mkdir()
    torch.save(shipped_detector().state_dict(), tmp_path / "detector" / "dice-detector.pt")
    with pytest.raises(ValueError, match="no dice-classifier.pt in .*detector"):
        weight_average.held_nets([tmp_path / "classifier", tmp_path / "detector"])
    with pytest.raises(ValueError, match="share above 0"):
        weight_average.averaged(shipped_classifier().state_dict(), [shipped_classifier().state_dict()], 0.0)
    with pytest.raises(ValueError, match="where the nets start from"):  # never over the nets it reads
        weight_average.write_average([tmp_path / "classifier"], MODELS, 0.5)


def _detector_refusal(monkeypatch, capsys, *extra: str) -> str:
    monkeypatch.setattr("sys.argv", ["finetune_detector", "--photos", "/nowhere", "--out", "/nowhere/out", *extra])
    with pytest.raises(SystemExit):
        finetune_detector.main()
    return capsys.readouterr().err


def test_detector_fine_tuning_refuses_renders_it_cannot_use_before_any_work(tmp_path, monkeypatch, capsys):
    """Top faces without renders, a render folder with none, a scene rendered before top faces
    were written: each said plainly before the photos are read or a window is drawn."""
    assert "--top-faces centres the renders' dice" in _detector_refusal(monkeypatch, capsys, "--top-faces")
    empty = tmp_path / "empty"
    empty.mkdir()
    said = _detector_refusal(monkeypatch, capsys, "--rendered", str(empty))
    assert f"--rendered {empty}: no rendered scene there" in said
    old = tmp_path / "old"
    old.mkdir()
    cv2.imwrite(str(old / "render3d-s1-00000.png"), np.zeros((8, 8, 3), np.uint8))
    (old / "labels.jsonl").write_text('{"file": "render3d-s1-00000.png", "dice": [[4, 4, 6, 3]], "up": 10.0}\n')
    said = _detector_refusal(monkeypatch, capsys, "--rendered", str(old), "--top-faces", "--leaning")
    assert "render3d-s1-00000.png: no top face for each die" in said
