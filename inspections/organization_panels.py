"""What inspections shows on an organization's Overview page (registered from
``InspectionsConfig.ready()`` through ``organizations.extensions``): its figures over the last
twelve months beside the statewide median."""

from __future__ import annotations

from django.utils import timezone

from inspections import trends
from inspections.charts import Chart
from occasions.models import Occasion
from organizations.extensions import Panel
from organizations.models import Organization


def organization_charts(organization: Organization) -> list[Chart]:
    """The organization's figures beside the statewide median, over the last twelve months."""
    start, end = trends.period(None, None, timezone.localdate())
    return trends.trend_charts(
        subject=organization.name,
        subject_medians=trends.medians(
            Occasion.objects.filter(organization=organization), start, end
        ),
        statewide=trends.statewide_medians(start, end),
        start=start,
        end=end,
    )


PANELS = (
    Panel("trends", "home_bottom", "inspections/_organization_trends.html", organization_charts),
)
