"""What the API answers, field by field (the schema is made from these)."""

from __future__ import annotations

from rest_framework import serializers


class OrganizationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
