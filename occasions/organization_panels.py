"""What occasions shows on an organization's pages (registered from ``OccasionsConfig.ready()``
through ``organizations.extensions``): on the landing page, the occasions left open on an
earlier day at the top (for those who close a night: the head, the member in charge, the
bookkeeper), the occasion open today with the floor's pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Window
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


#: How many nights left open the panel names; a longer list ends with how many more.
LEFT_OPEN_SHOWN = 5


@dataclass(frozen=True)
class LeftOpen:
    """The organization's occasions still open after their day, the oldest first."""

    occasions: list[Occasion]
    more: int  # left open beyond those named


def left_open(organization: Organization) -> LeftOpen:
    """The occasions left open on an earlier day, the oldest first, with how many there are in
    all: one query, whatever their number. A night past midnight is among them (it ends on the
    close page); an older one is closed after the fact, at the time it ended."""
    today = timezone.localdate()
    found = list(
        Occasion.objects.filter(
            organization=organization, status=Occasion.Status.OPEN, date__lt=today
        )
        .only("id", "date", "opened_at", "organization_id", "status")
        .annotate(in_all=Window(Count("pk")))
        .order_by("date")[:LEFT_OPEN_SHOWN]
    )
    more = found[0].in_all - len(found) if found else 0
    return LeftOpen(occasions=found, more=more)


PANELS = (
    Panel("left_open", "dashboard_top", "occasions/_left_open.html", left_open),
    Panel("tonight", "dashboard_floor", "occasions/_tonight.html", tonight),
    Panel("open_now", "dashboard_floor", "occasions/_open_now.html", open_now),
)
