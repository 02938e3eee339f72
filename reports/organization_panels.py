"""What reports shows on an organization's pages (registered from ``ReportsConfig.ready()``
through ``organizations.extensions``): the financial reports owed, due, late or missing."""

from __future__ import annotations

from typing import Any

from organizations.extensions import Panel
from organizations.models import Organization
from reports import selectors


def reports_owed(organization: Organization) -> dict[str, Any]:
    """The organization's five most recent reports still owed."""
    return {
        "rows": selectors.obligations([organization], statuses=selectors.OPEN_STATUSES, limit=5)
    }


PANELS = (
    Panel("reports_owed", "home_side", "reports/_owed_card.html", reports_owed),
    Panel("reports_due", "dashboard", "reports/_owed_dashboard.html", reports_owed),
)
