"""A head makes a floor token in the browser, the worker typing their own PIN, copies it from
the page that shows it once, and revokes another after confirming; a Commission admin makes the
Commission's. Screenshots at 1366×768 go to ``BEANO_SCREENSHOTS`` (else the test's folder)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from api.models import ApiToken
from beano.accounts.pins import set_pin
from tests.api.conftest import token_for
from tests.browser.conftest import second_factor
from tests.browser.test_final_acts_confirm import _axe, _shots
from tests.conftest import PASSWORD

PIN = "4827"


def log_in(page: Any, url: str, user: Any) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    second_factor(page, user.get_username())
    page.wait_for_url(url)


@pytest.mark.browser
def test_a_head_makes_a_floor_token_and_revokes_another(live_server, page, tenant, tmp_path):
    tenant.worker.first_name, tenant.worker.last_name = "Dot", "Sullivan"
    tenant.worker.save()
    set_pin(user=tenant.worker, pin=PIN, current_password=PASSWORD)
    token_for(
        ApiToken.Scope.READ,
        by=tenant.head,
        organization=tenant.organization,
        name="Flashboard, hall B",
    )
    url = live_server.url + reverse("api_tokens", args=[tenant.organization.pk])
    log_in(page, url, tenant.head)
    page.get_by_label("Name").fill("Door point of sale")
    page.get_by_role("radio", name=re.compile("Floor")).check()
    page.get_by_label("Whose acts they are").select_option(str(tenant.worker.pk))
    page.get_by_label("Their own PIN or password").fill("1111")
    page.get_by_role("button", name="Make the token").click()
    expect(page.get_by_text("That is not")).to_be_visible()
    assert ApiToken.objects.count() == 1
    page.get_by_label("Their own PIN or password").fill(PIN)
    page.get_by_role("button", name="Make the token").click()
    made = page.locator("#made-token")
    expect(made).to_be_visible()
    assert made.inner_text().startswith("beano_")
    expect(page.locator("#made-example")).to_contain_text(
        f'Bearer {made.inner_text()}" {live_server.url}/api/v1/organizations/'
    )
    expect(page.locator("#token-list")).to_contain_text("Dot Sullivan")
    page.screenshot(path=str(_shots(tmp_path) / "api-tokens-made-1366x768.png"), full_page=True)
    assert _axe(page, live_server.url) == []
    row = page.locator("#token-list tr", has_text="Flashboard, hall B")
    row.get_by_text("Revoke…").click()
    row.get_by_role("button", name="Yes, revoke it").click()
    expect(page.get_by_text("is revoked: whatever used it is refused")).to_be_visible()
    expect(page.locator("#made-token")).to_have_count(0)
    assert ApiToken.objects.get(name="Flashboard, hall B").revoked_at is not None
    page.screenshot(path=str(_shots(tmp_path) / "api-tokens-revoked-1366x768.png"), full_page=True)


@pytest.mark.browser
def test_a_commission_admin_makes_the_commissions_token(
    live_server, page, commission_admin, tmp_path
):
    log_in(page, live_server.url + reverse("onboarding_home"), commission_admin)
    page.get_by_role("link", name="The Commission's API tokens").click()
    page.get_by_label("Name").fill("Commission data warehouse")
    page.get_by_role("button", name="Make the token").click()
    expect(page.locator("#made-token")).to_be_visible()
    page.screenshot(
        path=str(_shots(tmp_path) / "api-tokens-commission-1366x768.png"), full_page=True
    )
    assert _axe(page, live_server.url) == []
    assert ApiToken.objects.get().scope == "commission_read"
