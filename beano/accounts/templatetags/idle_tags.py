"""The idle sign-out's warning on every signed-in page (``static/js/idle.js``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.conf import settings
from django.contrib.auth import SESSION_KEY

from beano.accounts.middleware import ACTIVITY_WRITE_EVERY, idle_seconds_left

register = template.Library()

#: The warning shows this long before the idle sign-out.
WARN_SECONDS = 120


@register.inclusion_tag("accounts/_idle_warning.html", takes_context=True)
def idle_warning(context: Any) -> dict[str, Any]:
    request = context.get("request")
    session = getattr(request, "session", None)
    if session is None or SESSION_KEY not in session:
        return {"show": False}
    return {
        "show": True,
        "seconds": idle_seconds_left(session),
        # What a later request of the page leaves, at worst: the last activity is written at
        # most once a minute.
        "after_request": max(0, settings.IDLE_TIMEOUT_MINUTES * 60 - ACTIVITY_WRITE_EVERY),
        "warn": min(WARN_SECONDS, settings.IDLE_TIMEOUT_MINUTES * 60 // 2),
        "csrf_token": context.get("csrf_token"),
    }
