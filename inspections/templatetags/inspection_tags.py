"""Template helpers of the inspection pages, and the charts of an organization's dashboard
(its Overview page), drawn there without widening that page's view."""

from __future__ import annotations

from typing import Any

from django import template
from django.db import models
from django.urls import reverse
from django.utils import timezone

from beano.rules.cards import ball_label
from inspections import trends
from inspections.charts import Chart
from occasions.models import Occasion
from organizations.models import Organization

register = template.Library()


@register.simple_tag(takes_context=True)
def history_url(context: dict[str, Any], record: models.Model) -> str:
    """The history page of ``record`` in the page's organization's audit trail."""
    return reverse(
        "record_history",
        kwargs={
            "org_id": context["org"].pk,
            "target_type": record._meta.label_lower,
            "target_id": record.pk,
        },
    )


@register.filter
def ball(number: int) -> str:
    return ball_label(number)


@register.simple_tag
def organization_charts(organization: Organization) -> list[Chart]:
    """The organization's figures beside the statewide median, over the last twelve months."""
    start, end = trends.period(None, None, timezone.localdate())
    return trends.trend_charts(
        subject=organization.name,
        subject_rows=trends.figures(Occasion.objects.filter(organization=organization), start, end),
        statewide_rows=trends.statewide_figures(start, end),
        start=start,
        end=end,
    )
