"""The Django admin, open only to active staff whose session passed the second factor."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from beano.accounts.policy import is_verified


class VerifiedAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return super().has_permission(request) and is_verified(request.user)
