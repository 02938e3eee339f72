"""The offline floor's endpoints: the acts the hall laptop queued while offline, received in
order and judged as of their moments (``offline.services.receive``), and the night's pack the
laptop keeps to go on working offline (``offline.pack``). Both answer JSON, never a page."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from occasions.views import get_occasion
from offline import acts_json, pack, services
from organizations.access import OrgRequest, org_view


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    return response


def _now() -> str:
    return timezone.localtime().isoformat(timespec="milliseconds")


@org_view()
@require_POST
def offline_acts(request: OrgRequest, pk: int) -> HttpResponse:
    """The laptop's queue: each act judged and answered, 200 with the results; a body not of the
    queue's shape is a 400 with why, nothing saved."""
    access = request.access
    occasion = get_occasion(access, pk)
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdigit() or int(length) > acts_json.MAX_BYTES:  # before the body is read
        return _no_store(JsonResponse({"error": "The queue sent is over 1 MB."}, status=400))
    try:
        device, acts = acts_json.read(request.body)
    except acts_json.BadShape as bad:
        return _no_store(JsonResponse({"error": str(bad)}, status=400))
    results = services.receive(
        occasion=occasion, device=device, acts=acts, by=request.user, access=access
    )
    return _no_store(
        JsonResponse({"server_time": _now(), "results": [r.as_dict() for r in results]})
    )


@never_cache
@org_view()
@require_GET
def offline_pack(request: OrgRequest, pk: int) -> HttpResponse:
    """What the laptop keeps of the night to go on working offline (the contract's §1)."""
    access = request.access
    occasion = get_occasion(access, pk)
    return _no_store(JsonResponse(pack.night_pack(access, occasion, request.user)))
