"""What occasions shows on an organization's pages (registered from ``OccasionsConfig.ready()``
through ``organizations.extensions``): on the landing page, the occasion open today with the
floor's pages."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from occasions.models import Occasion
from occasions.selectors import authorized_license
from organizations.extensions import Panel
from organizations.models import Organization


def open_now(organization: Organization) -> Occasion | None:
    """The organization's occasion of today if it is open: one query."""
    return Occasion.objects.filter(
        organization=organization, date=timezone.localdate(), status=Occasion.Status.OPEN
    ).first()


def tonight(organization: Organization) -> dict[str, Any]:
    """Tonight's occasion (any status), or whether tonight is an authorized day when none is
    prepared: the member in charge's way straight to it. One or two queries."""
    today = timezone.localdate()
    occasion = Occasion.objects.filter(organization=organization, date=today).first()
    authorized = occasion is not None or authorized_license(organization, today) is not None
    return {"occasion": occasion, "day": today, "authorized": authorized}


PANELS = (
    Panel("tonight", "dashboard_floor", "occasions/_tonight.html", tonight),
    Panel("open_now", "dashboard_floor", "occasions/_open_now.html", open_now),
)
