"""Filing the annual report shows its summary first (issue 19, item 2), in the browser: the
bookkeeper of Post 171 files the 2025 annual report of the demo, sees what it files, its due
date and lateness and what is unfinished, and files it only from the summary's button."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from organizations.models import Organization
from reports.models import AnnualReport
from tests.browser.conftest import second_factor
from tests.browser.night_steps import log_in
from tests.browser.test_final_acts_confirm import _axe, _shots
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.mark.browser
def test_the_annual_report_is_filed_from_its_summary(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    post = Organization.objects.get(name="American Legion Post 171")
    assert not AnnualReport.objects.filter(organization=post, year=2025).exists()
    log_in(page, live_server.url + reverse("annual_report", args=[post.pk, 2025]), "post171-books")
    second_factor(page, "post171-books")
    page.get_by_role("button", name="File the 2025 annual report").click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_be_visible()
    expect(summary.get_by_role("heading", name="File the 2025 annual report?")).to_be_visible()
    expect(summary).to_contain_text(
        "It is due by January 30, 2026; filed today it is 308 days late."
    )
    expect(summary).to_contain_text("a correction is filed as an amendment with its reason")
    assert not AnnualReport.objects.filter(organization=post, year=2025).exists()
    page.screenshot(path=str(_shots(tmp_path) / "annual-confirm-1366x768.png"), full_page=True)
    assert _axe(page, live_server.url) == []
    summary.get_by_role("button", name="Yes, file the 2025 annual report").click()
    expect(page.get_by_text("The 2025 annual report is filed (version 1)")).to_be_visible()
    assert AnnualReport.objects.get(organization=post, year=2025).version == 1
