"""The page a locked-out login gets (settings.AXES_LOCKOUT_CALLABLE), in the site's style."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a login refused during a lockout: 429 Too Many Requests."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(
        request,
        "registration/locked_out.html",
        {"minutes": minutes, "failure_limit": settings.AXES_FAILURE_LIMIT},
        status=429,
    )
