"""A table's own last layer (vision.read.table_tuning): fitted on confirmed dice, used only when it proves better."""

import math
import re

import cv2
import numpy as np
import pytest

from firmware.cli import main
from vision.read.classify import logits_and_features
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import crops_of, read_dice
from vision.scenes.synthetic import render_tray
from vision.read.table_tuning import (
    MIN_PER_FACE,
    SIGN_TEST_LEVEL,
    Example,
    TableHead,
    shipped_layer,
    sign_test,
    tune,
    upright_views,
)


def one_pip_more(value):
    """The face a table's odd dice set is labelled with: one pip more than drawn (6 -> 1)."""
    return value % 6 + 1


def throws(count, seed=3):
    """Synthetic throws of four dice with their drawn dice, as (image, placed) pairs."""
    rng = np.random.default_rng(seed)
    return [render_tray(tuple(int(v) for v in rng.integers(1, 7, 4)), rng) for _ in range(count)]


def confirmed(image, placed, throw):
    """Each die read in the throw, with the face the players confirm (the odd set's)."""
    reading = read_dice(image)
    return [Example(crop, one_pip_more(min(placed, key=lambda d: math.dist(d.centre, die.centre)).value) - 1, throw)
            for die, crop in zip(reading.dice, crops_of(image, reading.dice))]


@pytest.fixture(scope="module")
def odd_table():
    """24 throws of an odd dice set: enough of every face (MIN_PER_FACE) for a layer to be used."""
    examples = [e for throw, (image, placed) in enumerate(throws(24)) for e in confirmed(image, placed, throw)]
    return examples, tune(examples, DEFAULT_PARAMS)


def test_the_shipped_last_layer_is_recovered_from_its_inputs_and_outputs():
    image, _ = render_tray((1, 2, 3, 4, 5, 6), np.random.default_rng(1))
    crops = upright_views(crops_of(image, read_dice(image).dice))
    logits, features = logits_and_features(crops, DEFAULT_PARAMS)
    weights, bias = shipped_layer(features, logits)
    assert np.abs(features @ weights.T + bias - logits).max() < 1e-3


def test_a_table_whose_dice_the_shipped_layer_misreads_is_learned_and_used(odd_table):
    examples, head = odd_table
    assert head.shipped_right < 0.1 and head.held_out_right > 0.9 and head.improves
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert read_dice(image).values == (1, 2, 3, 4)
    assert read_dice(image, head=head).values == (2, 3, 4, 5)


def test_a_layer_clearly_better_on_too_few_of_a_face_is_not_used(odd_table):
    examples, _ = odd_table
    head = tune([e for e in examples if e.throw < 8], DEFAULT_PARAMS)
    assert head.gains > 20 and head.losses == 0 and head.fewest_of_a_face < MIN_PER_FACE
    assert not head.enough_of_every_face and not head.improves


def test_a_handful_of_gains_does_not_pass_the_sign_test_by_luck():
    """Four gains and no loss happen by luck one time in sixteen: not proof. Seven in a row is."""
    assert sign_test(4, 0) == 1 / 16 and sign_test(4, 0) > SIGN_TEST_LEVEL
    assert sign_test(7, 0) < SIGN_TEST_LEVEL < sign_test(9, 2)
    assert sign_test(0, 0) == 1.0


def test_a_layer_no_better_than_the_shipped_one_is_not_used():
    examples = [Example(crop, d.value - 1, throw) for throw, (image, placed) in enumerate(throws(8, seed=5))
                for d, crop in zip(read_dice(image).dice, crops_of(image, read_dice(image).dice))]
    head = tune(examples, DEFAULT_PARAMS)
    assert head.shipped_right == 1.0 and not head.improves


def test_too_few_throws_tune_nothing(odd_table):
    examples, _ = odd_table
    assert tune([e for e in examples if e.throw < 3], DEFAULT_PARAMS) is None


def test_a_stored_layer_reads_back_and_damaged_bytes_are_refused(odd_table):
    _, head = odd_table
    back = TableHead.from_bytes(head.to_bytes(), "layer.npz")
    assert np.array_equal(back.weights, head.weights) and (back.gains, back.losses) == (head.gains, head.losses)
    assert back.fewest_of_a_face == head.fewest_of_a_face >= MIN_PER_FACE
    with pytest.raises(ValueError, match="layer.npz is not a table's tuned layer"):
        TableHead.from_bytes(head.to_bytes()[:100], "layer.npz")


def photo_set(folder, count, label, seed=7):
    """``count`` synthetic photos of one source in the dataset layout, each die labelled ``label(drawn)``."""
    (folder / "images").mkdir()
    rows, boxes = ["file,values,n_dice,source_repo"], ["file,x0,y0,x1,y1,value"]
    for index, (image, placed) in enumerate(throws(count, seed=seed)):
        name = f"odd_{index:02d}.png"
        cv2.imwrite(str(folder / "images" / name), image)
        values = sorted(label(index, d.value) for d in placed)
        rows.append(f"{name},{' '.join(map(str, values))},{len(values)},someone/odd-dice")
        for d in placed:
            half = d.side * (abs(math.cos(math.radians(d.angle))) + abs(math.sin(math.radians(d.angle)))) / 2
            boxes.append(f"{name},{d.centre[0] - half},{d.centre[1] - half},{d.centre[0] + half},{d.centre[1] + half},"
                         f"{label(index, d.value)}")
    (folder / "manifest.csv").write_text("\n".join(rows) + "\n")
    (folder / "boxes.csv").write_text("\n".join(boxes) + "\n")


def test_eval_vision_adapt_tunes_on_the_first_photos_of_each_source(tmp_path, capsys):
    """A source whose dice are labelled one pip more than drawn: untuned every die is wrong, tuned on
    its first 24 photos the rest are read right; the tuned figures follow the untuned ones."""
    photo_set(tmp_path, 28, lambda index, value: one_pip_more(value))
    assert main(["eval-vision", str(tmp_path), "--adapt", "24"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("adapt someone/odd-dice: tuned on the first 24 photos (") and lines[0].endswith(
        ": in use; measured on 4 photos")
    assert lines[1].startswith("untuned someone/odd-dice: per-die 0.0%") and lines[2].startswith("someone/odd-dice: ")
    assert lines[3] == "untuned table: right 0.0% refused 0.0% silent 100.0%" and lines[4].startswith("table: ")
    assert lines[5].startswith("untuned overall: per-die 0.0%") and OVERALL.fullmatch(lines[6])
    assert per_die(lines[2]) == per_die(lines[6]) >= 90.0


OVERALL = re.compile(r"overall: per-die \d+\.\d% per-photo \d+\.\d% count \d+\.\d% silent \d+\.\d% median-ms \d+\.\d")


def per_die(line):
    return float(re.search(r"per-die (\d+\.\d)%", line).group(1))


def test_a_layer_that_reads_worse_in_play_is_dropped_and_the_rest_read_untuned(tmp_path, capsys):
    """Tuned on 24 photos labelled one pip more, the source's later photos are labelled as drawn (the
    players corrected every die the tuned layer read): dropped after the first, the rest read untuned."""
    photo_set(tmp_path, 30, lambda index, value: one_pip_more(value) if index < 24 else value)
    assert main(["eval-vision", str(tmp_path), "--adapt", "24"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert ": in use, dropped in play (the players corrected 4 dice under the tuned layer; the shipped one would " \
           "have got 0 wrong); measured on 6 photos" in lines[0]
    assert per_die(lines[2]) == pytest.approx(per_die(lines[1]) * 5 / 6, abs=0.1)


def test_eval_vision_adapt_needs_boxes(tmp_path, capsys):
    (tmp_path / "images").mkdir()
    image, _ = render_tray((1, 2), np.random.default_rng(1))
    cv2.imwrite(str(tmp_path / "images" / "a.png"), image)
    (tmp_path / "manifest.csv").write_text("file,values\na.png,1 2\n")
    assert main(["eval-vision", str(tmp_path), "--adapt", "1"]) == 2
    assert "boxes.csv" in capsys.readouterr().err
