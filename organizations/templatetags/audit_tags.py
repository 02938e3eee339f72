"""Showing an audit event's old and new values, and where it came from; the link to a record's
history."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import template
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime

register = template.Library()


@register.filter
def value_pairs(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """The (field, value) pairs of an event's values. ``values.items`` in a template would look
    up a field named "items" first (a price list's event has one) instead of the pairs."""
    return list(values.items()) if isinstance(values, dict) else []


def _when(value: Any) -> str:
    moment = parse_datetime(str(value or ""))
    if moment is None:
        return ""
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, dt.UTC)
    return f" on {timezone.localtime(moment):%b %-d, %Y at %-I:%M %p}"


def _sheet(name: str) -> str:
    """'Door tally' → 'the Door tally sheet'; a name that says it is a sheet is kept."""
    if not name:
        return "its control sheets"
    return f"the {name}" if name.lower().endswith(("sheet", "sheets")) else f"the {name} sheet"


@register.filter
def provenance_words(values: Any) -> str:
    """An event's provenance as a sentence, for the audit pages: where an act entered after the
    fact came from, who entered it and when (empty for an act recorded live)."""
    if not isinstance(values, dict) or not values:
        return ""
    who = f" by {values['entered_by']}" if values.get("entered_by") else ""
    when = _when(values.get("entered_at"))
    if values.get("closed_late"):
        reason = f": {values['reason']}" if values.get("reason") else ""
        return f"closed after the fact{who}{when}{reason}"
    source = f"from {_sheet(values.get('sheet', ''))}"
    if values.get("file"):
        source += f" (night file {values['file']})"
    return f"entered {values.get('entered', 'after the fact')} {source}{who}{when}"


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
