"""The bookkeeper's morning on the demo as ``make run`` seeds it (issue 40, item 3): from her
calendar, a past authorized Friday of Post 171 with nothing recorded; "Enter from paper"; the
sign-in sheet, the price list and the program; the opening checklist as attested on the sheet
(no flashboard, no checklist confirmed live); the door tally, the game sheets with their winners,
the attendance, the extras and the close; then the close-out (counts, the cash counted and an
expense) and the filed financial report, its PDF made by the filing task (run eagerly, as the
tests run Celery). Screenshots at 1366×768 are kept in the test's folder."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from occasions.models import Occasion, OpeningCheck, PaperRecord
from organizations.models import Organization
from organizations.selectors import authorized_days
from reports import tasks
from reports.models import FinancialReport
from tests.browser.conftest import second_factor
from tests.browser.night_steps import log_in
from tests.demo_snapshot import seed_demo

pytestmark = pytest.mark.browser

POST = "American Legion Post 171"


def fill_row(page: Any, prefix: str, i: int, values: dict[str, str]) -> None:
    for name, value in values.items():
        field = page.locator(f"[name='{prefix}-{i}-{name}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)


def entered(page: Any, title: str) -> None:
    refusal = page.get_by_role("alert").filter(has_text="Nothing was saved")
    if refusal.count():
        pytest.fail(refusal.inner_text())
    expect(page.get_by_text(f"{title}: entered.")).to_be_visible()


def nothing_recorded_friday(org: Organization) -> dt.date:
    """The latest past authorized day of the demo's Post 171 with nothing recorded."""
    today = timezone.localdate()
    recorded = set(Occasion.objects.filter(organization=org).values_list("date", flat=True))
    days = [
        d.day
        for d in authorized_days(org, today - dt.timedelta(days=70), today - dt.timedelta(days=1))
        if d.day not in recorded
    ]
    assert days, "the demo leaves a past authorized day with nothing recorded"
    return max(days)


def test_the_bookkeepers_morning_from_the_calendar_to_the_filed_report(
    live_server, page, tmp_path, media_root
):
    seed_demo()
    org = Organization.objects.get(name=POST)
    day = nothing_recorded_friday(org)
    shots = iter(range(1, 100))

    def shot(name: str) -> None:
        page.screenshot(path=str(tmp_path / f"{next(shots):02d}-{name}.png"), full_page=True)

    calendar = reverse("occasion_calendar", args=[org.pk]) + f"?month={day:%Y-%m}"
    log_in(page, live_server.url + calendar, "post171-books")
    second_factor(page, "post171-books")  # she has an authenticator
    row = page.locator("tr").filter(has_text=f"{day:%A, %B} {day.day}")
    expect(row).to_contain_text("Nothing recorded")
    expect(row.get_by_role("link", name="Report not played")).to_have_count(0)  # the head's
    shot("calendar")
    row.get_by_role("link", name="Enter from paper").click()

    expect(
        page.get_by_role("heading", name=f"Enter {day:%A, %B} {day.day}, {day.year}")
    ).to_be_visible()
    page.get_by_label("Control sheets entered").fill("Sign-in, checklist, door tally, game sheets")
    page.get_by_label("Why the night was not recorded live").fill("Played on paper: no laptop")
    shot("begin")
    page.get_by_role("button", name="Begin entering the sheets").click()
    occasion = Occasion.objects.get(organization=org, date=day)
    assert PaperRecord.objects.get(occasion=occasion).scope == PaperRecord.Scope.WHOLE

    # The sign-in sheet.
    expect(page.get_by_role("heading", name="Sign-in sheet")).to_be_visible()
    for i, (name, role, badge, time) in enumerate(
        [
            ("Linda Souza", "Member in charge", "P171-02", "18:30"),
            (
                "Robert Medeiros",
                "Head of organization or designee for gross receipts",
                "P171-01",
                "18:30",
            ),
            ("Karen Pacheco", "Bookkeeper", "P171-03", "18:30"),  # paid: present (1)(g)
            ("Thomas Ferreira", "Caller", "P171-04", "18:31"),
            ("Mary Gallagher", "Seller", "P171-06", "18:31"),
        ]
    ):
        fill_row(page, "w", i, {"entry": name, "role": role, "identification": badge})
        fill_row(page, "w", i, {"signed_in": time})
    page.get_by_role("button", name="Enter the sign-in sheet").click()
    entered(page, "Sign-in sheet")

    # The price list and the program.
    for i, (category, label, price) in enumerate(
        [
            ("Admission", "Admission (3-on regular card)", "2.00"),
            ("Extra regular card", "Extra regular card", "1.00"),
        ]
    ):
        fill_row(page, "p", i, {"category": category, "label": label, "price": price})
    page.get_by_role("button", name="Enter the price list").click()
    entered(page, "Price list")
    line = "Any single line (row, column or diagonal)"
    for i, half in enumerate(("1", "2")):
        fill_row(
            page,
            "g",
            i,
            {
                "number": str(i + 1),
                "half": half,
                "kind": "Regular",
                "arrangement": line,
                "amount": "50",
            },
        )
    page.get_by_role("button", name="Enter the program").click()
    entered(page, "Program")

    # The opening checklist as attested on the sheet: Linda Souza signed it at 6:40 PM.
    expect(page.get_by_role("heading", name="Opening checklist")).to_be_visible()
    expect(page.get_by_label("Attested by (signed on the sheet)")).to_have_value(re.compile(r"\d+"))
    page.get_by_label("Checklist confirmed at").fill("18:40")
    page.get_by_label("Occasion opened at").fill("18:45")
    shot("checklist-as-attested")
    page.get_by_role("button", name="Enter the opening checklist").click()
    entered(page, "Opening checklist")
    assert {
        c.attested_by.entry.person.legal_name
        for c in OpeningCheck.objects.filter(occasion=occasion)
    } == {"Linda Souza"}

    # The door tally.
    page.get_by_label("Counted at (the time on the tally)").fill("19:00")
    rows = page.locator("table.paper-table").first.locator("tbody tr")
    rows.filter(has_text="Admission").locator("[name^='qty_']").fill("60")
    rows.filter(has_text="Extra regular").locator("[name^='qty_']").fill("40")
    page.get_by_role("button", name="Enter the door tally").click()
    entered(page, "Door tally")

    # The game sheets, the attendance between the halves.
    page.get_by_role("link", name=re.compile("Game 1")).click()
    for number, (announced, started, claimed, finished), player, paid in (
        (1, ("19:00", "19:01", "19:31", "19:36"), "Ann Cash", "19:35"),
        (2, ("20:10", "20:11", "20:31", "20:36"), "Bob Pires", "20:35"),
    ):
        expect(page.get_by_role("heading", name=re.compile(f"Game {number} sheet"))).to_be_visible()
        page.get_by_label("Prize and pattern announced at").fill(announced)
        page.get_by_label("75 balls checked at").fill(announced)
        page.get_by_label("Game started at").fill(started)
        page.get_by_label("Winners recorded at").fill(claimed)
        page.get_by_label("Game finished at").fill(finished)
        fill_row(
            page,
            "c",
            0,
            {
                "part": page.locator("[name='c-0-part'] option").nth(1).inner_text(),
                "claimed_at": claimed,
                "player": player,
                "table": "4",
                "witness": "Joe Player",
                "witness_table": "9",
                "paid_by": "Mary Gallagher",
                "verified_by": "Linda Souza",
                "paid_at": paid,
            },
        )
        if number == 1:
            shot("game-sheet")
        page.get_by_role("button", name=f"Enter game {number}'s sheet").click()
        expect(page.get_by_text(f"Game {number} sheet: entered.")).to_be_visible()
        if number == 1:
            page.get_by_label("Players announced").fill("58")
            page.get_by_label("Announced at").fill("20:00")
            page.get_by_label("Second half started at").fill("20:05")
            page.get_by_role("button", name="Enter the attendance").click()
            entered(page, "Attendance and the second half")

    # The extras: a door prize.
    expect(page.get_by_role("heading", name="Extras")).to_be_visible()
    fill_row(
        page, "door_prizes", 0, {"description": "Fruit basket", "value": "25.00", "at": "20:00"}
    )
    page.get_by_role("button", name="Enter the extras").click()
    entered(page, "Extras")

    # The close.
    page.get_by_label("Occasion closed at").fill("21:30")
    page.get_by_role("button", name="Enter the close").click()
    expect(page.get_by_text("Close: entered.")).to_be_visible()
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED

    # The occasion page: a night from paper, no live step offered.
    page.goto(live_server.url + reverse("occasion_detail", args=[org.pk, occasion.pk]))
    body = page.locator("main")
    for live in ("Next: open the occasion", "still to confirm", "Make the flashboard link"):
        expect(body).not_to_contain_text(live)
    shot("occasion-from-paper")

    # The close-out: counts as recorded, the bank, the cash counted, an expense; then filing.
    page.goto(live_server.url + reverse("report_closeout", args=[org.pk, occasion.pk]))
    recorded = page.locator("table").filter(has_text="Recorded sold")
    for tr in recorded.locator("tbody tr").all():
        label = tr.locator("th, td").first.inner_text().strip()
        quantity = tr.locator("td").nth(1).inner_text().strip()
        field = page.get_by_label(label, exact=True)
        if field.count() == 1 and quantity.isdigit():
            field.fill(quantity)
    page.get_by_label("Opening bank").fill("200.00")
    page.get_by_role("button", name="Save the close-out").click()
    expect(page.get_by_text("The close-out is saved.")).to_be_visible()
    expense = page.locator("form").filter(has=page.get_by_role("button", name="Add the expense"))
    expense.get_by_label("Kind").select_option(label="Rent of the premises")
    expense.get_by_label("Amount").fill("150.00")
    expense.get_by_label("Paid to").fill("Post 171 Building Corp.")
    expense.get_by_role("button", name="Add the expense").click()
    expect(page.locator("tr").filter(has_text="Post 171 Building Corp.").first).to_contain_text(
        "$150.00"
    )
    cash = page.locator("table").filter(has_text="Cash expected")
    expected = cash.locator("tr").filter(has_text="Cash expected").locator("td").last.inner_text()
    page.get_by_label("Cash counted").fill(expected.replace("$", "").replace(",", ""))
    # Verified by the member in charge, Linda Souza (on the sign-in sheet), with her password.
    shot("cash-count")
    verifier = page.get_by_label("Count verified by")
    linda = verifier.locator("option").filter(has_text=re.compile("Linda Souza|post171-mic"))
    verifier.select_option(value=linda.first.get_attribute("value"), timeout=5000)
    page.get_by_label("The verifier types their own password or PIN").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Save the close-out").click()
    expect(page.get_by_text("The close-out is saved.")).to_be_visible()
    shot("closeout")
    page.get_by_role("button", name="File the report").click()
    page.get_by_role("button", name="Yes, file the report").click()
    expect(
        page.get_by_text("The report is filed and the occasion sealed; the PDF is being made.")
    ).to_be_visible()
    report = FinancialReport.objects.get(occasion=occasion)
    # The PDF is the filing task's: run here eagerly, as tests/reports/test_pdf.py runs it
    # (the live server queues it for a worker; tests/browser/test_whole_night.py starts one).
    tasks.render_document.apply(args=["financial", report.pk]).get()
    report.refresh_from_db()
    assert report.render_status == "ready", report.render_status
    assert report.pdf
    page.reload()
    shot("filed")
