"""A page answered to a signed-in user is never kept by the browser (``Cache-Control:
no-store``): after the member in charge signs out of a shared hall laptop, the Back button or
the browser's cache must not show the next person the winners, the TINs' last digits or the
door's takings. Static files and the public flashboard keep their own caching."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from games import draw_services
from tests.conftest import login


def _pages(tenant, occasion) -> list[str]:
    org = tenant.organization.pk
    return [
        reverse("dashboard"),
        reverse("organization_home", args=[org]),
        reverse("occasion_detail", args=[org, occasion.pk]),
        reverse("audit_log", args=[org]),
        reverse("account"),
        reverse("password_change"),
    ]


def test_every_signed_in_page_says_no_store(client, tenant, occasion):
    login(client, tenant.head)
    for url in _pages(tenant, occasion):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url


def test_an_htmx_fragment_and_a_redirect_of_a_signed_in_user_say_no_store(
    client, tenant, open_occasion
):
    login(client, tenant.member_in_charge)
    counts = reverse("sale_counts", args=[tenant.organization.pk, open_occasion.pk])
    fragment = client.get(counts, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200 and "no-store" in fragment["Cache-Control"]
    redirect = client.get(reverse("login"))  # a signed-in user is sent on to the dashboard
    assert redirect.status_code == 302 and "no-store" in redirect["Cache-Control"]


def test_an_inspectors_pages_say_no_store(client, tenant, inspector):
    login(client, inspector)
    response = client.get(reverse("inspector_dashboard"))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("signed_in", [False, True])
def test_the_flashboard_keeps_its_own_caching_even_for_a_signed_in_user(
    client, tenant, open_occasion, signed_in
):
    """The projector's poll answers 304 while nothing changed: ``no-cache`` with an ETag, which
    ``no-store`` would defeat, whoever's browser shows it."""
    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    if signed_in:
        login(client, tenant.member_in_charge)
    poll = reverse("flashboard_board", args=[board.token])
    first = client.get(poll)
    assert first["Cache-Control"] == "no-cache"
    again = client.get(poll, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["Cache-Control"] == "no-cache"
    page = client.get(reverse("flashboard", args=[board.token]))
    assert page["Cache-Control"] == "no-cache"


def test_static_files_keep_their_caching_for_a_signed_in_user(tenant):
    with override_settings(WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True):
        client = Client()  # a new handler: WhiteNoise reads its settings when it starts
        login(client, tenant.head)
        response = client.get("/static/css/beano.css")
        assert response.status_code == 200
        assert "no-store" not in response.get("Cache-Control", "")
