"""The heartbeat of the pages a night runs on (the caller's console, the door): while one is on
screen in the browser of the head or a member in charge and the occasion is open, it keeps their
session from the idle sign-out (``beano.accounts.middleware.note_heartbeat``). Anyone else's
heartbeat, or one after the close, changes nothing."""

from __future__ import annotations

from django.http import HttpResponse
from django.views.decorators.http import require_POST

from beano.accounts.middleware import idle_seconds_left, note_heartbeat
from occasions.models import Occasion
from occasions.views import RUNS_THE_NIGHT, get_occasion
from organizations.access import OrgRequest, org_view


@org_view()  # nothing to show: only its POST
@require_POST
def night_heartbeat(request: OrgRequest, pk: int) -> HttpResponse:
    """204, with the seconds left before the idle sign-out (``X-Idle-Seconds``) for the warning."""
    occasion = get_occasion(request.access, pk)
    note_heartbeat(
        request,
        night_open=occasion.status == Occasion.Status.OPEN,
        runs_the_night=request.access.has_role(*RUNS_THE_NIGHT),
    )
    response = HttpResponse(status=204)
    response["X-Idle-Seconds"] = str(idle_seconds_left(request.session))
    return response
