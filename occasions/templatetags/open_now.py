"""The dashboard shows each organization's occasion open today with the floor's pages, read
through this tag so that the dashboard's view (organizations, below occasions) need not know
about occasions."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template

from occasions.models import Occasion
from organizations.models import Organization

register = template.Library()


@register.inclusion_tag("occasions/_open_now.html")
def open_now(organization: Organization, today: dt.date) -> dict[str, Any]:
    """The organization's occasion of ``today`` if it is open: one query."""
    occasion = Occasion.objects.filter(
        organization=organization, date=today, status=Occasion.Status.OPEN
    ).first()
    return {"org": organization, "occasion": occasion}
