"""A stand-in for the night pack (contract §1) in front of the site's own URLs, for the tests of
the service worker's registration: it answers only the pack's "pages", which is all the
registration reads, from the query's ``pages`` (JSON) as the test sets it."""

from __future__ import annotations

import json

from django.http import HttpRequest, JsonResponse
from django.urls import path

from beano.urls import urlpatterns as site

#: What the stand-in answers, set by the test.
PAGES: dict = {}


def pack(request: HttpRequest, org_id: int, pk: int) -> JsonResponse:
    answer = JsonResponse({"version": 1, "pages": json.loads(json.dumps(PAGES))})
    answer["Cache-Control"] = "no-store"
    return answer


urlpatterns = [
    path("org/<int:org_id>/occasions/<int:pk>/offline/pack/", pack, name="offline_pack"),
    *site,
]
