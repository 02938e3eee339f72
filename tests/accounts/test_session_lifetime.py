"""An absolute session lifetime: a session signed in longer ago than SESSION_ABSOLUTE_HOURS (12)
is signed out however busy it is. The idle timeout ends a session left alone; this one ends a
session kept busy for ever (a hall laptop's door page used every few minutes, night after night,
or a stolen session cookie kept warm)."""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

from beano.accounts.middleware import LAST_ACTIVITY_KEY, SIGNED_IN_AT_KEY
from tests.conftest import PASSWORD, login


def _signed_in_hours_ago(client, hours: float) -> None:
    """The session signed in ``hours`` ago and was used a moment ago (the wall clock)."""
    session = client.session
    session[SIGNED_IN_AT_KEY] = int(time.time() - hours * 3600)
    session[LAST_ACTIVITY_KEY] = int(time.time() - 30)
    session.save()


def test_the_default_is_twelve_hours():
    assert settings.SESSION_ABSOLUTE_HOURS == 12


def test_logging_in_starts_the_clock(client, tenant):
    before = int(time.time())
    response = client.post(
        reverse("login"), {"username": tenant.head.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert before <= client.session[SIGNED_IN_AT_KEY] <= int(time.time())


def test_a_busy_session_older_than_the_lifetime_is_signed_out_saying_why(client, tenant):
    login(client, tenant.member_in_charge)
    _signed_in_hours_ago(client, 12.02)
    url = reverse("organization_home", args=[tenant.organization.pk])
    response = client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("login") + f"?next={url}"
    page = response.content.decode()
    assert "You were signed out 12 hours after logging in" in page
    assert SESSION_KEY not in client.session


def test_a_session_within_the_lifetime_goes_on(client, tenant):
    login(client, tenant.member_in_charge)
    _signed_in_hours_ago(client, 11.9)
    assert client.get(reverse("dashboard")).status_code == 200
    assert SESSION_KEY in client.session


def test_a_poll_after_the_lifetime_sends_the_whole_page_to_the_login(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    _signed_in_hours_ago(client, 13)
    counts = reverse("sale_counts", args=[tenant.organization.pk, open_occasion.pk])
    response = client.get(counts, HTTP_HX_REQUEST="true", HTTP_X_BEANO_POLL="1")
    assert response.status_code == 204
    assert response["HX-Redirect"].startswith(reverse("login"))


def test_a_verified_inspector_is_signed_out_too(client, inspector):
    login(client, inspector)
    _signed_in_hours_ago(client, 12.5)
    response = client.get(reverse("inspector_dashboard"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_session_from_before_the_lifetime_existed_starts_its_clock_now(client, tenant):
    login(client, tenant.worker)
    session = client.session
    del session[SIGNED_IN_AT_KEY]
    session.save()
    assert client.get(reverse("dashboard")).status_code == 200
    assert abs(client.session[SIGNED_IN_AT_KEY] - time.time()) < 5


def test_the_lifetime_comes_from_the_environment(client, tenant, settings, tmp_path):
    settings.SESSION_ABSOLUTE_HOURS = 2
    login(client, tenant.worker)
    _signed_in_hours_ago(client, 2.1)
    page = client.get(reverse("dashboard"), follow=True).content.decode()
    assert "You were signed out 2 hours after logging in" in page

    from tests.test_settings import run_manage

    result = run_manage(
        [
            "shell",
            "--no-imports",
            "-c",
            "from django.conf import settings as s; print(s.SESSION_ABSOLUTE_HOURS)",
        ],
        {"SESSION_ABSOLUTE_HOURS": "6"},
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "6"
    refused = run_manage(["check"], {"SESSION_ABSOLUTE_HOURS": "0"}, tmp_path)
    assert refused.returncode != 0 and "SESSION_ABSOLUTE_HOURS" in refused.stderr
