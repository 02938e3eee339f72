"""A night played on paper, typed in by the bookkeeper from its control sheets in the browser,
top to bottom, then closed out and filed: the figures are the known night's (tests/reports)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

import django.utils.timezone
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from occasions.models import Occasion, PriceListItem
from organizations.models import WorkerListEntry
from reports.models import FinancialReport
from tests.browser.conftest import second_factor
from tests.conftest import PASSWORD
from tests.fixtures.night import SAMPLE_PRICES
from tests.reports.conftest import KNOWN, at

pytestmark = pytest.mark.browser


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    second_factor(page, username)


def fill_row(page: Any, prefix: str, i: int, values: dict[str, str]) -> None:
    for name, value in values.items():
        field = page.locator(f"[name='{prefix}-{i}-{name}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        elif field.get_attribute("type") == "checkbox":
            field.check()
        else:
            field.fill(value)


def entered(page: Any, title: str) -> None:
    refusal = page.get_by_role("alert").filter(has_text="Nothing was saved")
    if refusal.count():
        pytest.fail(refusal.inner_text())
    expect(page.get_by_text(f"{title}: entered.")).to_be_visible()


def test_a_bookkeeper_types_a_paper_night_in_and_files_it(
    live_server, page, monkeypatch, tmp_path, night_records, occasion
):
    tenant = night_records
    clock = {"now": at(10, 0, occasion.date + dt.timedelta(days=6))}
    monkeypatch.setattr(django.utils.timezone, "now", lambda: clock["now"])
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    log_in(page, live_server.url + reverse("paper_home", kwargs=args), tenant.bookkeeper.username)

    expect(
        page.get_by_role("heading", name="Enter the night from its control sheets")
    ).to_be_visible()
    page.get_by_label("The whole night (nothing of it was recorded live)").check()
    page.get_by_label("Control sheets entered").fill("All the sheets of December 4")
    page.get_by_label("Why the night was not recorded live").fill("The laptop was broken")
    page.get_by_role("button", name="Begin entering the sheets").click()

    # The sign-in sheet.
    expect(page.get_by_role("heading", name="Sign-in sheet")).to_be_visible()
    crew = [
        ("Linda Souza", "Member in charge", "P-02", "6:30 PM"),
        ("Robert Medeiros", "Head of organization or designee for gross receipts", "P-01", "18:30"),
        ("Karen Pacheco", "Bookkeeper", "P-03", "18:30"),
        ("Mary Gallagher", "Seller", "P-06", "18:31"),
        ("Anne Sullivan", "Member in charge", "P-07", "18:32"),
    ]
    for i, (name, role, badge, time) in enumerate(crew):
        fill_row(page, "w", i, {"entry": name, "role": role, "identification": badge})
        fill_row(page, "w", i, {"signed_in": time})
    page.screenshot(path=str(tmp_path / "sign-in.png"), full_page=True)
    page.get_by_role("button", name="Enter the sign-in sheet").click()
    entered(page, "Sign-in sheet")

    # The price list and the program.
    for i, item in enumerate(SAMPLE_PRICES):
        category = PriceListItem.Category(item["category"]).label
        fill_row(
            page, "p", i, {"category": category, "label": item["label"], "price": item["price"]}
        )
    page.get_by_role("button", name="Enter the price list").click()
    entered(page, "Price list")
    line = "Any single line (row, column or diagonal)"
    program = [
        {"number": "1", "half": "1", "kind": "Regular", "arrangement": line, "amount": "50"},
        {
            "number": "2",
            "half": "1",
            "kind": "Regular",
            "arrangement": line,
            "prize_kind": "Merchandise",
            "amount": "30.00",
            "description": "Toaster",
        },
        {
            "number": "3",
            "half": "2",
            "kind": "Special",
            "arrangement": line,
            "prize_kind": "Merchandise",
            "amount": "80.00",
            "description": "Donated quilt",
            "donated": "on",
        },
    ]
    for i, row in enumerate(program):
        fill_row(page, "g", i, row)
    page.get_by_role("button", name="Enter the program").click()
    entered(page, "Program")

    # The opening checklist, every item ticked as on the sheet.
    page.get_by_label("Checklist confirmed at").fill("18:40")
    page.get_by_label("Occasion opened at").fill("18:45")
    page.get_by_role("button", name="Enter the opening checklist").click()
    entered(page, "Opening checklist")

    # The door tally: admissions by serials, the rest as counts; a void witnessed on paper.
    page.get_by_label("Counted at (the time on the tally)").fill("19:00")
    rows = page.locator("table.paper-table").first.locator("tbody tr")
    rows.filter(has_text="Admission").locator("[name^='first_']").fill("1001")
    rows.filter(has_text="Admission").locator("[name^='last_']").fill("1100")
    for label, quantity in (
        ("Extra regular", "50"),
        ("Bonus", "40"),
        ("Special", "60"),
        ("Winner-take-all", "30"),
    ):
        rows.filter(has_text=label).locator("[name^='qty_']").fill(quantity)
    fill_row(
        page,
        "v",
        0,
        {
            "category": SAMPLE_PRICES[0]["label"],
            "quantity": "5",
            "reason": "Rung twice",
            "witness": "Mary Gallagher",
            "sold_at": "18:50",
            "voided_at": "18:55",
        },
    )
    page.screenshot(path=str(tmp_path / "door.png"), full_page=True)
    page.get_by_role("button", name="Enter the door tally").click()
    entered(page, "Door tally")

    # The game sheets, one after another.
    expect(page.get_by_role("heading", name="Game sheets")).to_be_visible()
    page.get_by_role("link", name=re.compile("Game 1")).click()
    for number, (announced, started, claimed, finished), player, paid in (
        (1, ("19:00", "19:01", "19:31", "19:36"), "Ann Cash", "19:35"),
        (2, ("19:40", "19:41", "19:51", "19:55"), "Bob Goods", "19:54"),  # the toaster
        (3, ("20:06", "20:10", "20:31", "20:35"), "Cy Gift", "20:34"),  # the quilt
    ):
        expect(page.get_by_role("heading", name=re.compile(f"Game {number} sheet"))).to_be_visible()
        page.get_by_label("Prize and pattern announced at").fill(announced)
        page.get_by_label("75 balls checked at").fill(announced)
        page.get_by_label("Game started at").fill(started)
        page.get_by_label("Winners recorded at").fill(claimed)
        page.get_by_label("Game finished at").fill(finished)
        claim = {
            "part": page.locator("[name='c-0-part'] option").nth(1).inner_text(),
            "claimed_at": claimed,
            "player": player,
            "table": "4",
            "witness": "Joe Player",
            "witness_table": "9",
        }
        if paid:
            claim |= {"paid_by": "Mary Gallagher", "verified_by": "Anne Sullivan", "paid_at": paid}
        fill_row(page, "c", 0, claim)
        if number == 1:
            page.screenshot(path=str(tmp_path / "game-1.png"), full_page=True)
        page.get_by_role("button", name=f"Enter game {number}'s sheet").click()
        expect(page.get_by_text(f"Game {number} sheet: entered.")).to_be_visible()
        if number == 2:  # the intermission comes next
            page.get_by_label("Players announced").fill("95")
            page.get_by_label("Announced at").fill("20:00")
            page.get_by_label("Second half started at").fill("20:05")
            page.get_by_role("button", name="Enter the attendance").click()
            entered(page, "Attendance and the second half")

    # The extras.
    expect(page.get_by_role("heading", name="Extras")).to_be_visible()
    fill_row(
        page, "door_prizes", 0, {"description": "Fruit basket", "value": "25.00", "at": "20:00"}
    )
    fill_row(
        page,
        "door_prizes",
        1,
        {"description": "Quilt", "value": "40", "donated": "on", "at": "20:00"},
    )
    fill_row(
        page,
        "police",
        0,
        {"officer": "Officer Dana", "department": "Fairhaven", "hours": "4", "rate": "50.00"},
    )
    page.get_by_role("button", name="Enter the extras").click()
    entered(page, "Extras")

    # The close: everyone still signed in leaves at the close.
    page.get_by_label("Occasion closed at").fill("10:30 PM")
    page.get_by_role("button", name="Enter the close").click()
    expect(page.get_by_text("Close: entered.")).to_be_visible()
    expect(
        page.get_by_role("listitem").filter(has_text="The whole night: All the sheets")
    ).to_be_visible()
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED

    # The bookkeeper's close-out and the filing, as for a night recorded live.
    page.goto(live_server.url + reverse("report_closeout", kwargs=args))
    recorded = page.locator("table").filter(has_text="Recorded sold")
    for row in recorded.locator("tbody tr").all():
        label = row.locator("th, td").first.inner_text().strip()
        quantity = row.locator("td").nth(1).inner_text().strip()
        field = page.get_by_label(label, exact=True)
        if field.count() == 1 and quantity.isdigit():
            field.fill(quantity)
    # The member in charge's login stands for Linda Souza, on the sign-in sheet: the list of
    # the count's verifiers, drawn when the saved close-out is shown, offers her.
    tenant.member_in_charge.org_roles.update(
        person=WorkerListEntry.objects.get(person__legal_name="Linda Souza").person
    )
    page.get_by_label("Opening bank").fill("200.00")
    page.get_by_role("button", name="Save the close-out").click()
    expect(page.get_by_text("The close-out is saved.")).to_be_visible()
    cash = page.locator("table").filter(has_text="Cash expected")
    expected = cash.locator("tr").filter(has_text="Cash expected").locator("td").last.inner_text()
    # $200 bank + $440 door − $50 paid in cash: the known night without its charity and refund.
    assert expected == "$590.00"
    page.get_by_label("Cash counted").fill("590.00")
    # Counted by the bookkeeper, verified by the member in charge (Linda Souza, on the sign-in
    # sheet) typing her own password.
    page.get_by_label("Count verified by").select_option(
        label=tenant.member_in_charge.get_username()
    )
    page.get_by_label("The verifier types their own password or PIN").fill(PASSWORD)
    page.get_by_role("button", name="Save the close-out").click()
    expect(page.get_by_text("The close-out is saved.")).to_be_visible()
    figures = page.locator(".card").filter(has=page.get_by_role("heading", name="The figures"))
    expect(figures).to_contain_text("$440.00")  # the door: KNOWN["door_total"]
    assert KNOWN["door_total"] == Decimal("440.00")
    clock["now"] += dt.timedelta(minutes=5)
    page.get_by_role("button", name="File the report").click()
    page.get_by_role("button", name="Yes, file the report").click()
    expect(
        page.get_by_text("The report is filed and the occasion sealed; the PDF is being made.")
    ).to_be_visible()
    report = FinancialReport.objects.get(occasion=occasion)
    assert Decimal(report.figures["receipts"]["door_total"]) == KNOWN["door_total"]
