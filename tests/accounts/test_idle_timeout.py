"""Idle timeout for shared hall laptops: a session ends after IDLE_TIMEOUT_MINUTES without a
real request; polls (X-Beano-Poll) never keep it alive; the login page then says why."""

from __future__ import annotations

import re
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.urls import reverse

from beano.accounts.middleware import LAST_ACTIVITY_KEY, POLL_HEADER
from tests.conftest import login

TEMPLATES = Path(settings.BASE_DIR) / "templates"
POLL = {"HTTP_X_BEANO_POLL": "1"}


def _idle_for(client, minutes: float) -> None:
    """The session's last real request was ``minutes`` ago (the wall clock, as the
    middleware reads it)."""
    session = client.session
    session[LAST_ACTIVITY_KEY] = int(time.time() - minutes * 60)
    session.save()


def _last_activity(client) -> int:
    return client.session[LAST_ACTIVITY_KEY]


def test_the_default_is_thirty_minutes():
    assert settings.IDLE_TIMEOUT_MINUTES == 30


def test_a_session_idle_too_long_lands_on_the_login_page_saying_why(client, tenant):
    login(client, tenant.member_in_charge)
    client.get(reverse("dashboard"))
    _idle_for(client, 31)
    url = reverse("organization_home", args=[tenant.organization.pk])
    response = client.get(url, follow=True)
    assert response.redirect_chain[-1][0] == reverse("login") + f"?next={url}"
    page = response.content.decode()
    assert "You were signed out after 30 minutes without activity" in page
    assert SESSION_KEY not in client.session
    assert client.get(reverse("dashboard")).status_code == 302


def test_a_session_used_within_the_timeout_goes_on(client, tenant):
    login(client, tenant.member_in_charge)
    _idle_for(client, 29)
    before = _last_activity(client)
    assert client.get(reverse("dashboard")).status_code == 200
    assert _last_activity(client) > before + 28 * 60


def test_polls_do_not_count_as_activity(client, tenant, open_occasion):
    login(client, tenant.member_in_charge)
    counts = reverse("sale_counts", args=[tenant.organization.pk, open_occasion.pk])
    _idle_for(client, 20)
    before = _last_activity(client)
    assert client.get(counts, HTTP_HX_REQUEST="true", **POLL).status_code == 200
    assert _last_activity(client) == before
    _idle_for(client, 31)
    response = client.get(counts, HTTP_HX_REQUEST="true", **POLL)
    # The whole page goes to the login page, not a fragment of it.
    assert response.status_code == 204
    assert response["HX-Redirect"].startswith(reverse("login"))
    assert SESSION_KEY not in client.session


def test_a_verified_inspector_times_out_too(client, tenant, inspector):
    login(client, inspector)
    _idle_for(client, 45)
    response = client.get(reverse("dashboard"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_public_flashboard_keeps_working_when_the_session_behind_it_expires(
    client, tenant, open_occasion
):
    from games import draw_services

    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    login(client, tenant.member_in_charge)
    _idle_for(client, 10)
    before = _last_activity(client)
    poll = reverse("flashboard_board", args=[board.token])
    assert client.get(poll, HTTP_HX_REQUEST="true", **POLL).status_code == 200
    assert _last_activity(client) == before, "the projector's poll keeps no one signed in"
    _idle_for(client, 31)
    response = client.get(poll, HTTP_HX_REQUEST="true", **POLL)
    assert response.status_code == 200 and "HX-Redirect" not in response
    assert SESSION_KEY not in client.session


def test_the_timeout_comes_from_the_environment(client, tenant, settings):
    settings.IDLE_TIMEOUT_MINUTES = 5
    login(client, tenant.worker)
    _idle_for(client, 6)
    page = client.get(reverse("dashboard"), follow=True).content.decode()
    assert "signed out after 5 minutes without activity" in page


def test_every_polling_element_in_the_templates_says_it_is_a_poll():
    """An element refreshed on a timer must send X-Beano-Poll, or a page left open would keep
    its session alive for ever."""
    polling = 0
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        for element in re.findall(r"<[^>]*hx-trigger=\"[^\"]*every [^>]*>", text, re.S):
            polling += 1
            assert f'"{POLL_HEADER}"' in element, f"{path}: {element[:120]}"
    assert polling >= 2  # the door counts and the flashboard
