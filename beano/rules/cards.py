"""The 75-ball card and its squares, as plain data (no ORM): used by the models, the rules and
the pages alike.

Columns B I N G O hold 1–15, 16–30, 31–45, 46–60, 61–75; rows 1–5 run top to bottom; N3 is the
free centre. A square is named column+row, e.g. ``B1``."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

COLUMNS = "BINGO"
ROWS = (1, 2, 3, 4, 5)
FREE = "N3"
ALL_SQUARES = tuple(f"{c}{r}" for r in ROWS for c in COLUMNS)
NUMBERED_SQUARES = tuple(s for s in ALL_SQUARES if s != FREE)


def letter(number: int) -> str:
    """The column letter a ball belongs to: B for 1–15 … O for 61–75."""
    if not 1 <= number <= 75:
        raise ValueError(f"{number} is not a ball of the 75-ball game")
    return COLUMNS[(number - 1) // 15]


def ball_label(number: int) -> str:
    return f"{letter(number)}{number}"


def column_range(column: str) -> range:
    start = COLUMNS.index(column) * 15 + 1
    return range(start, start + 15)


def _row(r: int) -> frozenset[str]:
    return frozenset(f"{c}{r}" for c in COLUMNS)


def _column(c: str) -> frozenset[str]:
    return frozenset(f"{c}{r}" for r in ROWS)


DIAGONALS = (
    frozenset(f"{c}{r}" for c, r in zip(COLUMNS, ROWS, strict=True)),
    frozenset(f"{c}{r}" for c, r in zip(COLUMNS, reversed(ROWS), strict=True)),
)
LINES = tuple([_row(r) for r in ROWS] + [_column(c) for c in COLUMNS] + list(DIAGONALS))


def _corner_blocks(width: int, height: int) -> list[frozenset[str]]:
    out = []
    for c0 in range(0, 5 - width + 1):
        for r0 in range(1, 5 - height + 2):
            out.append(
                frozenset(
                    f"{COLUMNS[c]}{r}"
                    for c in range(c0, c0 + width)
                    for r in range(r0, r0 + height)
                )
            )
    return out


def _postage_stamps() -> list[frozenset[str]]:
    corners = [(0, 1), (3, 1), (0, 4), (3, 4)]
    return [
        frozenset(f"{COLUMNS[c]}{r}" for c in (c0, c0 + 1) for r in (r0, r0 + 1))
        for c0, r0 in corners
    ]


#: The winning arrangements common on a Massachusetts night, each as its variants: a card wins
#: when every square of one variant is covered (the free centre always is).
COMMON_ARRANGEMENTS: dict[str, tuple[str, list[frozenset[str]]]] = {
    "single_line": ("Any single line (row, column or diagonal)", list(LINES)),
    "two_lines": ("Any two lines", [a | b for a, b in combinations(LINES, 2)]),
    "four_corners": ("Four corners", [frozenset({"B1", "O1", "B5", "O5"})]),
    "letter_x": ("Letter X", [DIAGONALS[0] | DIAGONALS[1]]),
    "postage_stamp": ("Postage stamp (2×2 in any corner)", _postage_stamps()),
    "picture_frame": ("Picture frame", [_row(1) | _row(5) | _column("B") | _column("O")]),
    "letter_t": ("Letter T", [_row(1) | _column("N")]),
    "six_pack": ("Six pack (any 2×3 block)", _corner_blocks(2, 3)),
    "small_diamond": ("Small diamond", [frozenset({"I3", "N2", "N4", "G3"})]),
    "letter_h": ("Letter H", [_column("B") | _column("O") | _row(3)]),
    "inner_square": (
        "Inner square",
        [frozenset({"I2", "N2", "G2", "I3", "G3", "I4", "N4", "G4"})],
    ),
    "coverall": ("Coverall", [frozenset(ALL_SQUARES)]),
}


def covers(variants: Iterable[Iterable[str]], covered: Iterable[str]) -> bool:
    """Whether the covered squares (with the free centre) complete one of the variants."""
    marked = set(covered) | {FREE}
    return any(set(v) <= marked for v in variants)


def is_whole_card(squares: Iterable[str]) -> bool:
    """Whether the squares read are the whole card: every numbered square (24; the free centre
    has no number). Anything less is the arrangement's squares, each of which must be covered."""
    return set(NUMBERED_SQUARES) <= set(squares)


def found_variant(
    variants: Iterable[Iterable[str]], covered: Iterable[str]
) -> frozenset[str] | None:
    """The first way of winning (in the arrangement's order) the covered squares complete, with
    the free centre: the line, the corner or the block a card won on; None if none is."""
    marked = set(covered) | {FREE}
    return next((frozenset(v) for v in variants if set(v) <= marked), None)


def _line_names() -> dict[frozenset[str], str]:
    names = {_row(r): f"row {r}" for r in ROWS}
    names |= {_column(c): f"column {c}" for c in COLUMNS}
    names[DIAGONALS[0]] = "the diagonal B1–O5"
    names[DIAGONALS[1]] = "the diagonal B5–O1"
    return names


LINE_NAMES = _line_names()


def _reading_order(squares: Iterable[str]) -> list[str]:
    return sorted(squares, key=ALL_SQUARES.index)


def position_name(squares: Iterable[str]) -> str:
    """A way of winning as the hall says it: "row 2", "column G", "the diagonal B1–O5", "row 1
    and column B", "the block G4–O5" (a rectangle, named by its corners), or else its squares."""
    found = frozenset(squares)
    if not found or not found <= set(ALL_SQUARES):  # an arrangement kept as data may be odd
        return ", ".join(sorted(found))
    if found in LINE_NAMES:
        return LINE_NAMES[found]
    for a, b in combinations(LINES, 2):
        if a | b == found:
            return f"{LINE_NAMES[a]} and {LINE_NAMES[b]}"
    ordered = _reading_order(found)
    columns = {COLUMNS.index(s[0]) for s in found}
    rows = {int(s[1]) for s in found}
    block = {f"{COLUMNS[c]}{r}" for c in columns for r in rows}
    if len(found) > 1 and block == found and _unbroken(columns) and _unbroken(rows):
        return f"the block {ordered[0]}–{ordered[-1]}"
    return ", ".join(ordered)


def _unbroken(indexes: set[int]) -> bool:
    return max(indexes) - min(indexes) + 1 == len(indexes)
