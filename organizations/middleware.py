"""Every page a Commission user opens is logged (``RecordView``): who viewed which record, when.

The row is written after the page is answered, in one insert; if it cannot be written the page
is answered all the same and the failure goes to the error log. And the acting user of a request
is known to the audit trail's signals (``AuditActorMiddleware``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from organizations.access import commission_staff
from organizations.audit import acting_in
from organizations.models import RecordView

logger = logging.getLogger(__name__)


def _loaded_user(request: HttpRequest) -> Any:
    """The user if the page already loaded it: a public page (the flashboard, polled every
    second) must not pay for a session lookup only to find an anonymous visitor."""
    return getattr(request, "_cached_user", None)


def record_view(request: HttpRequest, response: HttpResponse) -> RecordView | None:
    user = _loaded_user(request)
    if user is None or not user.is_authenticated or response.status_code == 304:
        return None
    if commission_staff(user) is None:
        return None
    access = getattr(request, "access", None)
    object_type, object_id = access.looked_up[-1] if access and access.looked_up else ("", "")
    match = request.resolver_match
    view = RecordView(
        user=user,
        username=user.get_username(),
        organization=access.organization if access else None,
        method=request.method or "",
        path=request.get_full_path()[:500],
        view_name=(match.view_name if match else "")[:100],
        object_type=object_type,
        object_id=object_id,
        status_code=response.status_code,
        viewed_at=timezone.now(),
    )
    if connection.in_atomic_block:  # keep a failed insert from spoiling an enclosing transaction
        with transaction.atomic():
            view.save()
    else:
        view.save()
    return view


class RecordViewMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        try:
            record_view(request, response)
        except Exception:  # the log must never cost the inspector the page
            logger.exception("The Commission's page view of %s was not logged", request.path)
        return response


class AuditActorMiddleware:
    """Changes recorded while a request is answered are its user's acts, those recorded from
    signals too (beano/accounts/signals.py: the admin's changes of Commission staff, an
    authenticator enrolled, a user deactivated), which no service hands a user to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with acting_in(request):
            return self.get_response(request)
