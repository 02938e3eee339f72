"""``{% status_badge status label %}``: an occasion's status as a badge (``occasions.badges``)."""

from __future__ import annotations

from django import template

from occasions.badges import status_badge

register = template.Library()
register.simple_tag(status_badge)
