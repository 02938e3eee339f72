import re

import pytest
from playwright.sync_api import expect

from tests.conftest import PASSWORD


@pytest.mark.browser
def test_a_member_in_charge_logs_in_and_sees_the_dashboard(live_server, page, tenant, tmp_path):
    page.goto(live_server.url + "/")
    assert "/accounts/login/" in page.url
    page.fill("input[name=username]", tenant.member_in_charge.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("h1:has-text('Dashboard')")
    assert page.locator("text=Next authorized occasions").is_visible()
    assert page.locator(f'h2:has-text("{tenant.organization.name}")').is_visible()
    # Bootstrap's layout and the app's own colours (the top bar at 4.5:1 and more) both served.
    nav = page.locator(".navbar")
    assert nav.evaluate("e => getComputedStyle(e).display") == "flex", "Bootstrap from static/"
    css = nav.evaluate("e => getComputedStyle(e).backgroundColor")
    assert re.match(r"rgb\(11, 58, 126\)", css), "static/css/beano.css is served"
    page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)


@pytest.mark.browser
def test_a_wrong_password_is_refused_with_a_message(live_server, page, tenant):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("input[name=username]", tenant.head.username)
    page.fill("input[name=password]", "wrong-password")
    page.click("button[type=submit]")
    # Waited for: the click returns before the answer to the form is shown.
    expect(page.locator("text=Please enter a correct username and password")).to_be_visible()
