"""A login given through the pages: the head invites a member as a worker from the People page;
the invited person opens the mailed link, chooses a password and lands on the dashboard; the
link is spent after that. Screenshots under the test's tmp_path."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.core import mail
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import second_factor
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
CHOSEN = "Fairhaven-blower-1954"


def test_an_invited_worker_sets_a_password_and_lands_on_the_dashboard(
    live_server: Any, new_tab: Callable[[], Any], tenant: Any, member: Any, tmp_path: Any
) -> None:
    org = tenant.organization
    head = new_tab()
    head.goto(live_server.url + reverse("people_list", args=[org.pk]))
    head.get_by_label("Username").fill(tenant.head.username)
    head.get_by_label("Password").fill(PASSWORD)
    head.get_by_role("button", name=re.compile("log in", re.I)).click()
    second_factor(head, tenant.head.username)
    expect(head.get_by_role("link", name="People")).to_have_class(re.compile("active"))
    head.get_by_role("link", name="Invite someone").click()
    head.get_by_label("Person").select_option(label="Joseph Rebello")
    head.get_by_label("E-mail address").fill("joseph.rebello@example.org")
    head.get_by_label("Worker").check()
    head.get_by_role("button", name="Send the invitation").click()
    expect(head.locator(".alert-success")).to_contain_text("joseph.rebello@example.org")
    row = head.locator("tr", has_text="joseph.rebello@example.org")
    expect(row).to_contain_text("Pending")
    expect(row).to_contain_text("Joseph Rebello")
    head.screenshot(path=str(tmp_path / "1-people.png"), full_page=True)

    [message] = mail.outbox
    link = re.search(r"http://\S+/invitation/\S+/", message.body).group(0)
    assert link.startswith(live_server.url)

    invited = new_tab()
    invited.goto(link)
    expect(invited.get_by_role("heading", name="Choose your password")).to_be_visible()
    expect(invited.locator("body")).to_contain_text("joseph.rebello@example.org")
    invited.get_by_label("Your password").fill(CHOSEN)
    invited.get_by_label("The same password again").fill(CHOSEN)
    invited.screenshot(path=str(tmp_path / "2-choose.png"), full_page=True)
    invited.get_by_role("button", name="Save my password and log in").click()
    expect(invited.get_by_role("heading", name="Dashboard")).to_be_visible()
    expect(invited.locator(".alert-success")).to_contain_text("Your password is saved")
    expect(invited.get_by_role("heading", name=org.name)).to_be_visible()
    invited.screenshot(path=str(tmp_path / "3-dashboard.png"), full_page=True)

    again = new_tab()
    again.goto(link)
    expect(again.locator(".invitation-refusal")).to_contain_text("already used")
    again.screenshot(path=str(tmp_path / "4-spent.png"))

    head.reload()
    expect(head.locator("tr", has_text="joseph.rebello@example.org")).to_contain_text("Accepted")
