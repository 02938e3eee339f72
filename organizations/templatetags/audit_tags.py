"""Showing an audit event's old and new values."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def value_pairs(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """The (field, value) pairs of an event's values. ``values.items`` in a template would look
    up a field named "items" first (a price list's event has one) instead of the pairs."""
    return list(values.items()) if isinstance(values, dict) else []
