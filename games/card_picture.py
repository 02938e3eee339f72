"""The winning card as it was read, drawn on the claims page beside its verification: each
square's number, whether a ball that counts covered it, and the line, corner or block the card
won on (961 CMR 3.04(6)(e)). Pure: what the page already read (the numbers kept with the
verification, the balls that count for the claim, the arrangement's ways of winning)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from beano.rules.cards import COLUMNS, FREE, ROWS, found_variant, position_name


@dataclass(frozen=True)
class Square:
    name: str
    number: int | None
    covered: bool
    found: bool

    @property
    def free(self) -> bool:
        return self.name == FREE


@dataclass(frozen=True)
class CardPicture:
    rows: list[list[Square]]
    #: Where it won, as the hall says it ("row 2"); "" when the card did not win.
    position: str


def card_picture(
    numbers: Mapping[str, int],
    counted: Iterable[int],
    variants: Sequence[Sequence[str]],
    *,
    arrangement: str,
    won: bool,
) -> CardPicture:
    """The card read, square by square. Only a card found winning shows where it won: the
    arrangement's one way, named as the arrangement, or the one found among several."""
    drawn = set(counted)
    covered = {square for square, number in numbers.items() if number in drawn}
    found = found_variant(variants, covered) if won else None
    position = _named(found, variants, arrangement)
    rows = [
        [
            Square(
                name=(square := f"{column}{row}"),
                number=numbers.get(square),
                covered=square in covered or square == FREE,
                found=found is not None and square in found,
            )
            for column in COLUMNS
        ]
        for row in ROWS
    ]
    return CardPicture(rows=rows, position=position)


def _named(
    found: frozenset[str] | None, variants: Sequence[Sequence[str]], arrangement: str
) -> str:
    if found is None:
        return ""
    return arrangement if len(variants) == 1 else position_name(found)
