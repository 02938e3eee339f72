"""A forgotten night, in the browser, on the demo data: St. Anne's Tuesday was left open with game 4
in play. On Friday the member in charge closes it at the time it ended, with the reason; after
its due date the bookkeeper saves the close-out and files the report, which is late, with the
interest shown on the page and in the PDF a real Celery worker makes."""

import datetime as dt
import re
import subprocess

import django.utils.timezone
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from occasions.floor_selectors import last_recorded_act
from occasions.models import Occasion
from tests.browser.conftest import second_factor
from tests.browser.night_steps import amount_in, at, log_in, money
from tests.demo_snapshot import seed_demo

TUESDAY = dt.date(2026, 12, 1)  # St. Anne's authorized day, left open by the demo
FRIDAY = TUESDAY + dt.timedelta(days=3)
AFTER_DUE = dt.date(2026, 12, 15)  # due December 11, ten days after the night: 4 days late
REASON = "The laptop was shut with the night still open; the hall was locked after game 4"
MOMENT = "%H:%M"  # typed as on the paper pages


@pytest.mark.browser
def test_a_forgotten_night_is_closed_three_days_later_and_its_report_filed_late(
    live_server, new_tab, monkeypatch, tmp_path, media_root, start_worker
):
    clock = {"now": at(FRIDAY, 10, 0)}
    monkeypatch.setattr(django.utils.timezone, "now", lambda: clock["now"])
    seed_demo()
    worker = start_worker()
    occasion = Occasion.objects.get(organization__name="St. Anne's Parish", date=TUESDAY)
    assert occasion.status == Occasion.Status.OPEN
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    last = django.utils.timezone.localtime(last_recorded_act(occasion)).replace(second=0)
    game_ended, night_ended = last + dt.timedelta(minutes=10), last + dt.timedelta(minutes=25)

    # 1. Friday: the close page sends the member in charge to the close after the fact.
    mic = new_tab()
    log_in(mic, live_server.url + reverse("occasion_close", kwargs=args), "stanne-mic")
    expect(
        mic.get_by_text(re.compile("The night of Tuesday, December 1 has passed"))
    ).to_have_count(
        2  # the floor's notice and the close card
    )
    mic.get_by_role("link", name="Close after the fact").click()
    mic.get_by_label("When the night ended").fill(night_ended.strftime(MOMENT))
    mic.get_by_label("Why the close is recorded now").fill(REASON)
    mic.get_by_label("Game 4 finished at").fill(game_ended.strftime(MOMENT))
    mic.screenshot(path=str(tmp_path / "late-close.png"))
    mic.get_by_role("button", name="Close the occasion at that time").click()
    expect(mic.get_by_text("The occasion is closed at the time the night ended.")).to_be_visible()
    expect(mic.locator(".occasion-header")).to_contain_text("Closed after the fact")
    expect(mic.locator("p.closed-late")).to_contain_text(
        f"Recorded after the fact on December 4, 2026 at 10:00 AM by Anne Sullivan: the night "
        f"ended at {night_ended:%-I:%M %p}. Reason: {REASON}"
    )

    # 2. After the due date: the bookkeeper's close-out and the filing, late with interest.
    clock["now"] = at(AFTER_DUE, 9, 30)
    books = new_tab()
    log_in(books, live_server.url + reverse("report_closeout", kwargs=args), "stanne-books")
    second_factor(books, "stanne-books")  # a bookkeeper files: a second factor
    recorded = books.locator("table").filter(has_text="Recorded sold")
    for row in recorded.locator("tbody tr").all():
        label, sold = row.locator("td").nth(0).inner_text(), row.locator("td").nth(1).inner_text()
        books.get_by_label(label, exact=True).fill(sold)
    books.get_by_label("Opening bank").fill("500.00")
    books.get_by_role("button", name="Save the close-out").click()
    expect(books.get_by_text("The close-out is saved.")).to_be_visible()
    cash = books.locator("table").filter(has_text="Cash expected")
    books.get_by_label("Cash counted").fill(
        f"{money(amount_in(cash, 'Cash expected').inner_text())}"
    )
    # Counted by the bookkeeper, verified by the member in charge typing her own password.
    books.get_by_label("Count verified by").select_option(label="Anne Sullivan (stanne-mic)")
    books.get_by_label("The verifier types their own password or PIN").fill(DEMO_PASSWORD)
    books.get_by_role("button", name="Save the close-out").click()
    expect(amount_in(cash, "Over (+) / short (−)")).to_have_text("$0.00")
    books.get_by_role("button", name="File the report").click()
    # It would be refused, and the summary offers no "Yes": the admission paper issued to the
    # door by serial (the demo's) is not counted back (961 CMR 3.04(4)(e)).
    summary = books.locator("#confirm-summary")
    expect(summary.locator(".confirm-refused")).to_contain_text("Count back the unsold paper of")
    expect(summary.get_by_role("button", name="Yes, file the report")).to_have_count(0)
    books.goto(live_server.url + reverse("occasion_serials", kwargs=args))
    books.get_by_label("Unsold, counted back").fill("0")
    books.get_by_label("Time counted (entered after the fact)").fill("21:30")
    books.get_by_role("button", name="Count back").click()
    expect(books.get_by_text("not counted back")).to_have_count(0)
    books.get_by_label("Why the door's counts and the serials differ").fill(
        "Only the first box of admissions was issued by serial; the rest came off the shelf."
    )
    books.get_by_role("button", name="Save the explanation").click()
    books.goto(live_server.url + reverse("report_closeout", kwargs=args))
    books.get_by_role("button", name="File the report").click()
    expect(books.locator("#confirm-summary")).to_contain_text("4 days late")
    books.get_by_role("button", name="Yes, file the report").click()
    version = books.locator("section.card").filter(has_text="Original report")
    expect(version).to_contain_text("4 days late")
    download = version.get_by_role("link", name="Download the PDF")
    try:
        expect(download).to_be_visible(timeout=120_000)
    except AssertionError:
        pytest.fail(f"no PDF within two minutes; the worker says:\n{worker.log()}")
    with books.expect_download() as downloading:
        download.click()
    pdf = tmp_path / "report.pdf"
    downloading.value.save_as(pdf)
    text = " ".join(
        subprocess.run(
            ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "4 days late" in text
    assert "Interest for late filing: 12 % a year × 4 days / 365" in text
    assert f"the night ended at {night_ended:%-I:%M %p}. Reason: {REASON}" in text
