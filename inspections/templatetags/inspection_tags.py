"""Template helpers of the inspection pages."""

from __future__ import annotations

from django import template

from beano.rules.cards import ball_label

register = template.Library()


@register.filter
def ball(number: int) -> str:
    return ball_label(number)
