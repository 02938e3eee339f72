"""The door's counts for the occasion page's section card, without widening that page's view."""

from __future__ import annotations

from django import template

from occasions.models import Occasion
from occasions.sales_selectors import AttendanceCheck, DoorCounts, attendance_check, door_counts

register = template.Library()


@register.simple_tag
def door_summary(occasion: Occasion) -> tuple[DoorCounts, AttendanceCheck]:
    counts = door_counts(occasion)
    return counts, attendance_check(occasion, counts)
