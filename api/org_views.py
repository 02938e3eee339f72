"""An organization's records, read: its licenses, occasions and their figures."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from api import access, serializers
from api.base import ApiView


class OrganizationList(ApiView):
    read_scopes = access.ORG_READ

    @extend_schema(responses=serializers.OrganizationSerializer(many=True))
    def get(self, request: Request) -> Response:
        """The organizations this token reaches: its own, or (Commission) every one."""
        found = access.organizations_of(request).order_by("name").only("pk", "name")
        return Response(serializers.OrganizationSerializer(found, many=True).data)
