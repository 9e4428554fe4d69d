"""What Counters' screens draw where: every label of the list of choices whole in its column, the
advisor's star in a place of its own, the side hints and footers clear of what stands beside them."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Any

from PIL import Image, ImageDraw

from counters_positions import plain_board, position
from engine.counters import GAME, Keep, Phase, State
from firmware.drawing.screens import BODY_TOP_PX, CHAR_PX, CHOICE_LINES, FOOTER_TOP_PX, ROW_PX, WIDTH
from firmware.games.counters.choices import listed
from firmware.games.counters.labels import move_label
from firmware.games.counters.screens import (
    BotTurnScreen,
    DiceScreen,
    MovesScreen,
    ThrowScreen,
    TurnOverScreen,
    WinnerScreen,
)
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
    choosing = state.phase is Phase.CHOOSE
    screens: list[Any] = [
        BotTurnScreen(state, names, state.current, state.dice, ("keep 2445",), status),
        BotTurnScreen(state, names, (state.current + 1) % state.players, state.dice, ("FH 6>S+5>4", "rocket S"), status),
        TurnOverScreen(state, names, 0, "sm>1+5>S", (0, 6), status),
    ]
    if choosing:
        best = "2P 2>1+4>2"
        screens += [DiceScreen(state, names, best, "keep 2445", (("FH", 0.3),), status), MovesScreen(state, names, listed(state), 0, 0, status)]
    else:
        screens.append(ThrowScreen(state, names, status))
    return screens


def test_no_footer_runs_together_on_any_counters_screen():
    """Left and right texts of the bottom row keep a character's space between them, and the side
    hints beside a list stay clear of it (whatever the status)."""
    won = replace(WILD, phase=Phase.OVER, winner=0)
    for state, status in itertools.product((WILD, replace(WILD, throws=3), GAME.new_game(4), position(dice=None)), STATUSES):
        for screen in (*footers_and_hints(state, status), WinnerScreen(won, NAMES[:2])):
            bottom = [(x, words) for x, y, words in painted(screen).texts if y == FOOTER_TOP_PX]
            left = [x + CHAR_PX * len(words) for x, words in bottom if not right_aligned(x, words)]
            right = [x for x, words in bottom if right_aligned(x, words) and x > 0]
            assert not left or not right or min(right) - max(left) >= CHAR_PX, (type(screen).__name__, bottom)
            if isinstance(screen, MovesScreen):
                assert list_problems(screen) == []
