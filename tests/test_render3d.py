"""The 3D training renderer: exact labels on a tiny path-traced tray, and rendered folders read back.

Mitsuba comes only with the train extra; CI installs the test extra, so the rendering tests skip there.
"""

import json
from dataclasses import replace

import numpy as np
import pytest

from vision.read.classify import far_side_direction
from vision.training import render3d
from vision.training.render3d import PARAMS, face_up, load_rendered, render_folder, render_scene, scene_rng


def _mitsuba_installed() -> bool:
    try:
        import mitsuba  # noqa: F401
    except ImportError:
        return False
    return True


needs_mitsuba = pytest.mark.skipif(
    not _mitsuba_installed(),
    reason="Mitsuba 3 is not installed: only the train extra has it (pip install '.[train]'), CI the test extra",
)

TINY = replace(PARAMS, dice=(1, 2), image_sizes=((128, 96),), spp=4, fill=(0.5, 0.6), clutter_share=0.0,
               motion_blur_share=0.0, face_cells=12, atlas_face_px=32)


@pytest.mark.parametrize("value", range(1, 7))
def test_the_face_turned_up_is_the_value_asked_for(value):
    for turn in np.linspace(0, 2 * np.pi, 7):
        assert face_up(render3d.rotation_putting_up(value, turn)) == value


def test_opposite_faces_add_to_seven():
    by_normal = {normal: value for normal, _, _, value in render3d.FACES}
    assert all(value + by_normal[tuple(-c for c in normal)] == 7 for normal, value in by_normal.items())


@needs_mitsuba
def test_a_tiny_scene_has_readable_labels_and_dice_where_its_boxes_are():
    image, dice, _, _ = render_scene(scene_rng(3, 0), TINY)
    height, width = image.shape[:2]
    assert (width, height) == (128, 96) and 1 <= len(dice) <= 2
    table = np.concatenate([image[:4].reshape(-1, 3), image[-4:].reshape(-1, 3)]).astype(float)
    for x, y, side, value in dice:
        assert value in range(1, 7)
        assert 0 <= x - side / 2 and x + side / 2 <= width and 0 <= y - side / 2 and y + side / 2 <= height
        box = image[int(y - side / 4) : int(y + side / 4), int(x - side / 4) : int(x + side / 4)].reshape(-1, 3)
        unlike_table = np.abs(box.astype(float) - np.median(table, axis=0)).max(axis=1) > 25
        assert unlike_table.mean() > 0.3, "the middle of a die's box shows the table"


@needs_mitsuba
def test_each_label_box_is_the_box_of_the_rendered_die_to_a_pixel():
    """Each die alone, white on black: its lit pixels span its projected mesh, give or take the pixel grid."""
    rng = scene_rng(11, 0)
    dice = render3d._dice(rng, TINY)
    camera = render3d._camera(dice, rng, TINY)
    mi = render3d._mitsuba()
    for die in dice:
        scene = mi.load_dict({
            "type": "scene", "integrator": {"type": "direct", "hide_emitters": True}, "sky": {"type": "constant"},
            "die": render3d._mitsuba_mesh("die", die.mesh, {"type": "diffuse"}),
            "sensor": {"type": "perspective", "fov": camera.fov_x, "fov_axis": "x",
                       "to_world": mi.ScalarTransform4f().look_at(origin=camera.origin, target=camera.target,
                                                                  up=camera.up),
                       "film": {"type": "hdrfilm", "width": 128, "height": 96, "rfilter": {"type": "box"}},
                       "sampler": {"type": "independent", "sample_count": 16}},
        })
        ys, xs = np.nonzero(np.array(mi.render(scene))[..., :3].sum(axis=2) > 0.02)
        edges = camera.project(die.vertices)
        assert np.allclose([xs.min(), ys.min()], edges.min(axis=0), atol=1.0)
        assert np.allclose([xs.max() + 1, ys.max() + 1], edges.max(axis=0), atol=1.0)


@needs_mitsuba
def test_the_camera_projects_its_target_to_the_middle_of_the_picture():
    camera = render3d.Camera((30.0, -40.0, 300.0), (0.0, 0.0, 0.0), (0.0, 1.0, 0.0), 50.0, (400, 300))
    assert np.allclose(camera.project(np.zeros((1, 3))), [[200, 150]], atol=1e-3)


@needs_mitsuba
def test_rendered_folders_read_back_and_resume_without_rendering_again(tmp_path):
    assert render_folder(tmp_path, 2, seed=4, params=TINY) == 2
    scenes = load_rendered(tmp_path)
    assert [s.name for s in scenes] == ["render3d-s4-00000.png", "render3d-s4-00001.png"]
    image, dice, up, _ = render_scene(scene_rng(4, 1), TINY)
    assert np.allclose(scenes[1].dice, dice, atol=0.01) and scenes[1].up == _degrees(up)
    assert np.array_equal(scenes[1].image, image), "a scene renders alike alone and in a run"
    with (tmp_path / render3d.LABELS).open("a") as labels:
        labels.write('{"file": "render3d-s4-000')  # a stop while the next scene's labels were written
    assert render_folder(tmp_path, 3, seed=4, params=TINY) == 1
    assert len(load_rendered(tmp_path)) == 3


@needs_mitsuba
def test_a_rendered_photo_set_is_measured_by_eval_vision_with_the_face_turned_up(tmp_path):
    from vision.measure.evaluation import read_manifest

    tilted = replace(TINY, tilt=(20.0, 40.0))
    assert render_folder(tmp_path / "images", 2, seed=4, params=tilted) == 2
    assert render3d.write_photo_set(tmp_path) == 2
    photos = read_manifest(tmp_path)
    scenes = load_rendered(tmp_path / "images")
    for photo, scene in zip(photos, scenes):
        assert photo.file == scene.name and photo.values == tuple(sorted(d[3] for d in scene.dice))
        assert [b[4] for b in photo.boxes] == [d[3] for d in scene.dice]
        assert all(abs((b[0] + b[2]) / 2 - d[0]) < 0.01 and abs(b[2] - b[0] - d[2]) < 0.02
                   for b, d in zip(photo.boxes, scene.dice))
        assert photo.up == _degrees(scene.up), "each photo says where its camera's far side lies"


@needs_mitsuba
def test_each_die_s_top_face_lies_in_its_box_towards_the_camera_s_far_side(tmp_path):
    """Seen obliquely a die's box holds the side face turned to the camera below its top face, so the
    top face's middle lies off the box's middle towards the far side; straight down, on it."""
    for tilt, low, high in (((25.0, 40.0), 0.05, 0.35), ((0.0, 2.0), 0.0, 0.04)):
        folder = tmp_path / str(tilt[0])
        render_folder(folder, 3, seed=6, params=replace(TINY, tilt=tilt))
        for boxed, topped in zip(load_rendered(folder), load_rendered(folder, top_faces=True)):
            assert boxed.name == topped.name and boxed.up == topped.up
            for (bx, by, side, value), (tx, ty, top_side, top_value) in zip(boxed.dice, topped.dice):
                assert (side, value) == (top_side, top_value), "the box's size and the face are kept"
                assert low * side <= np.hypot(tx - bx, ty - by) <= high * side
                if tilt[0] > 0:
                    assert boxed.up is not None, "a leaning camera has a far side"
                    ux, uy = far_side_direction(boxed.up)
                    assert (tx - bx) * ux + (ty - by) * uy > 0.8 * np.hypot(tx - bx, ty - by)


@needs_mitsuba
@pytest.mark.parametrize(("tops", "message"), [
    (None, r"no top face for each die .*render the folder anew"),
    ([], r"no top face for each die"),
    ([[1.0]], r"a top face must be \[x, y\] pixels, got \[1.0\]"),
    ([["a", 1]], r"a top face must be"),
    ([None], r"a top face must be"),
    ([[float("nan"), 1.0]], r"a top face must be"),
])
def test_scenes_without_a_top_face_for_each_die_are_refused_for_them_naming_the_scene(tmp_path, tops, message):
    """Rendered before top faces were written, or their labels damaged: the boxes still read."""
    render_folder(tmp_path, 1, seed=4, params=replace(TINY, dice=(1, 1)))
    labels = tmp_path / render3d.LABELS
    row = {key: value for key, value in json.loads(labels.read_text()).items() if key != "tops"}
    labels.write_text(json.dumps(row if tops is None else row | {"tops": tops}) + "\n")
    assert len(load_rendered(tmp_path)[0].dice) == 1, "their boxes read as ever"
    with pytest.raises(ValueError, match=r"render3d-s4-00000.png: " + message):
        load_rendered(tmp_path, top_faces=True)


def _degrees(up):
    return None if up is None else pytest.approx(up, abs=0.05)


@needs_mitsuba
@pytest.mark.parametrize("bad", ['"left"', "true", "[1]"])
def test_a_rendered_scene_whose_far_side_is_no_angle_is_refused_naming_it(tmp_path, bad):
    assert render_folder(tmp_path, 1, seed=4, params=TINY) == 1
    labels = tmp_path / render3d.LABELS
    row = labels.read_text().splitlines()[0]
    labels.write_text(row[: row.index('"up"')] + f'"up": {bad}}}\n')
    with pytest.raises(ValueError, match=r"render3d-s4-00000.png: up must be degrees"):
        load_rendered(tmp_path)


@needs_mitsuba
def test_a_camera_straight_above_has_no_far_side():
    camera = render3d.Camera((0.0, -10.0, 400.0), (0.0, 0.0, 0.0), (0.0, 1.0, 0.0), 50.0, (320, 240))
    assert camera.far_side() is None


@needs_mitsuba
@pytest.mark.parametrize(("roll", "far_side"), [(0.0, 0.0), (90.0, 270.0), (180.0, 180.0), (-90.0, 90.0)])
def test_the_camera_far_side_is_where_the_table_runs_away_from_it(roll, far_side):
    """A camera south of the dice looking north and down, its picture's top turned ``roll`` degrees
    from north towards west: the table's far side (north) then lies that far the other way round."""
    turn = np.radians(90.0 + roll)  # the picture's top is north (+y) when not turned
    camera = render3d.Camera((0.0, -300.0, 400.0), (0.0, 0.0, 0.0), (np.cos(turn), np.sin(turn), 0.0), 50.0, (320, 240))
    assert min(abs(camera.far_side() - far_side), 360 - abs(camera.far_side() - far_side)) < 0.5
