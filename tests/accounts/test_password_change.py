"""The password change page proves the current password under the login's rules: a session
left open on a hall laptop (or a stolen one) could try unlimited current passwords there. Now
each wrong one counts toward django-axes' lock of the username from that address and toward the
account's ceiling across addresses, and during a wait or a lock no password is checked."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import django.utils.timezone
import pytest
from axes.models import AccessAttempt
from django.apps import apps
from django.conf import settings
from django.urls import reverse

from beano.settings import PROJECT_APPS
from tests.conftest import PASSWORD, login

HALL = "203.0.113.10"
NEW = "a-New-passphrase-for-the-hall-2026"


@pytest.fixture(autouse=True)
def _clock_stands_still(monkeypatch: Any) -> None:
    now = django.utils.timezone.now()
    monkeypatch.setattr(django.utils.timezone, "now", lambda: now)


def _change(client, current: str, address: str = HALL):
    return client.post(
        reverse("password_change"),
        {"old_password": current, "new_password1": NEW, "new_password2": NEW},
        REMOTE_ADDR=address,
    )


def _row(user):
    model = apps.get_model("accounts", "PasswordFailures")
    return model.objects.get(username_key=user.get_username().casefold())


def test_the_right_current_password_changes_it(client, tenant):
    login(client, tenant.head)
    response = _change(client, PASSWORD)
    assert response.status_code == 302 and response["Location"] == reverse("password_change_done")
    tenant.head.refresh_from_db()
    assert tenant.head.check_password(NEW)


def test_wrong_current_passwords_are_throttled_like_logins(client, tenant):
    login(client, tenant.bookkeeper)
    for _ in range(3):  # typos: told, no wait
        response = _change(client, "not-my-password")
        assert response.status_code == 200
        assert "Your old password was entered incorrectly" in response.content.decode()
    assert AccessAttempt.objects.get(username=tenant.bookkeeper.username).failures_since_start == 3
    refused = _change(client, PASSWORD)  # even the right one waits now, unchecked
    assert refused.status_code == 429 and "wait 2 seconds" in refused.content.decode()
    tenant.bookkeeper.refresh_from_db()
    assert tenant.bookkeeper.check_password(PASSWORD)
    assert _row(tenant.bookkeeper).failures == 3


def test_the_address_lock_holds_on_the_password_change_page(client, tenant):
    """Five wrong passwords for the username from this address, on either page, pause its
    passwords from here: the password change page says so."""
    user = tenant.worker
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"), {"username": user.username, "password": "x"}, REMOTE_ADDR=HALL
        )
    login(client, user)
    response = _change(client, PASSWORD)
    page = response.content.decode()
    assert response.status_code == 429 and "Password change paused" in page
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


def test_a_locked_account_changes_no_password(client, tenant):
    user = tenant.member_in_charge
    login(client, user)
    model = apps.get_model("accounts", "PasswordFailures")
    now = django.utils.timezone.now()
    model.objects.create(
        username_key=user.username.casefold(),
        failures=settings.ACCOUNT_FAILURE_LIMIT,
        last_failure_at=now,
        locked_until=now + django.utils.timezone.timedelta(minutes=30),
    )
    response = _change(client, PASSWORD, address="192.0.2.44")
    assert response.status_code == 429 and "locked" in response.content.decode()
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


SOURCES = ("beano", *PROJECT_APPS)
#: seed_demo checks that a demo login still has the demo password: no one proves anything.
ALLOWED = {Path("beano/demo/organizations.py")}


def test_no_page_proves_a_password_around_the_rules():
    """Every proof of a password goes through ``authenticate()`` (the login's backends: the
    address lock, the account's ceiling); a user's ``check_password()`` called anywhere else
    would be a way around them (a second person's password, a password reset to come)."""
    root = Path(settings.BASE_DIR)
    calls = []
    for package in SOURCES:
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root)
            if relative in ALLOWED or "migrations" in relative.parts:
                continue
            if re.search(r"(?<!hashers)\.check_password\(", path.read_text()):
                calls.append(str(relative))
    assert calls == []


def test_the_admin_has_no_password_change_of_its_own(client, commission_admin):
    """The admin's own page would prove the current password with ``check_password``, outside
    the rules: it sends to the site's."""
    login(client, commission_admin)
    response = client.post(
        reverse("admin:password_change"),
        {"old_password": "guess", "new_password1": NEW, "new_password2": NEW},
    )
    assert response.status_code == 302 and response["Location"] == reverse("password_change")
    commission_admin.refresh_from_db()
    assert commission_admin.check_password(PASSWORD)
