"""At the table the number of dice is known: the N likeliest dice, or a refusal (``vision.read.reader.likeliest``);
a throw read short is looked at again closer (``vision.read.reader.taken``)."""

from dataclasses import replace

import numpy as np
import pytest

from vision.read import reader
from vision.read.params import DEFAULT_PARAMS
from vision.read.reader import closer_look, likeliest, taken
from vision.read.reading import DiceReading, Die

PARAMS = replace(DEFAULT_PARAMS, expected_min_presence=0.3, expected_max_extra_presence=0.6)


def die(x, value=3, presence=1.0):
    return Die(value, (x, 50.0), 20.0, 0.99, presence=presence)


CLEAR = (die(10, 1), die(40, 2), die(70, 3), die(100, 4))


def test_as_many_clear_dice_as_expected_are_the_reading():
    assert likeliest(DiceReading(CLEAR), 4, PARAMS).dice == CLEAR


def test_a_doubtful_candidate_likely_enough_is_the_missing_die():
    fourth = die(130, 6, presence=0.4)
    reading = likeliest(DiceReading(CLEAR[:3], (fourth, die(160, 5, presence=0.1))), 4, PARAMS)
    assert reading.values == (1, 2, 3, 6)


def test_a_missing_die_that_is_nowhere_likely_is_refused_with_the_dice_that_are_clear():
    reading = likeliest(DiceReading(CLEAR[:3], (die(130, 6, presence=0.2),)), 4, PARAMS)
    assert len(reading.dice) == 3


def test_one_die_too_many_that_is_clearly_a_die_is_refused():
    reading = likeliest(DiceReading(CLEAR + (die(130, 5, presence=0.7),)), 4, PARAMS)
    assert len(reading.dice) == 5


def side_face(x, y=61.0, presence=0.8):
    """A candidate 0.55 of a die below the die at ``x``: where the camera's far side is the picture's
    top, that die's side face, which the detector took for a die."""
    return Die(None, (x, y), 14.0, 0.5, presence=presence)


def test_a_leaning_cameras_side_face_taken_for_a_die_more_than_thrown_is_left_out():
    reading = DiceReading(CLEAR, (side_face(40),))
    assert likeliest(reading, 4, replace(PARAMS, up=0.0)).dice == CLEAR
    assert len(likeliest(reading, 4, PARAMS).dice) == 5, "straight down nothing is a side face"


def test_a_candidate_on_a_dies_far_side_beside_it_or_likelier_than_it_is_no_side_face():
    leaning = replace(PARAMS, up=0.0)
    less_likely_second = (die(10, 1), die(40, 2, presence=0.7), die(70, 3), die(100, 4))
    beyond_the_side_face = side_face(40, y=66.0)  # 0.8 of a die below: as often a die there
    for dice, candidate in ((CLEAR, side_face(40, y=39.0)), (CLEAR, side_face(55, y=50.0)),
                            (less_likely_second, side_face(40, presence=0.8)), (CLEAR, beyond_the_side_face)):
        assert len(likeliest(DiceReading(dice, (candidate,)), 4, leaning).dice) == 5
    far_side_below = replace(PARAMS, up=180.0)
    assert len(likeliest(DiceReading(CLEAR, (side_face(40),)), 4, far_side_below).dice) == 5


BLANK = np.zeros((120, 160, 3), np.uint8)  # what the reader is shown where its finding is made up


def found_in_any_picture(monkeypatch: pytest.MonkeyPatch, dice: tuple[Die, ...],
                         doubtful: tuple[Die, ...] = ()) -> None:
    """The reader made to find ``dice`` and hold ``doubtful`` in any picture, before its side faces
    are looked for."""
    monkeypatch.setattr(reader, "_found", lambda image, params, head: ([(d, None) for d in dice], list(doubtful)))


def test_read_anywhere_a_leaning_cameras_side_face_much_smaller_than_its_die_is_no_die(monkeypatch):
    """Counted or not, a candidate on a likelier die's near side and much smaller than it is that
    die's side face, foreshortened; one as big lies nearer the camera and is a die."""
    small_face = Die(6, (40.0, 61.0), 13.0, 0.95, presence=0.9)  # 0.55 of a die below, 0.65 of its size
    near_die = Die(6, (40.0, 61.0), 20.0, 0.95, presence=0.9)
    for candidate, dice_read in ((small_face, 4), (near_die, 5)):
        found_in_any_picture(monkeypatch, CLEAR + (candidate,))
        assert len(reader.read_dice(BLANK, PARAMS, up=0.0).dice) == dice_read
        assert len(reader.read_dice(BLANK, PARAMS, expected=5, up=0.0).dice) == dice_read, "five thrown"
        assert len(reader.read_dice(BLANK, PARAMS).dice) == 5, "straight down nothing is a side face"
        assert len(reader.read_dice(BLANK, replace(PARAMS, side_face_size_ratio=0.0), up=0.0).dice) == 5


def test_read_anywhere_only_a_die_read_has_side_faces_not_a_doubtful_candidate(monkeypatch):
    """A doubtful candidate twice a die's size (a key's corner, say) with a smaller, less likely die
    on its near side: that die is no side face of it, and is read."""
    big_doubtful = Die(None, (130.0, 40.0), 40.0, 0.5, presence=0.97)
    die_below = Die(5, (130.0, 62.0), 20.0, 0.95, presence=0.9)  # 0.55 of the big one's size below it, half its size
    found_in_any_picture(monkeypatch, CLEAR + (die_below,), (big_doubtful,))
    reading = reader.read_dice(BLANK, PARAMS, up=0.0)
    assert reading.values == (1, 2, 3, 4, 5) and reading.doubtful == (big_doubtful,)


def found_by_look(monkeypatch: pytest.MonkeyPatch, usual: tuple[Die, ...], closer: tuple[Die, ...],
                  doubtful: tuple[Die, ...] = ()) -> None:
    """The reader made to find ``usual`` (and hold ``doubtful``) at its usual look and ``closer`` at its
    first closer look (``closer_looks[0]``), in any picture."""
    first = PARAMS.closer_looks[0]

    def found(image, params, head=None):
        at_closer = (params.coarse_shrink, params.fine_shrink) == first
        return [(d, None) for d in (closer if at_closer else usual)], ([] if at_closer else list(doubtful))
    monkeypatch.setattr(reader, "_found", found)


def test_a_leaning_camera_adds_the_dice_of_the_throws_size_that_only_its_first_closer_look_reads_surely(monkeypatch):
    """Read anywhere, the dice a closer look alone finds, read surely, likely and of the dice's size, are
    added, and a doubtful candidate where one lies goes; a pip-sized one (a die's pip read as a 1) or a
    less likely one is not. Straight down, or with the presence at 0, nothing is added."""
    missed = die(100, 4)
    pip = Die(1, (130.0, 50.0), 8.0, 0.99, presence=0.99)
    less_likely = Die(5, (160.0, 50.0), 20.0, 0.99, presence=0.9)
    found_by_look(monkeypatch, CLEAR[:3], CLEAR + (pip, less_likely), (die(100, None, presence=0.4),))
    reading = reader.read_dice(BLANK, PARAMS, up=0.0)
    assert reading.values == (1, 2, 3, 4) and reading.doubtful == ()
    assert reader.read_dice(BLANK, PARAMS).values == (1, 2, 3), "straight down"
    assert reader.read_dice(BLANK, replace(PARAMS, leaning_closer_look_presence=0.0), up=0.0).values == (1, 2, 3)
    assert replace(missed, seen_closer=True) in reading.dice, "the die added is marked as found closer"


def test_at_a_table_a_die_only_the_closer_look_finds_refuses_a_throw_a_keycap_read_as_a_1_would_fill(monkeypatch):
    """Four thrown, one missed in a pile and a keycap read as a 1 beside them: straight down the throw
    is taken wrong; where the camera leans, the closer look finds the fourth die, the tray holds five
    likely dice, and the throw is refused."""
    keycap = Die(1, (130.0, 80.0), 20.0, 0.98, presence=0.97)
    found_by_look(monkeypatch, CLEAR[:3] + (keycap,), CLEAR + (keycap,))
    assert reader.read_dice(BLANK, PARAMS, expected=4).values == (1, 1, 2, 3), "straight down: taken wrong"
    assert len(reader.read_dice(BLANK, PARAMS, expected=4, up=0.0).dice) == 5, "leaning: refused, a die too many"


def test_a_closer_look_adds_no_dice_of_another_look_whoever_reads_it(monkeypatch):
    """``eval-vision`` reads a closer look as ``read_dice(image, closer_look(params, n))``, the
    companion as ``read_dice(image, params, closer=n)``: both read the second closer look as it is,
    without the first one's dice added (the usual look adds them, and is measured so)."""
    first, second = PARAMS.closer_looks[:2]
    by_look = {first: CLEAR, second: CLEAR[:2]}
    monkeypatch.setattr(reader, "_found", lambda image, params, head=None: (
        [(d, None) for d in by_look.get((params.coarse_shrink, params.fine_shrink), CLEAR[:3])], []))
    assert reader.read_dice(BLANK, PARAMS, up=0.0).values == (1, 2, 3, 4), "the usual look adds the first's die"
    assert reader.read_dice(BLANK, closer_look(PARAMS, 2), up=0.0).values == (1, 2), "as eval-vision reads it"
    assert reader.read_dice(BLANK, PARAMS, up=0.0, closer=2).values == (1, 2), "as the companion reads it"


def test_at_a_table_a_die_only_the_closer_look_finds_on_a_neighbours_near_side_is_no_side_face(monkeypatch):
    """Four thrown, the fourth pressed on the second's near side and missed by the usual look, a keycap
    read as a 1 beside them: the closer look finds the fourth at the dice's size, and the table's
    side-face rule, which would take it for the second's side face and the keycap in its place, keeps
    it: five likely dice, the throw refused. Where the usual look finds it, it may be a side face."""
    keycap = Die(1, (130.0, 80.0), 20.0, 0.98, presence=0.97)
    pressed = Die(4, (40.0, 61.0), 20.0, 0.99, presence=1.0)  # 0.55 of a die below the second
    found_by_look(monkeypatch, CLEAR[:3] + (keycap,), CLEAR[:3] + (pressed, keycap))
    refused = reader.read_dice(BLANK, PARAMS, expected=4, up=0.0)
    assert len(refused.dice) == 5 and [d.seen_closer for d in refused.dice].count(True) == 1
    found_by_look(monkeypatch, CLEAR[:3] + (pressed, keycap), CLEAR[:3] + (pressed, keycap))
    assert reader.read_dice(BLANK, PARAMS, expected=4, up=0.0).values == (1, 1, 2, 3), "seen at the usual look"


def test_a_side_face_is_left_out_only_where_that_leaves_as_many_dice_as_thrown():
    """Another die too many far from the dice, or two side faces where one die too many was seen:
    the throw is refused for a die too many as it was (no closer look), the side faces told too."""
    leaning = replace(PARAMS, up=0.0)
    one_more = DiceReading(CLEAR + (die(200, 5, presence=0.9),), (side_face(40),))
    assert len(likeliest(one_more, 4, leaning).dice) == 6
    two_faces = DiceReading(CLEAR[:3], (side_face(10), side_face(40)))
    assert len(likeliest(two_faces, 4, leaning).dice) == 5

    def never(look: int) -> DiceReading:
        raise AssertionError("looked at again closer although a die too many was seen")

    assert len(taken(two_faces, 4, never, leaning).dice) == 5


def test_of_one_too_many_the_least_likely_goes_when_it_is_clearly_less_than_the_others():
    key = die(130, 5, presence=0.55)  # a keyboard key read as a 5
    reading = likeliest(DiceReading(CLEAR + (key,)), 4, PARAMS)
    assert reading.dice == CLEAR


def test_an_unsure_die_stays_unsure():
    unsure = replace(CLEAR[3], value=None, reason="unsure: 4 (60%) or 6 (30%)")
    reading = likeliest(DiceReading(CLEAR[:3] + (unsure,)), 4, PARAMS)
    assert reading.unreadable == (unsure,)


def test_no_dice_expected_and_a_clear_die_there_is_one_too_many():
    assert likeliest(DiceReading(CLEAR[:1]), 0, PARAMS).dice == CLEAR[:1]
    assert likeliest(DiceReading((), (die(10, presence=0.2),)), 0, PARAMS).dice == ()


def test_a_throw_found_in_full_is_not_looked_at_again():
    def never(look: int) -> DiceReading:
        raise AssertionError("looked at again although every die was found")

    assert taken(DiceReading(CLEAR), 4, never, PARAMS).dice == CLEAR


def test_a_throw_read_short_is_taken_from_the_closer_look():
    looks = []

    def closer(look: int) -> DiceReading:
        looks.append(look)
        return DiceReading(CLEAR)

    assert taken(DiceReading(CLEAR[:3]), 4, closer, PARAMS).dice == CLEAR and looks == [1]


def test_a_throw_the_first_closer_look_still_finds_short_is_taken_from_the_second():
    looks = []

    def closer(look: int) -> DiceReading:
        looks.append(look)
        return DiceReading(CLEAR if look == 2 else CLEAR[:3])

    assert taken(DiceReading(CLEAR[:2]), 4, closer, PARAMS).dice == CLEAR and looks == [1, 2]


def test_a_closer_look_that_does_not_find_them_all_leaves_the_first_refusal():
    """The player hears what the usual look saw, whether the closer ones saw more (still short, or too many) or fewer."""
    for closer in (CLEAR[:3], CLEAR + (die(130, 5),), CLEAR[:1]):
        looks = []
        told = lambda look, closer=closer: looks.append(look) or DiceReading(closer)  # noqa: E731
        assert taken(DiceReading(CLEAR[:2]), 4, told, PARAMS).dice == CLEAR[:2]
        assert looks == list(range(1, len(PARAMS.closer_looks) + 1)), "every look tried"


def test_an_empty_tray_is_not_looked_at_again():
    """No die and no doubtful candidate: the dice are in a hand, and a closer look would only cost time."""
    def never(look: int) -> DiceReading:
        raise AssertionError("an empty tray looked at again")

    assert taken(DiceReading(()), 4, never, PARAMS).dice == ()
    assert taken(DiceReading((), (die(10, presence=0.2),)), 1, lambda look: DiceReading(CLEAR[:1]), PARAMS).dice == CLEAR[:1]


def test_the_reader_told_the_count_reads_a_short_throw_again_closer_with_its_far_side_and_table_layer(monkeypatch):
    """``read_dice(expected=...)``: a second reading only when the first is short, with ``closer_look``'s
    params (both passes less shrunk), the camera's far side and the table's layer kept."""
    looks = []
    first, second = [(d, None) for d in CLEAR[:3]], [(d, None) for d in CLEAR]
    layer = object()

    def found(image, params, head=None):
        looks.append((params.coarse_shrink, params.fine_shrink, params.up, head))
        return (first if len(looks) == 1 else second), []

    monkeypatch.setattr(reader, "_found", found)
    image = np.zeros((60, 60, 3), np.uint8)
    assert reader.read_dice(image, PARAMS, expected=4, head=layer, up=90.0).values == (1, 2, 3, 4)
    assert looks == [(8, 2, 90.0, layer), (4, 1, 90.0, layer)]
    assert (closer_look(PARAMS, 1).coarse_shrink, closer_look(PARAMS, 1).fine_shrink) == (4, 1)
    looks.clear()
    assert reader.read_dice(image, PARAMS, expected=3).values == (1, 2, 3) and len(looks) == 1


def test_the_reader_told_the_count_looks_a_second_time_closer_where_the_first_closer_look_is_short(monkeypatch):
    """The second closer look (the coarse pass at 3, the fine at its usual 2) only after the first
    still finds the throw short; that one is taken when it finds every die."""
    looks = []
    short, full = [(d, None) for d in CLEAR[:3]], [(d, None) for d in CLEAR]

    def found(image, params, head=None):
        looks.append((params.coarse_shrink, params.fine_shrink))
        return (short if len(looks) < 3 else full), []

    monkeypatch.setattr(reader, "_found", found)
    assert reader.read_dice(np.zeros((60, 60, 3), np.uint8), PARAMS, expected=4).values == (1, 2, 3, 4)
    assert looks == [(8, 2), (4, 1), (3, 2)]


def test_a_closer_look_the_reader_does_not_have_is_refused():
    for look in (0, len(PARAMS.closer_looks) + 1):
        with pytest.raises(ValueError, match="closer look"):
            closer_look(PARAMS, look)
