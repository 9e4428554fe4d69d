"""The Can't Stop board: columns 2..12 and how many spaces each has."""

COLUMNS: tuple[int, ...] = tuple(range(2, 13))
HEIGHTS: dict[int, int] = dict(zip(COLUMNS, (3, 5, 7, 9, 11, 13, 11, 9, 7, 5, 3)))
MAX_RUNNERS = 3
DICE = 4
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def column_index(column: int) -> int:
    """Position of a column in per-column tuples (column 2 is index 0)."""
    return column - COLUMNS[0]
