"""The draw in templates: a ball's label and a prize as the hall reads it."""

from __future__ import annotations

from decimal import Decimal

from django import template

from beano.rules.cards import ball_label
from beano.rules.money import usd
from games.models import PrizePart

register = template.Library()


@register.filter
def ball(number: int) -> str:
    """42 → N42."""
    return ball_label(number)


@register.filter
def dollars(amount: Decimal) -> str:
    """$75 for a whole amount, $37.50 otherwise."""
    return usd(amount, bare_dollars=True)


@register.filter
def prize(part: PrizePart) -> str:
    if part.kind == PrizePart.Kind.MERCHANDISE:
        return f"{part.description or 'Merchandise'} ({dollars(part.amount)})"
    return dollars(part.amount)


#: The most variants a picture cycles through: "any two lines" has 66, and a hall reads the
#: idea from a dozen of them, evenly spread.
MOST_PICTURES = 12


@register.filter
def variant_pictures(variants: list[list[str]]) -> list[list[list[str]]]:
    """The 5×5 picture of each way an arrangement wins ("any single line": the five rows, the
    five columns and both diagonals), at most ``MOST_PICTURES`` of them, evenly spread."""
    from games.draw_selectors import picture

    variants = list(variants or [])
    if len(variants) > MOST_PICTURES:
        step = len(variants) / MOST_PICTURES
        variants = [variants[int(i * step)] for i in range(MOST_PICTURES)]
    return [picture([v]) for v in variants] or [picture([])]
