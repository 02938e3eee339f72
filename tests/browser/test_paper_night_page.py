"""The occasion page of a night entered from paper, as the bookkeeper sees it at 1366x768: who
was in charge on the sheets and who typed it in, and a floor bar with only what works."""

from __future__ import annotations

import os

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.test_paper_night import log_in
from tests.conftest import login
from tests.nightfile.test_night_pages import enter_known_night

pytestmark = pytest.mark.browser


def test_a_paper_nights_page_says_who_did_what(
    live_server, page, night_records, occasion, report_clock, tmp_path
):
    client = Client()
    login(client, night_records.bookkeeper)
    enter_known_night(client, occasion)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server.url + reverse("occasion_detail", kwargs=args), "post-one-bookkeeper")
    bar = page.locator("#floor-bar")
    expect(bar.get_by_role("link", name="Claims")).to_be_visible()
    expect(bar.get_by_role("link", name="Console")).to_have_count(0)
    expect(bar.get_by_role("link", name="Flashboard")).to_have_count(0)
    opened = page.get_by_text("Opened at 6:45 PM as the sheet says")
    expect(opened).to_contain_text("members in charge: Linda Souza, Anne Sullivan")
    expect(page.get_by_text("Closed at 10:30 PM as the sheet says")).to_be_visible()
    shots = os.environ.get("BEANO_SHOTS") or str(tmp_path)
    page.screenshot(path=f"{shots}/paper-night-top.png")
    opened.scroll_into_view_if_needed()
    page.screenshot(path=f"{shots}/paper-night-opening.png")
    page.get_by_text("Closed at 10:30 PM as the sheet says").scroll_into_view_if_needed()
    page.screenshot(path=f"{shots}/paper-night-close.png")
