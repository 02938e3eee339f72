"""What reports shows on an organization's pages (registered from ``ReportsConfig.ready()``
through ``organizations.extensions``): the financial reports owed, due, late or missing."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from occasions.models import Occasion
from organizations.extensions import Panel
from organizations.models import Organization
from reports import selectors
from reports.reminder_models import SentReminder


def reports_owed(organization: Organization) -> dict[str, Any]:
    """The organization's five most recent reports still owed (tonight's among them once its
    occasion is closed)."""
    return {
        "rows": selectors.obligations([organization], statuses=selectors.OPEN_STATUSES, limit=5)
    }


def reports_due(organization: Organization) -> dict[str, Any]:
    """For the bookkeeper's landing page: the reports owed, and the close-out of the last night
    closed (one query more)."""
    last_closed = (
        Occasion.objects.filter(
            organization=organization,
            status=Occasion.Status.CLOSED,
            date__lte=timezone.localdate(),
        )
        .order_by("-date")
        .only("id", "date", "organization_id")
        .first()
    )
    return reports_owed(organization) | {"last_closed": last_closed}


def reminders_sent(organization: Organization, limit: int = 6) -> dict[str, Any]:
    """The organization's latest reminders, one per event, whoever they were sent to (the head
    and the bookkeeper get the same): one query."""
    rows = SentReminder.objects.filter(organization=organization).order_by("-sent_at", "pk")[
        : limit * 4
    ]
    seen: set[tuple[str, str]] = set()
    out: list[SentReminder] = []
    for row in rows:
        if (row.kind, row.event_key) not in seen:
            seen.add((row.kind, row.event_key))
            out.append(row)
    return {"rows": out[:limit]}


PANELS = (
    Panel("reports_owed", "home_side", "reports/_owed_card.html", reports_owed),
    Panel("reports_due", "dashboard", "reports/_owed_dashboard.html", reports_due),
    Panel("reminders", "dashboard", "reports/_reminders_dashboard.html", reminders_sent),
)
