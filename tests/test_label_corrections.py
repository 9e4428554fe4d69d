"""The reviewed corrections of wrong labels: applied to the right box when a set is read, never to another."""

from pathlib import Path

import pytest

from vision.evaluation import read_boxes, read_manifest
from vision.label_corrections import CORRECTIONS, Correction, corrected, corrections

BOXES = ((10.0, 10.0, 30.0, 30.0, 2), (50.0, 10.0, 70.0, 30.0, 5), (90.0, 10.0, 110.0, 30.0, 5))
SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def table(*rows: Correction) -> dict[str, tuple[Correction, ...]]:
    return {"a_1.jpg": rows}


def test_a_correction_changes_its_box_and_the_photos_values():
    fix = table(Correction("a_1.jpg", (50.0, 10.0, 70.0, 30.0), 5, 6, "six pips"))
    values, boxes = corrected("a_1.jpg", (2, 5, 5), BOXES, fix)
    assert values == (2, 5, 6)
    assert boxes == (BOXES[0], (50.0, 10.0, 70.0, 30.0, 6), BOXES[2])


def test_a_face_that_cannot_be_read_becomes_unclear():
    fix = table(Correction("a_1.jpg", (10.0, 10.0, 30.0, 30.0), 2, 0, "blurred"))
    assert corrected("a_1.jpg", (2, 5, 5), BOXES, fix) == ((0, 5, 5), ((10.0, 10.0, 30.0, 30.0, 0), *BOXES[1:]))


def test_a_correction_of_another_box_or_value_or_file_changes_nothing():
    for wrong in (Correction("a_1.jpg", (51.0, 10.0, 70.0, 30.0), 5, 6, "elsewhere"),
                  Correction("a_1.jpg", (50.0, 10.0, 70.0, 30.0), 4, 6, "another old value")):
        assert corrected("a_1.jpg", (2, 5, 5), BOXES, table(wrong)) == ((2, 5, 5), BOXES)
    assert corrected("b_1.jpg", (2, 5, 5), BOXES, table(Correction("a_1.jpg", BOXES[1][:4], 5, 6, ""))) == ((2, 5, 5), BOXES)


def test_a_malformed_list_names_its_line(tmp_path):
    bad = tmp_path / "corrections.csv"
    bad.write_text("file,x0,y0,x1,y1,old,new,why\na.jpg,1,2,3,4,5,5,same\n")
    with pytest.raises(ValueError, match="line 2"):
        corrections(bad)


def test_every_reviewed_correction_says_why():
    rows = [c for file in corrections().values() for c in file]
    assert rows and all(c.why.strip() for c in rows)


@pytest.mark.skipif(not (SHARED / "dice-photos" / "boxes.csv").is_file(), reason="the shared photo sets are not here")
def test_every_reviewed_correction_names_exactly_one_labelled_box_of_the_sets():
    boxes = {**read_boxes(SHARED / "dice-photos"), **read_boxes(SHARED / "train-photos")}
    for file, rows in corrections().items():
        for c in rows:
            assert sum(c.names(box) for box in boxes[file]) == 1, (file, c)


@pytest.mark.skipif(not (SHARED / "dice-photos" / "boxes.csv").is_file(), reason="the shared photo sets are not here")
def test_a_set_is_read_with_the_corrections_and_without_them_when_asked():
    folder = SHARED / "dice-photos"
    fixed = {p.file: p for p in read_manifest(folder)}
    raw = {p.file: p for p in read_manifest(folder, corrected=False)}
    changed = {file for file in raw if raw[file] != fixed[file]}
    assert changed == {file for file in corrections() if file in raw}
    assert CORRECTIONS.is_file()
