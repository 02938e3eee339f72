"""An organization's records, read: its licenses, occasions and their figures."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, serializers
from api.base import ApiView


class OrganizationList(ApiView):
    read_scopes = access.ORG_READ

    @extend_schema(
        operation_id="api_organizations",
        responses={
            200: serializers.OrganizationSerializer(many=True),
            401: OpenApiResponse(description="No token, or not a valid one (problem+json)."),
            403: OpenApiResponse(description="Not this token's scope (problem+json)."),
            429: OpenApiResponse(description="Over the token's rate; see Retry-After."),
        },
    )
    def get(self, request: Request) -> Response:
        """The organizations this token reaches: its own, or (Commission) every one."""
        found = access.organizations_of(request).order_by("name").only("pk", "name")
        return Response(serializers.OrganizationSerializer(found, many=True).data)
