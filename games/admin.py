"""The Commission's admin for games data: the arrangements each Director's authorization of
permissible winning arrangements names (961 CMR 3.04(6)(c)), audited like every admin change."""

from __future__ import annotations

from django.contrib import admin

from games.models import ArrangementAuthorization
from organizations.admin import AuditedAdmin


@admin.register(ArrangementAuthorization)
class ArrangementAuthorizationAdmin(AuditedAdmin):
    list_display = ["arrangement", "authorization", "organization_name"]
    list_filter = ["arrangement"]
    search_fields = [
        "authorization__reference_number",
        "authorization__organization__name",
        "arrangement__name",
    ]
    autocomplete_fields = ["authorization"]
    list_select_related = ["authorization__organization", "arrangement"]

    @admin.display(description="Organization")
    def organization_name(self, obj: ArrangementAuthorization) -> str:
        return obj.authorization.organization.name
