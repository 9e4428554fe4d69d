"""The evaluation's rules on a tiny hand-made manifest: location matching, extra dice, unclear labels, silent errors."""

import pytest

from vision.measure.evaluation import (
    DatasetError,
    LabelledPhoto,
    PhotoResult,
    at_threshold,
    figures,
    match_by_location,
    read_manifest,
    reliability,
    table_line,
)
from vision.read.reading import DiceReading, Die

# Two labelled dice: a 2 on the left, a 5 on the right (boxes 20 px).
BOXES = ((10.0, 10.0, 30.0, 30.0, 2), (50.0, 10.0, 70.0, 30.0, 5))
LEFT, RIGHT, ELSEWHERE = (20.0, 20.0), (60.0, 20.0), (200.0, 200.0)


def die(value, centre, confidence=0.99):
    return Die(value=value, centre=centre, size=20.0, confidence=confidence)


def result(*dice, boxes=BOXES, values=(2, 5)):
    return PhotoResult(LabelledPhoto("x_1.jpg", tuple(sorted(values)), "test", boxes), DiceReading(tuple(dice)), 1.0)


def test_right_values_on_the_right_dice_are_exact():
    r = result(die(2, LEFT), die(5, RIGHT))
    assert (r.dice_right, r.extra_dice, r.is_exact, r.is_silently_wrong) == (2, 0, True, False)


def test_values_swapped_between_dice_are_wrong_and_silent():
    """As multisets the values agree; by location neither die is right, and the companion would take it."""
    r = result(die(5, LEFT), die(2, RIGHT))
    assert (r.dice_right, r.is_exact, r.count_is_right, r.is_silently_wrong) == (0, False, True, True)


def test_a_box_drawn_tight_round_the_pips_matches_the_whole_die_read_round_it():
    """Some sets box only the pips: a die's centre off that small box, but inside the die's own box, still matches."""
    pips = ((14.0, 14.0, 24.0, 24.0, 3),)  # 10 px round the pips of a 30 px die centred at (22, 22)
    assert match_by_location(pips, (Die(3, (22.0, 22.0), 30.0, 0.99),)) == {0: 0}
    assert match_by_location(pips, (Die(3, (45.0, 22.0), 30.0, 0.99),)) == {}, "the die beside it"


def test_each_box_takes_the_nearest_die_once():
    dice = (die(5, (63.0, 20.0)), die(2, (21.0, 21.0)), die(5, (58.0, 22.0)))
    assert match_by_location(BOXES, dice) == {0: 1, 1: 2}


def test_an_extra_unreadable_die_spoils_the_photo_but_is_not_silent():
    r = result(die(2, LEFT), die(5, RIGHT), die(None, ELSEWHERE))
    assert (r.dice_right, r.extra_dice, r.is_exact, r.is_silently_wrong) == (2, 1, False, False)


def test_clutter_read_as_a_die_spoils_the_photo():
    r = result(die(2, LEFT), die(5, RIGHT), die(6, ELSEWHERE))
    assert (r.is_exact, r.count_is_right, r.is_silently_wrong) == (False, False, False)


def test_a_missing_die_and_clutter_in_its_place_is_silent():
    """Two dice read, two labelled, but one of them is a cable tag: the worst case at the table."""
    r = result(die(2, LEFT), die(5, ELSEWHERE))
    assert (r.dice_right, r.extra_dice, r.is_exact, r.is_silently_wrong) == (1, 1, False, True)


def test_an_unreadable_labelled_die_is_not_exact_and_not_silent():
    r = result(die(2, LEFT), die(None, RIGHT, 0.4))
    assert (r.dice_right, r.is_exact, r.is_silently_wrong) == (1, False, False)


def test_an_unclear_label_is_neither_counted_nor_extra():
    boxes = BOXES + ((100.0, 10.0, 120.0, 30.0, 0),)
    seen = result(die(2, LEFT), die(5, RIGHT), die(None, (110.0, 20.0)), boxes=boxes, values=(0, 2, 5))
    unseen = result(die(2, LEFT), die(5, RIGHT), boxes=boxes, values=(0, 2, 5))
    assert (seen.dice_right, seen.extra_dice, seen.is_exact) == (2, 0, True)
    assert (unseen.dice_right, unseen.extra_dice, unseen.is_exact) == (2, 0, True)
    assert figures("f", [seen]).dice == 2


def test_without_boxes_values_are_matched_as_multisets():
    r = result(die(5, LEFT), die(2, RIGHT), boxes=())
    assert (r.dice_right, r.is_exact) == (2, True)
    assert not result(die(5, LEFT), die(None, RIGHT), boxes=()).is_exact


def test_figures_count_photos_dice_and_silent_errors():
    results = [result(die(2, LEFT), die(5, RIGHT)), result(die(5, LEFT), die(2, RIGHT)),
               result(die(2, LEFT), die(None, RIGHT)), result(die(2, LEFT))]
    f = figures("overall", results)
    assert (f.photos, f.dice) == (4, 8)
    assert f.per_die == pytest.approx(100 * 4 / 8)
    assert (f.per_photo, f.count, f.silent) == (25.0, 75.0, 25.0)
    assert f.line() == "overall: per-die 50.0% per-photo 25.0% count 75.0% silent 25.0% median-ms 1.0"


def test_the_table_line_says_right_refused_and_silent_per_photo():
    results = [
        result(die(2, LEFT), die(5, RIGHT)),  # right
        result(die(5, LEFT), die(2, RIGHT)),  # silently wrong
        result(die(2, LEFT)),  # refused: a die short
        result(die(2, LEFT), die(None, RIGHT)),  # refused: one unreadable
    ]
    assert table_line(results) == "table: right 25.0% refused 50.0% silent 25.0%"


def test_a_threshold_turns_unsure_dice_unreadable():
    r = result(die(2, LEFT, 0.95), die(2, RIGHT, 0.6))  # the right one is wrong, and unsure
    assert r.is_silently_wrong
    stricter = at_threshold(r, 0.7)
    assert [d.value for d in stricter.reading.dice] == [2, None]
    assert not stricter.is_silently_wrong and not stricter.is_exact


def test_reliability_bins_dice_by_confidence_and_says_how_often_they_were_right():
    rows = reliability([result(die(2, LEFT, 0.995), die(2, RIGHT, 0.55)), result(die(2, LEFT, 0.996), die(5, RIGHT, 0.58))])
    assert [(row.low, row.dice, row.accuracy) for row in rows] == [(0.5, 2, 0.5), (0.99, 2, 1.0)]


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "manifest.csv").write_text(
        "file,values,n_dice,split\na_1.jpg,2 5,2,train\na_2.jpg,3,1,valid\nb_3.jpg,0 4,2,test\n")
    (tmp_path / "boxes.csv").write_text(
        "file,x0,y0,x1,y1,value\na_1.jpg,10,10,30,30,2\na_1.jpg,50,10,70,30,5\nb_3.jpg,1,2,3,4,0\nb_3.jpg,5,6,7,8,4\n")
    return tmp_path


def test_the_manifest_is_read_with_splits_and_boxes(folder):
    photos = read_manifest(folder)
    assert [(p.file, p.values, p.split, len(p.boxes)) for p in photos] == [
        ("a_1.jpg", (2, 5), "train", 2), ("a_2.jpg", (3,), "valid", 0), ("b_3.jpg", (0, 4), "test", 2)]
    assert [p.file for p in read_manifest(folder, ["valid", "test"])] == ["a_2.jpg", "b_3.jpg"]
    assert photos[2].clear_values == (4,)


def test_a_split_that_matches_nothing_or_a_manifest_without_splits_is_refused(folder, tmp_path):
    with pytest.raises(DatasetError, match="no rows whose split is nope"):
        read_manifest(folder, ["nope"])
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "manifest.csv").write_text("file,values\na.jpg,1\n")
    with pytest.raises(DatasetError, match="has no 'split' column"):
        read_manifest(plain, ["test"])


def test_bad_boxes_are_refused_with_the_line(folder):
    (folder / "boxes.csv").write_text("file,x0,y0,x1,y1,value\na_1.jpg,10,ten,30,30,2\n")
    with pytest.raises(DatasetError, match="boxes.csv line 2"):
        read_manifest(folder)


def test_a_manifest_may_say_where_each_photo_camera_far_side_lies(tmp_path):
    from vision.measure.evaluation import PHOTOS_OWN_UP, photo_params

    (tmp_path / "manifest.csv").write_text("file,values,up\na.png,1,90\nb.png,2,-30\nc.png,3,\n")
    photos = read_manifest(tmp_path)
    assert [p.up for p in photos] == [90.0, 330.0, None]
    assert [photo_params(p, PHOTOS_OWN_UP).up for p in photos] == [90.0, 330.0, None], "straight down where unsaid"
    assert [photo_params(p, 45.0).up for p in photos] == [45.0] * 3, "or where the command says, for every photo"


@pytest.mark.parametrize("bad", ["left", "nan", "inf"])
def test_a_far_side_that_is_no_angle_is_refused_with_its_line(tmp_path, bad):
    (tmp_path / "manifest.csv").write_text(f"file,values,up\na.png,1,0\nb.png,2,{bad}\n")
    with pytest.raises(DatasetError, match=f"manifest.csv line 3: up must be degrees .*'{bad}'"):
        read_manifest(tmp_path)
