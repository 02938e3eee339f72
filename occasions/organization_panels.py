"""What occasions shows on an organization's pages (registered from ``OccasionsConfig.ready()``
through ``organizations.extensions``): on the landing page, the occasion open today with the
floor's pages."""

from __future__ import annotations

from django.utils import timezone

from occasions.models import Occasion
from organizations.extensions import Panel
from organizations.models import Organization


def open_now(organization: Organization) -> Occasion | None:
    """The organization's occasion of today if it is open: one query."""
    return Occasion.objects.filter(
        organization=organization, date=timezone.localdate(), status=Occasion.Status.OPEN
    ).first()


PANELS = (Panel("open_now", "dashboard_floor", "occasions/_open_now.html", open_now),)
