"""What Counters' screens draw where: every label of the list of choices whole in its column, the
advisor's star in a place of its own, the side hints and footers clear of what stands beside them;
and what they say: the highlighted choice in plain words, the tip, the handicap's columns."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from counters_positions import plain_board, position
from engine.counters import GAME, Keep, Phase, State
from firmware.core.table_game import View
from firmware.drawing.screens import BODY_TOP_PX, CHAR_PX, CHOICE_LINES, FOOTER_TOP_PX, ROW_PX, WIDTH, draw
from firmware.drawing.tiny_font import tiny_spelling, tiny_text, tiny_width
from firmware.games.counters.choices import listed
from firmware.games.counters.labels import move_label, plain_words
from firmware.games.counters.screens import (
    BotHandicapScreen,
    BotTurnScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
    tip_line,
)
from firmware.games.counters.table import TABLE
from hardware.display import MODE, SIZE

NAMES = ("Margaret", "Benedikt", "Caroline", "Dominika")  # eight letters: the longest names
LIST_ROWS = tuple(BODY_TOP_PX + row * ROW_PX for row in range(CHOICE_LINES))
WILD = position(board=plain_board(**{"4": {"blue_stars": [3]}}), squares={0: {"4": 3}}, dice=(2, 2, 3, 3, 3))


@dataclass
class Recorder:
    """A canvas that draws as Pillow's does and keeps each text (its left edge, top, words) and
    each filled bar drawn on it."""

    image: Image.Image = field(default_factory=lambda: Image.new(MODE, SIZE, 0))
    texts: list[tuple[int, int, str]] = field(default_factory=list)
    bars: list[tuple[int, int, int, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._draw = ImageDraw.Draw(self.image)

    def text(self, xy: tuple[int, int], words: str, **style: Any) -> None:
        self.texts.append((int(xy[0]), int(xy[1]), words))
        self._draw.text(xy, words, **style)

    def rectangle(self, box: Any, **style: Any) -> None:
        self.bars.append(tuple(int(v) for v in box))
        self._draw.rectangle(box, **style)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._draw, name)


def painted(screen: Any) -> Recorder:
    canvas = Recorder()
    screen.paint(canvas)
    return canvas


def right_aligned(x: int, words: str) -> bool:
    return x + CHAR_PX * len(words) == WIDTH


def list_problems(screen: MovesScreen) -> list[str]:
    """Where a label of the list is cut (longer than the highlighted bar), the star sits on a label
    or outside the bar, or a side hint touches the bar, a label or the star."""
    canvas = painted(screen)
    bar = next(b for b in canvas.bars if b[0] == 0 and b[1] in LIST_ROWS)
    bar_end = bar[2] + 1  # the first pixel column right of the bar
    problems = []
    for top in LIST_ROWS:
        row = [(x, words) for x, y, words in canvas.texts if y == top]
        hints = [(x, words) for x, words in row if right_aligned(x, words)]
        left = [(x, words) for x, words in row if (x, words) not in hints]
        stars = [x for x, words in left if words == "*"]
        labels = [(x, words) for x, words in left if words != "*"]
        label_end = max((x + CHAR_PX * len(words) for x, words in labels), default=0)
        for x, words in labels:
            if x + CHAR_PX * len(words) > bar_end:
                problems.append(f"{words!r} is cut at the bar's end ({bar_end} px)")
        for x in stars:
            if x < label_end or x + CHAR_PX > bar_end:
                problems.append(f"the star at {x} px stands on {labels} or outside the bar")
        for x, words in hints:
            if x <= max(bar_end, label_end, *(s + CHAR_PX for s in stars)):
                problems.append(f"the hint {words!r} at {x} px touches the list ({[w for _, w in left]})")
    return problems


def every_row_starred(state: State, moves: tuple[object, ...]) -> list[str]:
    """The problems of the list with each entry in turn highlighted and starred."""
    names = NAMES[:state.players]
    return [p for i in range(len(moves)) for p in list_problems(MovesScreen(state, names, moves, i, i))]


def test_every_keep_of_four_dice_fits_its_column_beside_the_hints_and_the_star():
    """"keep 2 4 4 5NEXT:move": the label ran into the hints, the bar cut it to "keep 2 3 4" (two
    keeps looked alike) and the star was drawn over a digit."""
    state = position(dice=(1, 2, 3, 4, 5))
    keeps = tuple(Keep(dice) for dice in itertools.combinations_with_replacement(range(1, 7), 4))
    assert every_row_starred(state, keeps) == []
    labels = [move_label(keep) for keep in keeps]
    assert len(set(labels)) == len(labels), "two keeps read alike"


def test_every_option_with_wild_cards_and_every_other_list_fits_too():
    """The longest options (a wild card sends both groups elsewhere), a hundred entries and more
    (the count beside them), the handicap of the fourth player, the rocket squares."""
    moves = listed(WILD)
    assert len(moves) > 100 and every_row_starred(WILD, moves) == []
    texts = {move_label(move, WILD.phase) for move in moves}
    assert max(map(len, texts)) == 10
    four = GAME.new_game(4)
    for moved in ("handicap 2", "handicap 1-3"):
        four = GAME.apply(four, GAME.parse_move(moved))
    rocket = position(board=plain_board(**{"4": {"rockets": [2]}}), dice=(4, 4, 4, 1, 2))
    rocket = GAME.apply(rocket, GAME.parse_move("take triple 4"))
    assert four.phase is Phase.HANDICAP and rocket.phase is Phase.ROCKET
    for state in (four, rocket):
        assert every_row_starred(state, listed(state)) == []


def test_a_status_beside_the_list_takes_the_title_not_the_hints():
    """A status of twenty characters in the hints' column ran over the labels."""
    for status in ("choose:NEXT,SELECT", "camera:SELECT=by hand", "NOT SAVED: try again", "Benedikt decides"):
        screen = MovesScreen(WILD, NAMES[:2], listed(WILD), 0, 0, status)
        assert list_problems(screen) == []
        assert (1, 0, status) in painted(screen).texts, "the status is the title"


STATUSES = ("", "reading dice...", "camera:SELECT=by hand", "NOT SAVED: try again")


def footers_and_hints(state: State, status: str) -> list[Any]:
    """Every Counters screen with a footer or side hints, in ``state`` (a throw is due, or dice
    lie on the table) with ``status``."""
    names = NAMES[:state.players]
    screens: list[Any] = [
        BotTurnScreen(state, names, state.current, state.dice, ("keep 2445",), status),
        BotTurnScreen(state, names, (state.current + 1) % state.players, state.dice, ("FH 6>S+5>4", "rocket S"), status),
        TurnOverScreen(state, names, 0, "sm>1+5>S", (0, 6), status),
        BotHandicapScreen(state, names, tuple((bot, "cols 4 5 S") for bot in range(1, state.players)), status),
    ]
    if state.phase is Phase.CHOOSE:
        screens += [DiceScreen(state, names, "2P 2>1+4>2", "keep 2445", (("FH", 0.3),), status),
                    MovesScreen(state, names, listed(state), 0, 0, status)]
    else:
        screens.append(ThrowScreen(state, names, status))
    return screens


def test_no_footer_runs_together_on_any_counters_screen():
    """Left and right texts of the bottom row keep a character's space between them, and the side
    hints beside a list stay clear of it (whatever the status)."""
    states = (WILD, replace(WILD, throws=3), GAME.new_game(4), position(dice=None))
    screens = [s for state, status in itertools.product(states, STATUSES) for s in footers_and_hints(state, status)]
    for screen in (*screens, WinnerScreen(replace(WILD, phase=Phase.OVER, winner=0), NAMES[:2])):
        bottom = [(x, words) for x, y, words in painted(screen).texts if y == FOOTER_TOP_PX]
        left = [x + CHAR_PX * len(words) for x, words in bottom if not right_aligned(x, words)]
        right = [x for x, words in bottom if right_aligned(x, words) and x > 0]
        assert not left or not right or min(right) - max(left) >= CHAR_PX, (type(screen).__name__, bottom)
        if isinstance(screen, MovesScreen):
            assert list_problems(screen) == []


def plain_line(screen: MovesScreen) -> Image.Image:
    """The band under the list, where the highlighted choice is said in words."""
    return draw(screen).crop((0, LIST_ROWS[-1] + ROW_PX, WIDTH, SIZE[1]))


def tiny_alone(words: str, top: int) -> Image.Image:
    """``words`` in the small font, as the band under the list would show them alone."""
    image = Image.new(MODE, SIZE, 0)
    tiny_text(ImageDraw.Draw(image), (1, top), words)
    return image.crop((0, LIST_ROWS[-1] + ROW_PX, WIDTH, SIZE[1]))


def test_the_list_says_the_highlighted_choice_in_plain_words():
    """"2P 2>1+4>2" was explained nowhere a player looks; now the line under the list says it."""
    from firmware.games.counters.screens import PLAIN_TOP_PX

    wild = next(m for m in listed(WILD) if move_label(m) == "FH 3>1+2>4")
    keep = Keep((2, 3, 3, 3))
    for moves, words in (((wild, keep), "wild: 3s to col 1. 2s to col 4"), ((keep, wild), "keep 2 3 3 3 - throw 1 again")):
        assert plain_words(moves[0], WILD) == words
        assert ImageChops.difference(plain_line(MovesScreen(WILD, NAMES[:2], moves)), tiny_alone(words, PLAIN_TOP_PX)).getbbox() is None


def test_plain_words_fit_the_line_in_letters_the_small_font_has():
    four = GAME.apply(GAME.apply(GAME.new_game(4), GAME.parse_move("handicap 2")), GAME.parse_move("handicap 1-3"))
    rocket = GAME.apply(position(board=plain_board(**{"4": {"rockets": [2]}}), dice=(4, 4, 4, 1, 2)), GAME.parse_move("take triple 4"))
    for state in (WILD, four, rocket, position(dice=(1, 2, 3, 5, 6), throws=3)):
        for move in listed(state):
            words = plain_words(move, state)
            assert tiny_width(words) <= WIDTH - 1 and "?" not in tiny_spelling(words), words


def test_an_option_says_what_each_column_does():
    """"TWO PAIRS: 2 SQUARES UP" summed both columns' squares and read as each column going up 2."""
    said = {move_label(m): plain_words(m, state) for dice in ((2, 2, 4, 4, 1), (2, 2, 2, 4, 4))
            for state in [position(dice=dice, throws=3)] for m in listed(state)}
    assert said["2P 2+4"] == "two pairs: cols 2 4 up 1 each"
    assert said["FH 2+4"] == "col 2 up 2. col 4 up 1", "the kind left out where it would not fit"
    assert said["3K 2"] == "three of a kind: col 2 up 2" and said["pair 4"] == "pair: col 4 up 1"


def test_the_handicap_names_columns_not_squares():
    """"up 1 ... up S" read as a count of squares."""
    four = GAME.apply(GAME.apply(GAME.new_game(4), GAME.parse_move("handicap 2")), GAME.parse_move("handicap 1-3"))
    first = listed(four)[0]
    assert (move_label(first), plain_words(first, four)) == ("cols 4 5 6", "columns 4 5 6 up 1 square each")
    two = GAME.new_game(2)
    assert [move_label(m) for m in listed(two)][:2] == ["col 1", "col 2"] and plain_words(listed(two)[0], two) == "column 1 up 1 square"


def test_the_tip_to_take_an_option_says_it_once():
    """"TIP TAKE BIG BIG 100%" read as a stutter; a keep's odds are parted from its dice by a word."""
    from firmware.games.counters.table import _hint

    tip, chances = _hint(position(dice=(1, 2, 3, 4, 5)))
    assert (tip, chances, tip_line(tip, chances)) == ("take big", (), "tip take big")
    assert tip_line("keep 22", (("3K", 0.32), ("4K", 0.21), ("2P", 0.16))) == "tip keep 22 odds 3K 32% 4K 21%"


def test_without_hints_the_dice_screen_says_the_best_use_s_wild_card_in_words():
    screen = TABLE.screen(WILD, View(NAMES[:2]))
    assert isinstance(screen, DiceScreen) and screen.best_now.startswith("FH 3>")
    assert screen.wild == "wild: 3s to col 1" and not screen.tip


def test_a_bot_s_decisions_are_shown_whole():
    """A bot's line was cut from the left: a full house and two rockets read "5>4, rocket 6, rocket 6"."""
    did = ("FH 6>S+5>4", "rocket 6", "rocket 6")
    screen = BotTurnScreen(position(current=1), NAMES[:2], 0, (4, 4, 5, 5, 5), did)
    rows = [words for x, y, words in painted(screen).texts if x == 1 and y in LIST_ROWS[:2]]
    assert rows == ["FH 6>S+5>4, rocket 6", "rocket 6"]
