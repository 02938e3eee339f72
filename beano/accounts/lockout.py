"""The page a locked-out password gets (settings.AXES_LOCKOUT_CALLABLE), in the site's style."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """django-axes' answer to a password refused during a lockout: 429 Too Many Requests. The
    password change page's current password is under the same lock, and says so."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    match = getattr(request, "resolver_match", None)
    return render(
        request,
        "registration/locked_out.html",
        {
            "minutes": minutes,
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "changing_password": match is not None and match.url_name == "password_change",
        },
        status=429,
    )
