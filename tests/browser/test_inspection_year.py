"""The inspector's question, "Did Post 171 break any rule this year?", answered on one page from
the dashboard, on the demo as seeded: the year's figures, each the count of the page it links,
the reports missing and late among them (the day with nothing recorded, the night closed from
paper, the night not played), and the evidence one click away."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from tests.browser.conftest import second_factor

NOW = dt.datetime(2026, 12, 2, 10, 0, tzinfo=ZoneInfo("America/New_York"))


@pytest.mark.browser
def test_the_inspector_answers_whether_post_171_broke_a_rule_this_year_on_one_page(
    live_server, page, monkeypatch, tmp_path
):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NOW)
    call_command("seed_demo", force=True)

    def shot(name: str) -> None:
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=True)

    page.goto(live_server.url + "/")
    page.get_by_label("Username").fill("inspector")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    second_factor(page, "inspector")
    expect(page.get_by_role("heading", name="Inspection", exact=True)).to_be_visible()

    # From the dashboard's row of Post 171: "The year".
    row = page.get_by_role("row").filter(has_text="American Legion Post 171").first
    row.get_by_role("link", name="The year").click()
    expect(
        page.get_by_role("heading", name=re.compile("American Legion Post 171 in 2026"))
    ).to_be_visible()
    shot("1-the-year")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366

    def count(label: str) -> int:
        line = page.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=re.compile(label))
        )
        return int(line.locator(".figure-count").inner_text())

    # The reports: the first day of the records (Oct 30) and the week before the last night
    # (Nov 20), nothing recorded, missing; the night from paper (Nov 6) and the night not
    # played (Nov 13) late; the last night's report amended.
    assert count("^Reports missing") == 2
    assert count("^Reports late") == 2
    assert count("^Reports amended") == 1
    assert count("^Nights entered from paper") == 1
    expect(page.locator(".year-verdict")).to_contain_text("to look at")

    # The evidence of the late reports: the Commission's list, filtered to Post 171 and the year.
    page.get_by_role("link", name=re.compile(r"See the 2.*Reports late")).click()
    expect(page.get_by_role("heading", name="Financial reports owed")).to_be_visible()
    rows = page.locator("tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("Not played")
    expect(rows.last).to_contain_text("Closed")
    shot("2-the-late-reports")
    page.go_back()

    # The nights from paper: the dashboard's occasions, only the one brought in from paper.
    page.get_by_role("link", name=re.compile(r"See the 1.*Nights entered from paper")).click()
    expect(page.locator(".badge.from-paper")).to_have_count(1)
    shot("3-the-paper-night")
    page.go_back()

    # The organization's own Reports tab says the same, and where the records begin.
    page.get_by_role("link", name="Reports", exact=True).click()
    expect(page.locator(".records-begin")).to_contain_text("October 30, 2026")
    expect(page.get_by_role("link", name=re.compile(r"^Missing 2"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile(r"^Late 2"))).to_be_visible()
    shot("4-the-reports-tab")
    page.go_back()

    # The chain: checked, the chain check one click away.
    page.get_by_role("link", name=re.compile("The chain check")).click()
    expect(page.locator("#chain-result")).to_contain_text("Intact")
