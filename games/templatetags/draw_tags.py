"""The draw in templates: a ball's label, a prize as the hall reads it, and the occasion page's
summary of the draw and its flashboard link."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.db.models import Count, Q
from django.urls import reverse

from beano.rules.cards import ball_label
from beano.rules.money import usd
from games.draw_selectors import current_first
from games.models import Flashboard, Game, PrizePart
from occasions.models import Occasion

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


@register.simple_tag(takes_context=True)
def draw_summary(context: template.Context, occasion: Occasion) -> dict[str, Any]:
    """The occasion page's card: the game being played and the flashboard link (two queries)."""
    current = (
        current_first(Game.objects.filter(occasion=occasion))
        .annotate(balls=Count("calls", filter=Q(calls__voided_at__isnull=True)))
        .first()
    )
    board = Flashboard.objects.filter(occasion=occasion, revoked_at__isnull=True).first()
    request = context.get("request")
    link = ""
    if board is not None:
        path = reverse("flashboard", args=[board.token])
        link = request.build_absolute_uri(path) if request is not None else path
    return {"current": current, "flashboard": board, "link": link}
