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
