"""The table's own dice in the data folder (firmware.calibration.table_dice): kept, bounded, tuned on, set aside when damaged."""

import math
from dataclasses import replace

import numpy as np
import pytest

from firmware.calibration import table_dice
from firmware.calibration.table_dice import EXAMPLES_NAME, LAYER_NAME, TableDice
from firmware.calibration.table_dice import summary
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import read_dice
from vision.read.table_tuning import MIN_PER_FACE
from vision.scenes.synthetic import render_tray


def one_pip_more(value):
    return value % 6 + 1


def play_throws(dice, count, seed=3, label=one_pip_more):
    """``count`` throws of four dice confirmed by the players as ``label`` of the face drawn."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        image, placed = render_tray(tuple(int(v) for v in rng.integers(1, 7, 4)), rng)
        reading = dice.read(image)
        values = [label(min(placed, key=lambda d: math.dist(d.centre, die.centre)).value) for die in reading.dice]
        dice.confirm(image, reading.dice, values)


@pytest.fixture(scope="module")
def odd_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    dice = TableDice(folder, "odd set", background=False)
    play_throws(dice, 24)
    dice.refit()
    return folder


def test_confirmed_dice_are_kept_and_the_layer_tuned_on_them_reads_the_table(odd_folder):
    dice = TableDice(odd_folder, "odd set", background=False)
    assert sum(dice.counts()) == 96 and min(dice.counts()) >= MIN_PER_FACE
    assert dice.in_use is not None and dice.layer.held_out_right > dice.layer.shipped_right
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert dice.read(image).values == (2, 3, 4, 5)


def test_another_dice_set_starts_without_the_first_sets_examples_or_layer(odd_folder):
    dice = TableDice(odd_folder, "red casino", background=False)
    assert dice.counts() == [0] * 6 and dice.layer is None
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert dice.read(image).values == (1, 2, 3, 4)


def test_a_layer_no_better_than_the_shipped_one_is_kept_but_not_used(tmp_path):
    dice = TableDice(tmp_path, "plain", background=False)
    play_throws(dice, 8, seed=5, label=lambda value: value)
    dice.refit()
    assert dice.layer is not None and not dice.layer.improves and dice.in_use is None


@pytest.mark.parametrize("name", [EXAMPLES_NAME, LAYER_NAME])
@pytest.mark.parametrize("content", [b"", b"PK\x03\x04 not a zip", b"\x93NUMPY garbage"], ids=["empty", "broken", "foreign"])
def test_a_damaged_file_is_kept_aside_and_the_table_starts_afresh(odd_folder, tmp_path, name, content):
    for file in odd_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    (tmp_path / name).write_bytes(content)
    dice = TableDice(tmp_path, "odd set", background=False)
    assert dice.notices == [f"{name} kept aside"]
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(f"{name}.unreadable-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content
    assert (sum(dice.counts()) == 0) == (name == EXAMPLES_NAME)
    assert dice.layer is None, "damaged, or with no examples left to check it on: not used"


def test_an_examples_file_of_another_program_is_foreign(tmp_path):
    np.savez(tmp_path / EXAMPLES_NAME, format=np.array("something else"), crops=np.zeros((0, 48, 48, 3), np.uint8))
    assert TableDice(tmp_path, "x", background=False).notices == [f"{EXAMPLES_NAME} kept aside"]


def test_the_examples_are_bounded_and_the_most_common_face_gives_way_first(tmp_path, monkeypatch):
    monkeypatch.setattr(table_dice, "EXAMPLES_KEPT", 20)
    dice = TableDice(tmp_path, "set", background=False)
    image, _ = render_tray((6, 6, 6, 6), np.random.default_rng(2))
    reading = read_dice(image)
    for _ in range(5):
        dice.confirm(image, reading.dice, [6, 6, 6, 6])
    threes, _ = render_tray((3, 3, 3, 3), np.random.default_rng(4))
    three_dice = read_dice(threes).dice
    for _ in range(2):
        dice.confirm(threes, three_dice, [3, 3, 3, 3])
    assert dice.counts() == [0, 0, 8, 0, 0, 12]


def test_forget_drops_the_examples_and_the_layer(odd_folder, tmp_path):
    for file in odd_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    dice = TableDice(tmp_path, "odd set", background=False)
    dice.forget()
    assert sorted(p.name for p in tmp_path.iterdir()) == [] and dice.in_use is None
    assert TableDice(tmp_path, "odd set", background=False).counts() == [0] * 6


def test_the_background_thread_saves_and_refits_and_close_waits_for_it(tmp_path, monkeypatch):
    monkeypatch.setattr(table_dice, "REFIT_AFTER", 4)
    dice = TableDice(tmp_path, "odd set")
    play_throws(dice, 4)
    dice.close()
    assert (tmp_path / EXAMPLES_NAME).is_file() and (tmp_path / LAYER_NAME).is_file()
    assert TableDice(tmp_path, "odd set", background=False).counts() == dice.counts()


def test_a_damaged_examples_file_is_said_on_the_screen_at_start(tmp_path):
    from firmware.table.start import dice_notice

    (tmp_path / EXAMPLES_NAME).write_bytes(b"garbage")
    notice = dice_notice(TableDice(tmp_path, "white", background=False))
    assert notice.title == "Dice examples reset" and "kept aside" in " ".join(notice.lines)
    assert dice_notice(TableDice(tmp_path, "white", background=False)) is None, "said once: the file was moved"


def test_a_layer_that_costs_the_players_more_corrections_than_the_shipped_one_is_dropped_and_said(odd_folder, tmp_path):
    """The odd set's layer in use; the players then confirm dice as drawn (the shipped layer reads
    them right, the tuned one reads each one pip more): dropped at once, stored so, said on the page."""
    for file in odd_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    dice = TableDice(tmp_path, "odd set", background=False)
    assert dice.in_use is not None
    play_throws(dice, 1, seed=11, label=lambda value: value)
    assert dice.in_use is None
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert dice.read(image).values == (1, 2, 3, 4)
    assert TableDice(tmp_path, "odd set", background=False).in_use is None, "dropped for good, until refitted"
    layer = summary(tmp_path)["layer"]
    assert layer["in_use"] is False and layer["dropped"] == (
        "the players corrected 4 dice under the tuned layer; the shipped one would have got 0 wrong")


def test_a_layer_that_reads_the_table_right_stays_in_use(odd_folder, tmp_path):
    for file in odd_folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    dice = TableDice(tmp_path, "odd set", background=False)
    play_throws(dice, 3, seed=11)
    assert dice.in_use is not None and dice.notices == []


def copy_of(folder, tmp_path):
    for file in folder.iterdir():
        (tmp_path / file.name).write_bytes(file.read_bytes())
    return tmp_path


def test_a_layer_stored_before_faces_were_counted_is_refitted_at_start(odd_folder, tmp_path):
    """Five figures and no count of corrections, as the code before issue 35 wrote it: loaded, not used
    until refitted, and refitted by the background thread as soon as the companion starts."""
    import io

    from vision.read.table_tuning import TableHead

    copy_of(odd_folder, tmp_path)
    layer = TableDice(tmp_path, "odd set", background=False).layer
    buffer = io.BytesIO()
    np.savez(buffer, weights=layer.weights, bias=layer.bias, figures=np.array(
        [layer.examples, layer.held_out_right, layer.shipped_right, layer.gains, layer.losses]))
    table_dice._write(tmp_path / LAYER_NAME, dice_set=np.array("odd set"), layer=np.frombuffer(buffer.getvalue(), np.uint8))
    old = TableHead.from_bytes(buffer.getvalue(), "old")
    assert old.fewest_of_a_face == -1 and not old.improves
    dice = TableDice(tmp_path, "odd set")
    dice.close()
    assert dice.in_use is not None and dice.layer.fewest_of_a_face >= MIN_PER_FACE


def test_a_layer_fitted_on_another_classifiers_features_is_not_used(odd_folder, tmp_path):
    from vision.read.table_tuning import TableHead

    copy_of(odd_folder, tmp_path)
    layer = TableDice(tmp_path, "odd set", background=False).layer
    wider = TableHead(np.zeros((7, 2 * layer.weights.shape[1])), layer.bias, layer.examples, layer.held_out_right,
                      layer.shipped_right, layer.gains, layer.losses, layer.fewest_of_a_face)
    table_dice._write(tmp_path / LAYER_NAME, dice_set=np.array("odd set"), layer=np.frombuffer(wider.to_bytes(), np.uint8))
    dice = TableDice(tmp_path, "odd set", background=False)
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert dice.layer is None and dice.read(image).values == (1, 2, 3, 4)


def npz(**arrays) -> bytes:
    import io

    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def examples_file(**changed) -> bytes:
    """A well-formed examples file of two white dice, with ``changed`` arrays in place of its own."""
    arrays = dict(format=np.array(table_dice.FORMAT), crops=np.zeros((2, 48, 48, 3), np.uint8),
                  labels=np.array([0, 5]), throws=np.array([0, 0]), sets=np.array(["white", "white"]))
    return npz(**{**arrays, **changed})


def bomb() -> bytes:
    """A small compressed file whose one member unpacks to 200 MB."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("crops.npy", b"\0" * (200 << 20))
    return buffer.getvalue()


DAMAGED_EXAMPLES = {
    "a plain .npy": lambda: b"\x93NUMPY\x01\x00v\x00{'descr': '<i8', 'fortran_order': False, 'shape': (2,), }".ljust(128) + bytes(16),
    "a header claiming 10**12 items": lambda: examples_file()[:60] + b"\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }",
    "labels as text": lambda: examples_file(labels=np.array(["1", "6"])),
    "NaN labels": lambda: examples_file(labels=np.array([np.nan, 1.0])),
    "crops of floats": lambda: examples_file(crops=np.zeros((2, 48, 48, 3), np.float64)),
    "lengths that differ": lambda: examples_file(throws=np.array([0, 0, 0])),
    "a zip bomb": bomb,
}


@pytest.mark.parametrize("kind", list(DAMAGED_EXAMPLES))
def test_an_examples_file_numpy_opens_but_the_companion_does_not_expect_is_kept_aside(tmp_path, kind):
    (tmp_path / EXAMPLES_NAME).write_bytes(DAMAGED_EXAMPLES[kind]())
    dice = TableDice(tmp_path, "white", background=False)
    assert dice.notices == [f"{EXAMPLES_NAME} kept aside"] and dice.counts() == [0] * 6
    assert not (tmp_path / EXAMPLES_NAME).exists()
    assert "problem" in summary(tmp_path)


def test_a_fifo_or_a_link_to_a_device_in_place_of_a_dice_file_never_hangs_the_start(tmp_path):
    import os

    os.mkfifo(tmp_path / EXAMPLES_NAME)
    (tmp_path / LAYER_NAME).symlink_to("/dev/zero")
    found = summary(tmp_path)
    assert "cannot be read" in found["problem"]
    dice = TableDice(tmp_path, "white", background=False)
    assert sorted(dice.notices) == sorted([f"{EXAMPLES_NAME} kept aside", f"{LAYER_NAME} kept aside"])


def test_a_layer_holding_inf_or_claiming_figures_it_does_not_earn_is_not_used(odd_folder, tmp_path):
    """A crafted layer made every die read 6 with figures saying it was better: re-checked on the
    table's stored examples before use, it is not used; one holding inf is kept aside."""
    from vision.read.table_tuning import TableHead

    plain = TableDice(tmp_path, "white", background=False)
    play_throws(plain, 6, seed=5, label=lambda value: value)
    plain.refit()
    real = TableDice(odd_folder, "odd set", background=False).layer
    bias = np.full(7, -50.0)
    bias[5] = 50.0
    sixes = TableHead(np.zeros_like(real.weights), bias, 96, 1.0, 0.0, 96, 0, 20)
    assert sixes.improves
    table_dice._write(tmp_path / LAYER_NAME, dice_set=np.array("white"), layer=np.frombuffer(sixes.to_bytes(), np.uint8))
    dice = TableDice(tmp_path, "white", background=False)
    image, _ = render_tray((1, 2, 3, 4), np.random.default_rng(99))
    assert dice.in_use is None and dice.read(image).values == (1, 2, 3, 4)
    infinite = TableHead(np.full_like(real.weights, np.inf), real.bias, 96, 1.0, 0.0, 96, 0, 20)
    table_dice._write(tmp_path / LAYER_NAME, dice_set=np.array("white"), layer=np.frombuffer(infinite.to_bytes(), np.uint8))
    assert TableDice(tmp_path, "white", background=False).notices == [f"{LAYER_NAME} kept aside"]


@pytest.mark.parametrize("name", [EXAMPLES_NAME, LAYER_NAME])
def test_random_bit_flips_near_the_headers_never_raise(odd_folder, tmp_path, name):
    """Ordinary SD-card damage: 30 seeded flips in the first 2 KB (the full run of 300 each gave 0)."""
    import random

    rng = random.Random(name)
    data = (odd_folder / name).read_bytes()
    for flip in range(30):
        folder = tmp_path / str(flip)
        folder.mkdir()
        copy_of(odd_folder, folder)
        damaged = bytearray(data)
        damaged[rng.randrange(2048)] ^= 1 << rng.randrange(8)
        (folder / name).write_bytes(bytes(damaged))
        summary(folder)
        TableDice(folder, "odd set", background=False).read(render_tray((1, 2), np.random.default_rng(flip))[0])


@pytest.mark.parametrize(("up", "own_leaning_classifier", "watched"),
                         [(None, True, [None]), (30.0, False, [30.0]), (30.0, True, [])],
                         ids=["straight down", "leaning, the straight-down classifier", "leaning, its own classifier"])
def test_the_shipped_layer_is_watched_as_the_reader_would_have_read_with_that_camera(
        odd_folder, tmp_path, monkeypatch, up, own_leaning_classifier, watched):
    """The reader reads an unsure die in other views (``face_probabilities``: turned for a camera straight
    down, mirrored for one that leans): the shipped layer's side of the watch is read so too, not from
    one view, or it would be charged corrections it never makes.
    A leaning camera with a classifier of its own reads without the table's layer: nothing to watch."""
    params = DEFAULT_PARAMS if own_leaning_classifier else replace(
        DEFAULT_PARAMS, leaning_classifier_model=DEFAULT_PARAMS.classifier_model)
    dice = TableDice(copy_of(odd_folder, tmp_path), "odd set", params, background=False)
    assert dice.in_use is not None, "the odd set's layer is in use"
    told = []
    real = table_dice.face_probabilities
    monkeypatch.setattr(table_dice, "face_probabilities", lambda crops, params: told.append(params.up) or real(crops, params))
    image, placed = render_tray((1, 2, 3, 4), np.random.default_rng(5))
    reading = dice.read(image, up=up)
    dice.confirm(image, reading.dice, [d.value for d in placed][: len(reading.dice)])
    assert told == watched
