"""What reports adds to the occasion page (registered from ``ReportsConfig.ready()`` through
``occasions.extensions``): the card of the occasion's financial report once the night is over."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from occasions.extensions import Section
from occasions.models import Occasion
from reports.models import FinancialReport

_OVER = (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)


def _report(request: HttpRequest, occasion: Occasion) -> dict[str, Any] | None:
    """The report's filed versions, oldest first (none yet: the close-out is still to do)."""
    if occasion.status not in _OVER:
        return None
    return {"versions": list(FinancialReport.objects.filter(occasion=occasion))}


SECTIONS = (Section("report", "report", "reports/_occasion_section.html", _report),)
