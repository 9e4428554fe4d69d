"""The reviewed corrections of wrong labels: applied to the right box when a set is read, never to another."""

from pathlib import Path

import pytest

from vision.measure.evaluation import read_boxes, read_manifest
from vision.measure.label_corrections import CORRECTIONS, Correction, corrected, corrections

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


def test_a_die_the_labels_leave_out_is_added_with_its_face():
    fix = table(Correction("a_1.jpg", (130.0, 10.0, 150.0, 30.0), 0, 3, "three pips, unlabelled"))
    assert corrected("a_1.jpg", (2, 5, 5), BOXES, fix) == ((2, 3, 5, 5), (*BOXES, (130.0, 10.0, 150.0, 30.0, 3)))


def test_a_malformed_list_names_its_line(tmp_path):
    bad = tmp_path / "corrections.csv"
    bad.write_text("file,x0,y0,x1,y1,old,new,why\na.jpg,1,2,3,4,5,5,same\n")
    with pytest.raises(ValueError, match="line 2"):
        corrections(bad)


def test_every_reviewed_correction_says_why():
    rows = [c for file in corrections().values() for c in file]
    assert rows and all(c.why.strip() for c in rows)


@pytest.mark.skipif(not (SHARED / "dice-photos" / "boxes.csv").is_file(), reason="the shared photo sets are not here")
def test_every_reviewed_correction_names_exactly_one_labelled_box_of_the_sets_or_adds_a_die_beside_them():
    boxes = {**read_boxes(SHARED / "dice-photos"), **read_boxes(SHARED / "train-photos")}
    for file, rows in corrections().items():
        for c in rows:
            if c.adds_a_die:  # where no labelled die lies: its centre in no labelled box
                x, y = (c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2
                assert not any(b[0] <= x <= b[2] and b[1] <= y <= b[3] for b in boxes[file]), (file, c)
            else:
                assert sum(c.names(box) for box in boxes[file]) == 1, (file, c)


@pytest.mark.skipif(not (SHARED / "dice-photos" / "boxes.csv").is_file(), reason="the shared photo sets are not here")
def test_a_set_is_read_with_the_corrections_and_without_them_when_asked():
    folder = SHARED / "dice-photos"
    fixed = {p.file: p for p in read_manifest(folder)}
    raw = {p.file: p for p in read_manifest(folder, corrected=False)}
    changed = {file for file in raw if raw[file] != fixed[file]}
    assert changed == {file for file in corrections() if file in raw}
    assert CORRECTIONS.is_file()


HEADER = "file,x0,y0,x1,y1,old,new,why\n"


@pytest.mark.parametrize(("body", "said"), [
    (HEADER.encode() + b"a.jpg,1,2,3,4,5,6,caf\xe9\n", r"line 2: a byte that is not UTF-8 \(0xe9\)"),
    ((HEADER + "a.jpg,1,2,3,4,5,6," + "x" * 140_000 + "\n").encode(), r"line 2: not a CSV row"),
    ((HEADER + "a.jpg,1,2,3,4,5,6,fine\na.jpg,one,2,3,4,5,6,words\n").encode(), r"line 3: needs file, .* as numbers"),
    ((HEADER + "a.jpg,nan,2,3,4,5,6,not a box\n").encode(), r"line 2: the box \(nan, 2, 3, 4\) must be finite"),
    ((HEADER + "a.jpg,1,2,3,inf,5,6,not a box\n").encode(), r"line 2: the box .* must be finite"),
    ((HEADER + "a.jpg,1,2,3,4,5,6,six\nb.jpg,1,2,3,4,5,4,other file\na.jpg,1.2,2,3,4,5,4,four\n").encode(),
     r"lines 2 and 4: both correct a.jpg's box \(1.2, 2, 3, 4\), to 6 and to 4"),
    (b"x" * (2 << 20), r"larger than 1048576 bytes"),
])
def test_a_damaged_list_is_refused_in_one_line_naming_the_file_and_row(tmp_path, body, said):
    """Issue 43: these gave a traceback or were taken silently."""
    from vision.measure.label_corrections import CorrectionsError

    bad = tmp_path / "corrections.csv"
    bad.write_bytes(body)
    with pytest.raises(CorrectionsError, match=said) as error:
        corrections(bad)
    assert str(error.value).startswith(str(bad)) and "\n" not in str(error.value)


def test_a_pipe_in_place_of_the_list_is_refused_without_waiting_on_it(tmp_path):
    import os
    import threading

    from waiting import HANG_S

    from vision.measure.label_corrections import CorrectionsError

    pipe = tmp_path / "corrections.csv"
    os.mkfifo(pipe)
    said: list[str] = []

    def read() -> None:
        try:
            corrections(pipe)
        except CorrectionsError as error:
            said.append(str(error))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(HANG_S)
    assert said == [f"{pipe}: is no regular file"]


def test_a_folder_in_place_of_the_list_is_refused_naming_it(tmp_path):
    """It raised "[Errno 21] Is a directory: 3", naming neither the file nor what to do."""
    from vision.measure.label_corrections import CorrectionsError

    folder = tmp_path / "corrections.csv"
    folder.mkdir()
    with pytest.raises(CorrectionsError) as error:
        corrections(folder)
    assert str(error.value) == f"{folder}: is no regular file"


def test_eval_vision_says_what_is_wrong_with_the_list_in_one_line(tmp_path, monkeypatch, capsys):
    from firmware.cli import main
    from vision.measure import label_corrections

    photos = tmp_path / "photos"
    (photos / "images").mkdir(parents=True)
    (photos / "manifest.csv").write_text("file,values\na_1.jpg,2\n")
    bad = tmp_path / "corrections.csv"
    bad.write_bytes(HEADER.encode() + b"a_1.jpg,1,2,3,4,5,6,\xff\n")
    read = label_corrections.corrections.__wrapped__  # the list itself, not the project's cached one
    monkeypatch.setattr(label_corrections, "corrections", lambda: read(bad))
    assert main(["eval-vision", str(photos)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 2: a byte that is not UTF-8" in err[0]
