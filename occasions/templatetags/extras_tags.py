"""The occasion page's "Prizes and other sales" card reads its totals through this tag, so the
occasion page's view does not need to know about them."""

from __future__ import annotations

from django import template

from occasions.extras_selectors import ExtrasSummary, extras_summary
from occasions.models import Occasion

register = template.Library()


@register.simple_tag(name="extras_summary")
def extras_summary_tag(occasion: Occasion) -> ExtrasSummary:
    return extras_summary(occasion)
