"""The API's views share one base: a token's request (``api.authentication``), its scope
(``api.access``), its rate, and problems for every failure (``api.problems``). A write runs
inside ``access.through`` so its audit events name the token and its maker."""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api import access


class ApiView(APIView):
    #: The scopes a GET (HEAD) answers, and those any other method answers.
    read_scopes: frozenset[str] = frozenset()
    write_scopes: frozenset[str] = frozenset()

    def through(self, request: Request) -> Any:
        """The context in which a write's audit events name this token (``access.through``)."""
        return access.through(request)


class Pages(LimitOffsetPagination):
    """Every list of the API: 50 a page unless asked (``limit``), 500 at most."""

    default_limit = 50
    max_limit = 500

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        """DRF's, with the links null as OpenAPI 3.1 says it (not 3.0's ``nullable``)."""
        answer = super().get_paginated_response_schema(schema)
        for link in ("next", "previous"):
            answer["properties"][link] = {"type": ["string", "null"], "format": "uri"}
        return answer


def etagged(request: Request, response: Response, tag: str) -> Response:
    """``response`` with its ETag; 304 with no body when the caller has it already. Clients
    poll for changes: a flashboard asking every second costs one small answer per change."""
    quoted = f'"{tag}"'
    asked = request.headers.get("If-None-Match", "")
    headers = {"ETag": quoted, "Cache-Control": "private, no-cache"}
    if quoted in [t.strip() for t in asked.split(",")] or asked.strip() == "*":
        return Response(status=304, headers=headers)
    for name, value in headers.items():
        response[name] = value
    return response
