"""The Django admin, open only to active staff whose session passed the second factor; its
login and password change are the site's, under the lockout rules."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse

from beano.accounts.policy import is_verified


class VerifiedAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return super().has_permission(request) and is_verified(request.user)

    def login(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """One login page for everybody, the site's: its lockout, then its second factor."""
        return redirect_to_login(request.GET.get("next") or self.index_path(request))

    def password_change(self, request: HttpRequest, extra_context: Any = None) -> HttpResponse:
        """The site's password change page, whose current password is under the lockout rules;
        the admin's own would check it with nothing to limit the guesses."""
        return redirect("password_change")

    def index_path(self, request: HttpRequest) -> str:
        return reverse("admin:index", current_app=self.name)
