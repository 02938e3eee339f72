"""Not found, as the API says it: an address under ``/api/`` that matches no operation (an id
that is not a whole number, a misspelt path) answers a problem (404, application/problem+json)
like every other failure of the API; any other address, the site's own page."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.views import defaults

from api.problems import CONTENT_TYPE, TYPES

API_PREFIX = "/api/"


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not request.path.startswith(API_PREFIX):
        return defaults.page_not_found(request, exception)
    kind, title = TYPES[404]
    body = {
        "type": f"/api/v1/docs/problems/#{kind}",
        "title": title,
        "status": 404,
        "detail": "No operation of the API is at this address.",
    }
    return HttpResponse(json.dumps(body), status=404, content_type=CONTENT_TYPE)
