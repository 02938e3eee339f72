"""The occasion page's "Winners and payouts" card reads its summary through this tag, so the
occasion page's view does not need to know about games."""

from __future__ import annotations

from django import template

from games.claims_selectors import ClaimsSummary, claims_summary
from occasions.models import Occasion

register = template.Library()


@register.simple_tag(name="claims_summary")
def claims_summary_tag(occasion: Occasion) -> ClaimsSummary:
    return claims_summary(occasion)
