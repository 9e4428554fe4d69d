"""`pip install .` builds out of the tree: a clone stays clean, and the wheel ships every package whole."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "vision", "hardware", "firmware")
NOT_SOURCES = ("__pycache__", "*.pyc")


def test_building_the_wheel_leaves_the_tree_as_it_was_and_ships_the_data_files(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", ".gitignore"):
        shutil.copy2(ROOT / name, source / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns(*NOT_SOURCES))
    before = sorted(str(p.relative_to(source)) for p in source.rglob("*"))

    build = subprocess.run(  # with the backend the test extra installed: no network
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index", "--no-build-isolation",
         "--wheel-dir", str(tmp_path / "wheels"), str(source)],
        capture_output=True, text=True,
    )
    assert build.returncode == 0, build.stderr

    assert sorted(str(p.relative_to(source)) for p in source.rglob("*")) == before, "the build wrote into the tree"
    (wheel,) = (tmp_path / "wheels").glob("*.whl")
    shipped = {name for name in zipfile.ZipFile(wheel).namelist() if ".dist-info/" not in name}
    files = {str(p.relative_to(source)) for package in PACKAGES for p in (source / package).rglob("*") if p.is_file()}
    assert shipped == files
    assert {"vision/models/dice-detector.onnx", "firmware/pi/dice-companion.service"} <= shipped
