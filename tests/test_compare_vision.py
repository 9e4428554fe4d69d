"""compare-vision: the verdict from figures made up for it, and the shipped nets compared with copies of themselves."""

import shutil

import cv2
import numpy as np
import pytest

from firmware.cli import main
from firmware.vision_compare import candidate_nets
from vision.measure.comparison import AimError, Figure, aimed, parse_aims, verdict
from vision.read.params import DEFAULT_PARAMS, NET_FILES
from vision.scenes.synthetic import render_tray

DEV = "dev"


def real_sets(dev_table_right=(68.9, 68.9, 68.9)):
    """The real sets' at-the-table figures, dev's as given, the rest unchanged, and the oblique renders."""
    return [Figure(DEV, "table-right", dev_table_right), Figure(DEV, "silent", (5.3, 5.3, 5.3)),
            Figure("train-photos", "table-right", (84.6, 85.0, 84.4)), Figure("grey", "per-die", (98.0, 98.0, 98.0)),
            Figure("oblique", "per-die", (69.8, 82.1, 81.0)), Figure("garbage", "invented", (21, 9, 11), "scene")]


def test_a_candidate_worse_on_a_real_set_by_more_than_the_spread_is_not_shipped():
    figures = real_sets((68.9, 66.0, 67.1))
    assert figures[0].spread(0.5) == pytest.approx(1.1)
    assert verdict(figures, parse_aims("oblique:per-die"), 0.5) == (
        "verdict: keep the shipped nets (dev at the table right % 68.9 -> 66.0, worse by 2.9 > spread 1.1)")


def test_a_candidate_better_where_aimed_and_worse_nowhere_real_is_shipped():
    """dev's loss of 0.8 is within its seeds' spread of 1.1; a silent share going up counts as worse."""
    assert verdict(real_sets((68.9, 68.1, 69.2)), parse_aims("oblique:per-die,garbage:invented"), 0.5) == (
        "verdict: ship (better on oblique per-die % by 12.3 > spread 1.1, garbage invented dice by 12.0 > spread 2.0; "
        "worse on no real set by more than the spread)")
    worse_silent = real_sets() + [Figure("colour", "table-silent", (0.0, 1.5))]
    assert verdict(worse_silent, parse_aims("oblique:per-die"), 0.5).startswith(
        "verdict: keep the shipped nets (colour at the table silent % 0.0 -> 1.5, worse by 1.5 > spread 0.5")


def test_a_candidate_not_better_where_aimed_by_more_than_the_spread_is_not_shipped():
    """train-photos is 0.4 better, within the floor; a set named alone means its at-the-table right."""
    assert verdict(real_sets(), parse_aims("train-photos"), 0.5) == (
        "verdict: keep the shipped nets (not better where aimed: train-photos at the table right % 84.6 -> 85.0, "
        "+0.4 <= spread 0.6)")


def test_aims_name_a_set_and_a_figure_it_has():
    assert parse_aims("oblique, desk:invented") == (("oblique", None), ("desk", "invented"))
    with pytest.raises(AimError, match="--aim 'dev:speed': name a set, or SET:FIGURE"):
        parse_aims("dev:speed")
    with pytest.raises(AimError, match="--aim colour: not measured"):
        aimed(real_sets(), parse_aims("colour"))


@pytest.fixture
def photo_folder(tmp_path):
    """Three boxed synthetic photos named as the grey camera's, the colour tray's and another set's."""
    rng = np.random.default_rng(8)
    (tmp_path / "images").mkdir()
    rows, boxes = ["file,values,split"], ["file,x0,y0,x1,y1,value"]
    for name, split in (("rune55_01.png", "valid"), ("rune55_PXL_1.png", "test"), ("other_1.png", "valid")):
        image, dice = render_tray(sorted(int(v) for v in rng.integers(1, 7, 3)), rng)
        cv2.imwrite(str(tmp_path / "images" / name), image)
        rows.append(f"{name},{' '.join(str(d.value) for d in dice)},{split}")
        boxes += [f"{name},{x - s / 2},{y - s / 2},{x + s / 2},{y + s / 2},{d.value}" for d in dice for x, y, s in [d.box()]]
    (tmp_path / "manifest.csv").write_text("\n".join(rows) + "\n")
    (tmp_path / "boxes.csv").write_text("\n".join(boxes) + "\n")
    return tmp_path


def test_the_shipped_nets_against_their_own_copies_differ_nowhere_and_are_kept(photo_folder, tmp_path, capsys):
    candidate = tmp_path / "candidate"
    candidate.mkdir()
    for field, name in NET_FILES.items():
        shutil.copy(getattr(DEFAULT_PARAMS, field), candidate / name)
    folders = ["--dev", str(photo_folder), "--train-photos", str(photo_folder), "--oblique", str(tmp_path / "none")]
    assert main(["compare-vision", str(candidate), "--aim", "dev", "--trays", "2", *folders]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"oblique: left out, no folder {tmp_path / 'none'} (make it: python -m vision.training.render3d")
    rows = [line for line in lines if line.startswith("| ") and "→" in line]
    assert [row.split(" (")[0] for row in rows] == [
        "| dev", "| train-photos", "| grey", "| colour", "| 4 dice", "| 5 dice", "| touching", "| clutter", "| garbage",
        "| desk", "| crowd"]
    assert rows[0].startswith("| dev (3 photos) |") and rows[2].startswith("| grey (1 photo) |")
    cells = [cell.strip() for row in rows for cell in row.strip("|").split("|")[1:]]
    assert len(cells) == 4 * 7 + 7 * 4 and all(cell.split(" → ")[0] == cell.split(" → ")[1] for cell in cells)
    assert lines[-1] == "verdict: keep the shipped nets (the candidate reads every set exactly as they do)"


def test_compare_vision_refuses_an_aim_at_a_set_it_cannot_read_before_reading(tmp_path, capsys):
    candidate = tmp_path / "candidate"
    candidate.mkdir()
    shutil.copy(DEFAULT_PARAMS.detector_model, candidate)
    assert main(["compare-vision", str(candidate), "--aim", "oblique", "--oblique", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.startswith("dice-companion: --aim oblique: not measured (measured: 4 dice, 5 dice,")
    assert main(["compare-vision", str(tmp_path / "none"), "--aim", "dev"]) == 2
    assert capsys.readouterr().err == f"dice-companion: {tmp_path / 'none'}: no such folder of candidate nets\n"


def test_a_candidates_leaning_classifier_is_read_at_the_threshold_it_was_chosen_with(tmp_path, capsys, monkeypatch):
    shutil.copy(DEFAULT_PARAMS.classifier_model, tmp_path / NET_FILES["leaning_classifier_model"])
    told = candidate_nets(tmp_path, "candidate", leaning_threshold=0.85).params
    assert told.leaning_classifier_model == tmp_path / "dice-classifier-leaning.onnx"
    assert told.leaning_min_value_probability == 0.85
    assert told.min_value_probability == DEFAULT_PARAMS.min_value_probability, "a camera straight down is untouched"
    assert candidate_nets(tmp_path, "candidate").params.leaning_min_value_probability == \
        DEFAULT_PARAMS.leaning_min_value_probability
    told_command = {}
    monkeypatch.setattr("firmware.vision_compare.compare_command",
                        lambda *args, **kwargs: told_command.update(kwargs) or 0)
    assert main(["compare-vision", str(tmp_path), "--aim", "dev", "--leaning-threshold", "0.85"]) == 0
    assert told_command["leaning_threshold"] == 0.85
    with pytest.raises(SystemExit):
        main(["compare-vision", str(tmp_path), "--aim", "dev", "--leaning-threshold", "1.5"])
    assert capsys.readouterr().err.strip().splitlines()[-1].endswith(
        "argument --leaning-threshold: must be a probability from 0 to 1, such as 0.8, got '1.5'")
