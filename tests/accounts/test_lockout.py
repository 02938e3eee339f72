"""Login lockout (django-axes): a username is locked *from one client address* after repeated
failures, for a cool-off; another address, or another username from the same address, still
logs in; a successful login starts the count again. (Across addresses the account has its own
ceiling, tests/accounts/test_account_ceiling.py: after a few failures it makes the next try
wait some seconds, which these tests let pass with ``_seconds_pass``.)"""

from __future__ import annotations

import datetime as dt

from axes.models import AccessAttempt
from django.conf import settings
from django.test import RequestFactory, override_settings
from django.urls import reverse

from beano.accounts.client_ip import client_ip
from beano.accounts.models import PasswordFailures
from tests.conftest import PASSWORD

HALL = "203.0.113.10"  # one NAT address for a whole hall
ELSEWHERE = "198.51.100.7"


def _login(client, username: str, password: str, address: str = HALL, url: str = ""):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
    )


def _fail(client, username: str, times: int, address: str = HALL) -> None:
    for _ in range(times):
        response = _login(client, username, "not-the-password", address)
        assert response.status_code in (200, 429)


def _seconds_pass() -> None:
    """A few seconds pass: the account's wait between tries is over, django-axes' pause is not."""
    PasswordFailures.objects.update(next_try_at=None)


def _logged_in(response) -> bool:
    return response.status_code == 302


def test_the_limit_and_cool_off_come_from_the_environment():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert dt.timedelta(minutes=15) == settings.AXES_COOLOFF_TIME
    assert settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]


def test_repeated_failures_lock_that_username_from_that_address(client, tenant):
    user = tenant.member_in_charge.username
    _fail(client, user, settings.AXES_FAILURE_LIMIT - 1)
    assert AccessAttempt.objects.get(username=user, ip_address=HALL).failures_since_start == 4
    response = _login(client, user, "still-wrong")
    assert response.status_code == 429
    page = response.content.decode()
    assert "Login paused for 15 minutes" in page and "wrong 5 times" in page
    # The way back when the password is forgotten: the reset link, which does not end the pause.
    assert '<a href="/accounts/password/reset/">set a new one by e-mail</a>' in page
    assert "A new password does not end the pause" in page
    assert 'href="/static/vendor/bootstrap/css/bootstrap.min.css"' in page, "the site's style"
    # Now even the right password is refused from here.
    response = _login(client, user, PASSWORD)
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_another_address_is_not_locked(client, tenant):
    user = tenant.member_in_charge.username
    _fail(client, user, settings.AXES_FAILURE_LIMIT)
    assert _login(client, user, PASSWORD).status_code == 429
    _seconds_pass()
    assert _logged_in(_login(client, user, PASSWORD, address=ELSEWHERE))


def test_other_people_behind_the_same_address_still_log_in(client, tenant):
    _fail(client, tenant.member_in_charge.username, settings.AXES_FAILURE_LIMIT)
    assert _logged_in(_login(client, tenant.worker.username, PASSWORD))


def test_the_lock_ends_after_the_cool_off(client, tenant):
    user = tenant.head.username
    _fail(client, user, settings.AXES_FAILURE_LIMIT)
    assert _login(client, user, PASSWORD).status_code == 429
    # Sixteen minutes pass since the last failure (the refused try above counted as one).
    AccessAttempt.objects.filter(username=user).update(
        attempt_time=AccessAttempt.objects.get(username=user).attempt_time
        - dt.timedelta(minutes=16)
    )
    _seconds_pass()
    assert _logged_in(_login(client, user, PASSWORD))


def test_the_lock_holds_until_the_cool_off_is_over(client, tenant):
    user = tenant.head.username
    _fail(client, user, settings.AXES_FAILURE_LIMIT)
    AccessAttempt.objects.filter(username=user).update(
        attempt_time=AccessAttempt.objects.get(username=user).attempt_time
        - dt.timedelta(minutes=14)
    )
    assert _login(client, user, PASSWORD).status_code == 429


def test_a_successful_login_starts_the_count_again(client, tenant):
    user = tenant.bookkeeper.username
    _fail(client, user, settings.AXES_FAILURE_LIMIT - 1)
    _seconds_pass()
    assert _logged_in(_login(client, user, PASSWORD))
    assert not AccessAttempt.objects.filter(username=user).exists()
    client.logout()
    _fail(client, user, settings.AXES_FAILURE_LIMIT - 1)
    _seconds_pass()
    assert _logged_in(_login(client, user, PASSWORD))


def test_the_admin_has_no_login_of_its_own(client, commission_admin):
    """The admin's login page sends to the site's, where the lockout and the second factor are."""
    response = client.post(
        reverse("admin:login"),
        {"username": commission_admin.username, "password": PASSWORD},
        REMOTE_ADDR=HALL,
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("login") + "?next=/admin/"
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("admin:index"))["Location"].startswith(reverse("admin:login"))


def test_the_settings_read_the_limit_and_the_cool_off(tmp_path):
    from tests.test_settings import run_manage

    result = run_manage(
        [
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s; "
            "print(s.AXES_FAILURE_LIMIT, s.AXES_COOLOFF_TIME, s.TRUSTED_PROXY_COUNT)",
        ],
        {"LOGIN_FAILURE_LIMIT": "3", "LOGIN_COOLOFF_MINUTES": "45"},
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "0:45:00", "0"]


# The client's address behind reverse proxies


def _request(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/accounts/login/", **extra)


@override_settings(TRUSTED_PROXY_COUNT=0)
def test_without_a_proxy_a_forwarded_header_is_not_believed():
    assert client_ip(_request("203.0.113.10", "1.2.3.4")) == "203.0.113.10"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_one_proxy_the_address_it_saw_is_the_client():
    # The client sent "1.2.3.4" itself; the proxy appended the address it received from.
    assert client_ip(_request("10.0.0.2", "1.2.3.4, 203.0.113.10")) == "203.0.113.10"
    assert client_ip(_request("10.0.0.2", "203.0.113.10")) == "203.0.113.10"
    assert client_ip(_request("10.0.0.2")) == "10.0.0.2", "not through the proxy"
    assert client_ip(_request("10.0.0.2", "nonsense")) == "10.0.0.2"


@override_settings(TRUSTED_PROXY_COUNT=2)
def test_behind_two_proxies_the_outer_ones_view_counts():
    assert client_ip(_request("10.0.0.3", "1.2.3.4, 203.0.113.10, 10.0.0.2")) == "203.0.113.10"


def test_behind_a_tls_proxy_one_proxy_is_assumed(tmp_path):
    from tests.test_settings import PRODUCTION, run_manage

    result = run_manage(
        [
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s; print(s.TRUSTED_PROXY_COUNT)",
        ],
        {
            **PRODUCTION,
            "BEHIND_TLS_PROXY": "on",
            "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
        },
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_a_lockout_behind_the_proxy_follows_the_real_client(client, tenant):
    user = tenant.member_in_charge.username
    proxy = "10.0.0.2"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(
            reverse("login"),
            {"username": user, "password": "wrong"},
            REMOTE_ADDR=proxy,
            HTTP_X_FORWARDED_FOR=HALL,
        )
    locked = client.post(
        reverse("login"),
        {"username": user, "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=HALL,
    )
    assert locked.status_code == 429
    _seconds_pass()
    other_hall = client.post(
        reverse("login"),
        {"username": user, "password": PASSWORD},
        REMOTE_ADDR=proxy,
        HTTP_X_FORWARDED_FOR=ELSEWHERE,
    )
    assert _logged_in(other_hall)
