"""An inspector's review in the browser: logs in, finds the person on four organizations'
worker lists, opens the full record of Post 171's last night and downloads its ball calls as
CSV and its financial report as PDF/A, and finds Post 171's late report among the reports
owed; every page they opened is in the log of the Commission's views."""

import csv
import datetime as dt
import io
import re
import subprocess
from pathlib import Path
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from games.models import BallCall
from occasions.models import Occasion
from organizations.models import RecordView
from tests.conftest import totp_code, totp_device

NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.mark.browser
def test_an_inspector_finds_the_person_on_four_lists_the_late_report_and_a_nights_record(
    live_server, page, monkeypatch, tmp_path
):
    # The live server runs in this process: pinning the clock pins the server's too.
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NOW)
    call_command("seed_demo", force=True)
    night = Occasion.objects.get(
        organization__name="American Legion Post 171",
        status=Occasion.Status.CLOSED,
        paper_records__isnull=True,  # the night played live (another was brought in on paper)
    )

    def shot(name: str) -> None:
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)

    # Log in: an inspector lands on the inspection dashboard.
    page.goto(live_server.url + "/")
    page.get_by_label("Username").fill("inspector")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    # The Commission's staff give their second factor: the demo's authenticator's code.
    inspector = get_user_model().objects.get(username="inspector")
    page.get_by_label("Code from your authenticator app").fill(totp_code(totp_device(inspector)))
    page.get_by_role("button", name="Verify").click()
    expect(page.get_by_role("heading", name="Inspection", exact=True)).to_be_visible()
    expect(page.get_by_role("cell", name="Knights of Columbus Council 4410")).to_be_visible()

    # One organization's nights, its night from paper among them: on the hall's laptop screen
    # the list shows every column, the paper badge wrapped within its status column.
    page.get_by_label("Organization", exact=True).select_option(label="American Legion Post 171")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(".badge.from-paper").first).to_be_visible()
    overflow = page.locator(".table-responsive").evaluate_all(
        "wrappers => wrappers.map(w => w.scrollWidth - w.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.get_by_role("link", name="Clear").click()

    # Search for the person: on four organizations' lists this year, the limit.
    page.get_by_label("Search").fill("Gallagher")
    page.get_by_role("button", name="Filter").click()
    found = page.locator(".person-found")
    expect(found).to_have_count(1)
    expect(found).to_contain_text("Mary Gallagher")
    expect(found).to_contain_text("on 4 organizations' worker lists in 2026 (limit 4)")
    for org in ("Acushnet Volunteer Fire Association", "St. Anne's Parish"):
        expect(found.get_by_role("link", name=org)).to_be_visible()
    shot("1-search")

    # The compliance view says the same, across every organization.
    page.get_by_role("link", name="Compliance", exact=True).first.click()
    page.get_by_role("link", name="Workers on several lists").click()
    row = page.get_by_role("row", name=re.compile("Mary Gallagher"))
    expect(row).to_contain_text("4 of 4")
    expect(row).to_contain_text("At the limit")
    shot("2-workers")

    # The night's full record, from the dashboard's list of occasions.
    page.get_by_role("link", name="back to the dashboard").click()
    page.get_by_role(
        "link", name=f"{night.date:%a %b} {night.date.day}, {night.date.year}"
    ).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"American Legion Post 171 — {night.date:%A, %B} {night.date.day}, {night.date.year}"
    )
    expect(page.locator("#game-14")).to_contain_text("Game 14")
    shot("3-record")

    # Its ball calls as CSV: every call of the night, in order.
    with page.expect_download() as download:
        page.get_by_role("link", name="ball calls").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:5] == ["organization", "occasion", "game", "sequence", "ball"]
    assert len(rows) - 1 == BallCall.objects.filter(game__occasion=night).count()
    assert {r[1] for r in rows[1:]} == {night.date.isoformat()}

    # The night's financial report, from the record: its current version (the amendment).
    report = page.locator("section").filter(has_text="Financial report")
    expect(report).to_contain_text("Amendment 1")
    with page.expect_download() as download:
        report.get_by_role("link", name="Download").last.click()
    pdf = Path(download.value.path())
    assert pdf.read_bytes().startswith(b"%PDF-")
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    assert "PDF subtype:    PDF/A-3a" in info.stdout

    # The reports owed: Post 171's Friday two weeks before, recorded not played and not filed.
    page.get_by_role("link", name="Reports owed").click()
    # (the night brought in from paper the week before is late too: its report is not filed)
    late_day = night.date - dt.timedelta(days=14)
    late = page.get_by_role("row", name=re.compile("American Legion Post 171.*Late")).filter(
        has_text=f"{late_day:%a %b} {late_day.day}, {late_day.year}"
    )
    expect(late).to_have_count(1)
    expect(late).to_contain_text("Not played")
    shot("4-reports-owed")

    # Every page the inspector opened is in the log, the record named.
    views = list(RecordView.objects.filter(username="inspector").order_by("pk"))
    names = [v.view_name for v in views]
    for name in ("inspector_dashboard", "inspect_compliance", "occasion_record"):
        assert name in names, names
    assert "occasion_record_export" in names and names[-1] == "commission_reports"
    record = next(v for v in views if v.view_name == "occasion_record")
    assert (record.organization_id, record.object_id) == (night.organization_id, str(night.pk))
