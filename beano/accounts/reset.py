"""Password reset by e-mail (Django's views and tokens, in the login page's style), throttled.

At most ``settings.PASSWORD_RESET_PER_HOUR`` requests an hour are answered from one client
address (more get 429 and a page that says to wait) and at most as many mails leave for one
e-mail address (more are silently not sent: the page answers the same whether or not the
address has a login, so it tells no one which addresses do). The counts are rows in the
database, shared by every web process.

The lockout rules stand: a reset sets a new password but lifts neither django-axes' lock of a
username from an address nor the account's ceiling (``ceiling.py``): the login after it is
judged like any other, and it asks for the second factor of those who use one.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse_lazy
from django.utils import timezone

from beano.accounts.client_ip import client_ip
from beano.accounts.models import PasswordResetRequest

WINDOW = dt.timedelta(hours=1)


def _count(kind: str, key: str, now: dt.datetime) -> int:
    return PasswordResetRequest.objects.filter(kind=kind, key=key, at__gt=now - WINDOW).count()


def client_over_limit(request: HttpRequest) -> bool:
    """Note this client's request; True when it is over the hour's limit."""
    now = timezone.now()
    PasswordResetRequest.objects.filter(at__lte=now - WINDOW).delete()
    key = client_ip(request) or "unknown"
    over = _count(PasswordResetRequest.Kind.CLIENT, key, now) >= settings.PASSWORD_RESET_PER_HOUR
    PasswordResetRequest.objects.create(kind=PasswordResetRequest.Kind.CLIENT, key=key, at=now)
    return over


def address_over_limit(email: str) -> bool:
    """Note a mail asked for ``email``; True when the hour's mails to it are all spent."""
    now = timezone.now()
    key = email.strip().casefold()[:254]
    over = _count(PasswordResetRequest.Kind.EMAIL, key, now) >= settings.PASSWORD_RESET_PER_HOUR
    PasswordResetRequest.objects.create(kind=PasswordResetRequest.Kind.EMAIL, key=key, at=now)
    return over


class ThrottledResetForm(PasswordResetForm):
    def get_users(self, email: str) -> Any:
        if address_over_limit(email):
            return iter(())
        return super().get_users(email)


class ResetView(auth_views.PasswordResetView):
    form_class = ThrottledResetForm
    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    html_email_template_name = "registration/password_reset_email.html"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if client_over_limit(request):
            minutes = int(WINDOW.total_seconds() // 60)
            response = render(
                request,
                "registration/password_reset_throttled.html",
                {"limit": settings.PASSWORD_RESET_PER_HOUR, "minutes": minutes},
                status=429,
            )
            response["Retry-After"] = str(int(WINDOW.total_seconds()))
            return response
        return super().post(request, *args, **kwargs)


class ResetConfirmView(auth_views.PasswordResetConfirmView):
    """The link's page: a new password. No login follows: the login page asks for it, under
    the lockout rules, and then for the second factor."""

    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")
    post_reset_login = False
