"""`read`, `eval-vision` and `bench-vision` on a small synthetic photo folder made on the spot."""

import re

import cv2
import numpy as np
import pytest

from bad_files import huge_png
from firmware.cli import main
from vision.read.image_file import ImageFileError, read_image
from vision.scenes.synthetic import render_tray

OVERALL = re.compile(r"overall: per-die \d+\.\d% per-photo \d+\.\d% count \d+\.\d% silent \d+\.\d% median-ms \d+\.\d")


@pytest.fixture
def photo_folder(tmp_path):
    """Six synthetic photos in the dataset layout, one of them labelled wrongly on purpose."""
    rng = np.random.default_rng(3)
    (tmp_path / "images").mkdir()
    rows = ["file,values,n_dice"]
    for index in range(6):
        values = sorted(int(v) for v in rng.integers(1, 7, 4))
        image, _ = render_tray(values, rng)
        name = f"{'synth' if index < 4 else 'other'}_{index}.png"
        cv2.imwrite(str(tmp_path / "images" / name), image)
        label = values if index != 5 else [6, 6, 6, 6, 6]
        rows.append(f"{name},{' '.join(map(str, label))},{len(label)}")
    (tmp_path / "manifest.csv").write_text("\n".join(rows) + "\n")
    return tmp_path


def test_eval_vision_prints_groups_then_the_overall_line(photo_folder, tmp_path, capsys):
    failures = tmp_path / "failures"
    assert main(["eval-vision", str(photo_folder), "--failures", str(failures)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("other: ") and lines[1].startswith("synth: ")
    assert "per-die 100.0% per-photo 100.0% count 100.0%" in lines[1]
    assert OVERALL.fullmatch(lines[-1])
    assert "per-photo 83.3% count 83.3% silent 0.0%" in lines[-1]
    assert [p.name for p in failures.iterdir()] == ["other_5.png"]


def test_eval_vision_at_the_table_ends_with_the_table_line(photo_folder, capsys):
    """Each photo read knowing its labelled count: the photo labelled with five dice is refused."""
    assert main(["eval-vision", str(photo_folder), "--table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert OVERALL.fullmatch(lines[-2])
    assert lines[-1] == "table: right 83.3% refused 16.7% silent 0.0%"


def test_eval_vision_reads_each_photo_with_its_own_up_and_says_how_many_have_none(photo_folder, capsys):
    """By default each photo is read told its manifest's ``up``; a set without the column is read from
    straight above and says nothing, a set where only some photos have it says how many do not."""
    assert main(["eval-vision", str(photo_folder)]) == 0
    assert "--up photo" not in capsys.readouterr().out, "a set of cameras straight down, as labelled sets are"
    manifest = photo_folder / "manifest.csv"
    rows = manifest.read_text().splitlines()
    manifest.write_text("\n".join([rows[0] + ",up", rows[1] + ",90", *(row + "," for row in rows[2:])]) + "\n")
    assert main(["eval-vision", str(photo_folder), "--up", "photo"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"--up photo: 5 of 6 photos have no 'up' in {manifest}: read as seen from straight above"
    assert OVERALL.fullmatch(lines[-1])
    assert main(["eval-vision", str(photo_folder), "--up", "90"]) == 0
    assert "--up photo" not in capsys.readouterr().out, "only when each photo's own was asked for"


def test_eval_vision_without_a_manifest_says_so(tmp_path, capsys):
    assert main(["eval-vision", str(tmp_path)]) == 2
    assert "manifest.csv not found" in capsys.readouterr().err


def test_read_prints_the_values_and_writes_the_annotated_picture(photo_folder, tmp_path, capsys):
    out = tmp_path / "annotated.png"
    assert main(["read", str(photo_folder / "images" / "synth_0.png"), "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"4 dice: [1-6] [1-6] [1-6] [1-6]", lines[0])
    assert len([line for line in lines if line.startswith("die ")]) == 4
    assert cv2.imread(str(out)) is not None


def test_read_refuses_an_out_file_that_is_not_a_png_before_reading(photo_folder, tmp_path, capsys):
    out = tmp_path / "x.txt"
    assert main(["read", str(photo_folder / "images" / "synth_0.png"), "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and not out.exists()
    assert captured.err == f"dice-companion: --out {out}: the annotated picture is written as a PNG: name a .png file\n"


def test_one_die_is_said_in_the_singular():
    from vision.read.reading import DiceReading, Die

    five = Die(5, (10.0, 10.0), 20.0, 0.99)
    assert DiceReading((five,)).summary() == "1 die: 5"
    assert DiceReading((five, five)).summary() == "2 dice: 5 5"


def test_read_an_unreadable_file_is_a_clear_error(tmp_path, capsys):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not a jpeg")
    assert main(["read", str(broken)]) == 2
    assert f"cannot decode {broken} as an image" in capsys.readouterr().err
    assert main(["read", str(tmp_path / "nothing.jpg")]) == 2
    assert "no image file at" in capsys.readouterr().err


def test_read_a_png_claiming_100000_by_100000_pixels_is_refused_in_one_line(tmp_path, capsys):
    bomb = huge_png(tmp_path / "bomb.png")
    assert main(["read", str(bomb)]) == 2
    assert capsys.readouterr().err == (
        f"dice-companion: {bomb} claims more than 178 megapixels; at most 50 megapixels are read\n"
    )


def test_an_image_just_over_the_limit_is_refused_with_its_size(tmp_path):
    with pytest.raises(ImageFileError, match=r"claims 8000x6251 pixels"):
        read_image(huge_png(tmp_path / "big.png", 8000, 6251))


def test_a_path_with_a_line_break_is_named_on_one_line(tmp_path):
    with pytest.raises(ImageFileError) as error:
        read_image(tmp_path / "a\nb.png")
    assert "\n" not in str(error.value) and str(error.value).endswith("/a\\nb.png'")


def test_bench_vision_says_its_threads_and_gives_opencv_its_own_back(capsys):
    before = cv2.getNumThreads()
    assert main(["bench-vision", "--trays", "1", "--threads", "2"]) == 0
    assert all(line.endswith(" threads 2") for line in capsys.readouterr().out.splitlines()[::2])
    assert cv2.getNumThreads() == before


def test_bench_vision_prints_synthetic_figures_each_kind_then_at_the_table(capsys):
    assert main(["bench-vision", "--trays", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    kinds = ["4 dice", "5 dice", "touching", "clutter", "garbage", "desk", "crowd"]
    assert [line.split(":")[0] for line in lines] == [
        f"synthetic {kind}{where}" for kind in kinds for where in ("", " at the table")]
    assert all(re.fullmatch(r"synthetic [a-z0-9 ]+: \d/3 trays exact \(\d+\.\d%\) invented \d+ count \d/3 "
                            r"(per-die \d+\.\d% )?candidates \d+\.\d median-ms \d+\.\d threads 1", line)
               for line in lines[::2])
    assert [kind for kind, line in zip(kinds, lines[::2]) if "per-die" not in line] == ["garbage"], "it has no dice"
    assert all(re.fullmatch(r"synthetic [a-z0-9 ]+ at the table: right \d+\.\d% refused \d+\.\d% "
                            r"\(extra \d unsure \d missed \d\) silent \d+\.\d% trays 3", line)
               for line in lines[1::2])
    assert lines[1] == "synthetic 4 dice at the table: right 100.0% refused 0.0% (extra 0 unsure 0 missed 0) silent 0.0% trays 3"


@pytest.mark.parametrize(("command", "or_photo"), [
    (["bench-vision", "--trays", "1"], ""), (["eval-vision", "."], " or 'photo'"), (["read", "x.png"], "")])
@pytest.mark.parametrize("bad", ["left", "nan", "inf", "Photo"])
def test_a_far_side_that_is_no_angle_is_refused_in_one_line(capsys, command, or_photo, bad):
    with pytest.raises(SystemExit) as stop:
        main([*command, "--up", bad])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(f"argument --up: must be degrees (a number such as 0 or 90){or_photo}, got '{bad}'")


def test_eval_vision_only_keeps_the_photos_whose_names_match(photo_folder, capsys):
    assert main(["eval-vision", str(photo_folder), "--only", "synth_*"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("synth: ") and "photos 4 dice 16" in lines[0] and len(lines) == 2
    assert main(["eval-vision", str(photo_folder), "--only", "nothing*"]) == 2
    assert "no photo's file name matches 'nothing*'" in capsys.readouterr().err
