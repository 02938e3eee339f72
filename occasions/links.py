"""What occasions adds to the organization's pages (``beano.links``)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from beano.links import Link, org_page


def _calendar_month(context: Any) -> str:
    month = context["day"].strftime("%Y-%m")
    return f"{reverse('occasion_calendar', args=[context['org'].pk])}?month={month}"


LINKS = (
    Link("organization_tabs", "occasions", "Occasions", org_page("occasion_calendar"), 20),
    Link("authorized_day", "calendar", "The month's calendar", _calendar_month),
)
