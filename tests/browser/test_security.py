"""Signing in as the Commission's staff in the browser, with a real code from the TOTP key;
the lockout page; and a check that the Content Security Policy listener of conftest.page
hears a violation when there is one."""

import base64
import re

import pytest
from django.urls import reverse
from django_otp.oath import totp
from playwright.sync_api import expect

from tests.conftest import PASSWORD, totp_code, totp_device


def _log_in(page, live_server, username: str, next_url: str = "/") -> None:
    page.goto(live_server.url + next_url)
    assert "/accounts/login/" in page.url
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()


@pytest.mark.browser
def test_an_inspector_types_the_code_from_their_app(
    live_server, page, tenant, statewide_inspector, tmp_path
):
    device = totp_device(statewide_inspector)
    target = reverse("organization_home", args=[tenant.organization.pk])
    _log_in(page, live_server, statewide_inspector.username, target)
    expect(page.get_by_role("heading", name="Your two-factor code")).to_be_visible()
    code = page.get_by_label("Code from your authenticator app")
    expect(code).to_be_focused()
    page.screenshot(path=str(tmp_path / "verify.png"), full_page=True)
    code.fill(totp_code(device))
    page.get_by_role("button", name="Verify").click()
    expect(page).to_have_url(live_server.url + target)
    expect(page.get_by_role("heading", name=tenant.organization.name)).to_be_visible()


@pytest.mark.browser
def test_an_inspector_without_a_device_sets_one_up_at_first_login(
    live_server, page, inspector, tmp_path
):
    _log_in(page, live_server, inspector.username)
    expect(page.get_by_role("heading", name="Set up two-factor authentication")).to_be_visible()
    qr = page.get_by_role("img", name="QR code to scan")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] >= 200, "large enough to scan from the screen"
    page.screenshot(path=str(tmp_path / "setup.png"), full_page=True)
    key = page.locator("#totp-key").inner_text().replace(" ", "")
    secret = base64.b32decode(key + "=" * (-len(key) % 8))
    page.get_by_label("Code from your authenticator app").fill(str(totp(secret)).zfill(6))
    page.get_by_role("button", name="Confirm and turn on").click()
    # The recovery codes, shown once to print, then on to where the login was going.
    expect(page.get_by_role("heading", name="Your recovery codes")).to_be_visible()
    expect(page.locator("main li")).to_have_count(10)
    page.get_by_role("link", name="I have kept them — continue").click()
    # An inspector's dashboard is the inspection dashboard.
    expect(page.get_by_role("heading", name="Inspection", exact=True)).to_be_visible()
    page.get_by_role("link", name="Account").click()
    expect(page.locator("#two-factor .badge")).to_have_text("On")
    page.screenshot(path=str(tmp_path / "account.png"), full_page=True)


@pytest.mark.browser
def test_five_wrong_passwords_pause_the_login_with_a_clear_page(
    live_server, page, tenant, tmp_path
):
    page.goto(live_server.url + "/accounts/login/")
    for _ in range(5):
        page.get_by_label("Username").fill(tenant.head.username)
        page.get_by_label("Password").fill("wrong-password")
        page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page.get_by_role("heading", name="Login paused for 15 minutes")).to_be_visible()
    page.screenshot(path=str(tmp_path / "locked.png"), full_page=True)
    page.get_by_role("link", name="Back to the login page").click()
    page.get_by_label("Username").fill(tenant.worker.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    expect(page.get_by_role("heading", name="Dashboard")).to_be_visible()


@pytest.mark.browser
def test_the_listener_hears_a_policy_violation(live_server, page, tenant):
    page.goto(live_server.url + "/accounts/login/")
    page.evaluate(
        "() => { const s = document.createElement('script');"
        " s.textContent = 'window.ran = true'; document.body.appendChild(s); }"
    )
    page.wait_for_timeout(200)
    assert page.evaluate("() => window.ran") is None, "an inline script never runs"
    assert any("Content Security Policy" in v for v in page.csp_violations)
    page.csp_violations.clear()  # heard, and expected here


@pytest.mark.browser
def test_the_admin_works_under_the_policy(live_server, page, tenant, commission_admin):
    device = totp_device(commission_admin)
    _log_in(page, live_server, commission_admin.username, reverse("admin:index"))
    page.get_by_label("Code from your authenticator app").fill(totp_code(device))
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_text("Commission administration")).to_be_visible()
    license_ = tenant.organization.licenses.get()
    page.goto(live_server.url + reverse("admin:organizations_license_change", args=[license_.pk]))
    expect(page.locator("#license_form")).to_be_visible()
    page.goto(live_server.url + reverse("admin:organizations_license_changelist"))
    expect(page.locator("#result_list")).to_be_visible()
