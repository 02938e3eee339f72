"""The Commission admin's first steps with a new licensee, shared by the onboarding tests: the
login with the second factor, and the Westport Lions Club added with its license (Wednesdays
and Saturdays, 6:30-10:30 PM) through the Licensing pages."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.conftest import PASSWORD, totp_code, totp_device

LICENSE_FIELDS = {
    "org-name": "Westport Lions Club",
    "org-founded_on": "1958-04-12",
    "org-street": "40 Main Road",
    "org-town": "Westport",
    "org-zip_code": "02790",
    "org-telephone": "508-555-0140",
    "license-number": "BN-2027-0140",
    "license-valid_from": "2027-01-01",
    "license-valid_to": "2027-12-31",
    "license-start_time": "18:30",
    "license-end_time": "22:30",
    "license-premises_name": "Lions Den",
    "license-premises_address": "40 Main Road, Westport",
    "license-local_licensing_authority": "Westport Select Board",
}


def admin_logs_in(page: Any, url: str, admin: Any) -> None:
    """The Commission admin, enrolled already: the login asks for the authenticator's code."""
    device = totp_device(admin)
    page.goto(url + "/")
    page.get_by_label("Username").fill(admin.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.get_by_label("Code from your authenticator app").fill(totp_code(device))
    page.get_by_role("button", name="Verify").click()


def add_westport(page: Any, shot: Callable[[], None]) -> None:
    """From the Licensing list: the club and its license added, the form shot before sending."""
    page.get_by_role("link", name="Licensing", exact=True).first.click()
    page.get_by_role("link", name="Add an organization and its license").click()
    for name, value in LICENSE_FIELDS.items():
        page.locator(f'[name="{name}"]').fill(value)
    page.locator('[name="org-kind"]').select_option("charitable")
    page.get_by_label("Wednesday").check()
    page.get_by_label("Saturday").check()
    shot()
    page.get_by_role("button", name="Add the organization and its license").click()
    expect(page.get_by_text("Westport Lions Club is licensed (BN-2027-0140)")).to_be_visible()
