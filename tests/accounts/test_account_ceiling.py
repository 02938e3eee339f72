"""A ceiling on one account's failed passwords, wherever they come from.

django-axes locks a username *from one address* after five failures (tests/accounts/
test_lockout.py); on its own it let twenty guesses in seconds from four addresses through,
and the next one in. Across addresses, each account now has: a few free tries (typos), then a
wait that doubles after each failure, during which no password is checked at all; then, at
ACCOUNT_FAILURE_LIMIT failures in a row, a lock for ACCOUNT_LOCK_MINUTES that only time or a
Commission admin lifts. The same rules hold wherever a password is proved: the login page and
the password change page's current password (tests/accounts/test_password_change.py)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import django.utils.timezone
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from organizations.models import AuditEvent
from tests.conftest import PASSWORD, login

#: Tries whose failure costs no wait: the typos of someone who knows the password.
FREE = 3


@pytest.fixture(autouse=True)
def _clock_stands_still(monkeypatch: Any) -> None:
    """The application's clock stops at the test's start: a wait of two seconds is not over
    because the machine is slow; ``_time_passes`` moves the account's times instead."""
    now = django.utils.timezone.now()
    monkeypatch.setattr(django.utils.timezone, "now", lambda: now)


def _failures():
    return apps.get_model("accounts", "PasswordFailures")


def _row(username: str):
    return _failures().objects.get(username_key=username.casefold())


def _address(n: int) -> str:
    return f"198.51.100.{n}"


def _try(username: str, password: str, n: int = 1, client: Client | None = None):
    """A login from address number ``n`` (a new browser unless ``client`` is given)."""
    return (client or Client()).post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=_address(n)
    )


def _time_passes(username: str, seconds: float) -> None:
    """Move the account's clock: its wait and its lock end ``seconds`` sooner."""
    row = _row(username)
    delta = dt.timedelta(seconds=seconds)
    for name in ("last_failure_at", "next_try_at", "locked_until"):
        value = getattr(row, name)
        if value is not None:
            setattr(row, name, value - delta)
    row.save()


def _wrong_until_locked(username: str) -> None:
    """ACCOUNT_FAILURE_LIMIT wrong passwords, each from a new address and after its wait."""
    for n in range(settings.ACCOUNT_FAILURE_LIMIT):
        response = _try(username, "not-the-password", n=n + 1)
        assert response.status_code == 200, (n, response.status_code)
        if n + 1 < settings.ACCOUNT_FAILURE_LIMIT:
            _time_passes(username, 3600)


def test_the_defaults_are_ten_failures_and_an_hour():
    assert settings.ACCOUNT_FAILURE_LIMIT == 10
    assert settings.ACCOUNT_LOCK_MINUTES == 60


def test_twenty_guesses_in_seconds_from_four_addresses_no_longer_get_in(tenant):
    """The issue's attack: five wrong passwords from each of four addresses (under django-axes'
    lock of each pair), then the right one from a fifth address."""
    user = tenant.member_in_charge.username
    answers = [_try(user, f"guess-{i}", n=i % 4 + 1).status_code for i in range(20)]
    assert answers[:FREE] == [200] * FREE  # checked, and wrong
    assert set(answers[FREE:]) <= {429}  # refused without a password being checked
    assert _row(user).failures == FREE
    client = Client()
    response = _try(user, PASSWORD, n=5, client=client)
    assert response.status_code == 429 and SESSION_KEY not in client.session
    assert "wait" in response.content.decode()


def test_a_typo_or_two_cost_nothing(client, tenant):
    user = tenant.head.username
    for n in range(FREE - 1):
        assert _try(user, "typo", n=n + 1).status_code == 200
    response = _try(user, PASSWORD, n=9, client=client)
    assert response.status_code == 302 and SESSION_KEY in client.session
    assert _row(user).failures == 0  # the right password clears the count


def test_the_wait_doubles_after_each_failure_and_no_password_is_checked_meanwhile(tenant):
    user = tenant.bookkeeper.username
    waits = []
    for n in range(FREE + 3):
        assert _try(user, "wrong", n=n + 1).status_code == 200
        row = _row(user)
        waits.append(round((row.next_try_at - row.last_failure_at).total_seconds()))
        if n + 1 >= FREE:
            refused = _try(user, PASSWORD, n=50)
            page = refused.content.decode()
            assert refused.status_code == 429 and f"wait {waits[-1]} seconds" in page
            assert refused["Retry-After"] == str(waits[-1])
            assert _row(user).failures == n + 1, "a refused try checks no password"
        _time_passes(user, waits[-1])
    assert waits == [0, 0, 2, 4, 8, 16]
    client = Client()
    assert _try(user, PASSWORD, n=51, client=client).status_code == 302


def test_at_the_limit_the_account_is_locked_from_everywhere_until_time_lifts_it(tenant):
    user = tenant.worker.username
    _wrong_until_locked(user)
    row = _row(user)
    minutes = settings.ACCOUNT_LOCK_MINUTES
    assert row.locked_until is not None
    assert abs((row.locked_until - row.last_failure_at) - dt.timedelta(minutes=minutes)) < (
        dt.timedelta(seconds=1)
    )
    client = Client()
    refused = _try(user, PASSWORD, n=77, client=client)
    page = refused.content.decode()
    assert refused.status_code == 429 and SESSION_KEY not in client.session
    assert "locked" in page and "Commission admin" in page
    assert _row(user).failures == settings.ACCOUNT_FAILURE_LIMIT
    _time_passes(user, minutes * 60 - 5)
    assert _try(user, PASSWORD, n=78).status_code == 429, "still locked"
    _time_passes(user, 10)
    assert _try(user, PASSWORD, n=79, client=client).status_code == 302
    assert SESSION_KEY in client.session
    row = _row(user)
    assert row.failures == 0 and row.locked_until is None


def test_an_unknown_username_is_answered_the_same_way(db):
    """Whether a username exists is not told by the ceiling either."""
    _wrong_until_locked("nobody-here")
    refused = _try("nobody-here", PASSWORD, n=80)
    assert refused.status_code == 429 and "locked" in refused.content.decode()


def test_one_account_whatever_the_case_of_its_username(tenant):
    user = tenant.head.username
    for n, spelling in enumerate([user, user.upper(), user.title()]):
        assert _try(spelling, "wrong", n=n + 1).status_code == 200
    assert _row(user).failures == 3
    assert _try(user.swapcase(), PASSWORD, n=9).status_code == 429


def test_a_commission_admin_lifts_the_lock(client, tenant, commission_admin):
    user = tenant.member_in_charge.username
    _wrong_until_locked(user)
    login(client, commission_admin)
    changelist = reverse("admin:accounts_passwordfailures_changelist")
    page = client.get(changelist).content.decode()
    assert user in page and "Locked until" in page
    response = client.post(
        changelist, {"action": "lift_lock", "_selected_action": [_row(user).pk]}, follow=True
    )
    assert response.status_code == 200
    assert "lifted" in response.content.decode()
    row = _row(user)
    assert row.failures == 0 and row.locked_until is None and row.next_try_at is None
    event = AuditEvent.objects.get(action="accounts.password_lock.lifted")
    assert event.actor == commission_admin and event.old_values["failures"] == 10
    assert _try(user, PASSWORD, n=90).status_code == 302


def test_an_inspector_and_a_head_cannot_lift_it(client, tenant, inspector):
    user = tenant.worker.username
    _wrong_until_locked(user)
    for someone in (inspector, tenant.head):
        login(client, someone)
        response = client.get(reverse("admin:accounts_passwordfailures_changelist"))
        assert response.status_code in (302, 403)
    assert _row(user).locked_until is not None


def test_the_settings_read_the_ceiling_from_the_environment(tmp_path):
    from tests.test_settings import run_manage

    result = run_manage(
        [
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s; "
            "print(s.ACCOUNT_FAILURE_LIMIT, s.ACCOUNT_LOCK_MINUTES)",
        ],
        {"ACCOUNT_FAILURE_LIMIT": "25", "ACCOUNT_LOCK_MINUTES": "30"},
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["25", "30"]
    refused = run_manage(["check"], {"ACCOUNT_FAILURE_LIMIT": "2"}, tmp_path)
    assert refused.returncode != 0 and "ACCOUNT_FAILURE_LIMIT" in refused.stderr
