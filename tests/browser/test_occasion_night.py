"""A night at American Legion Post 171, driven in the browser by its member in charge on the
hall laptop: the workers signed in (one refused for want of an ID), the checklist confirmed and
the occasion opened (once refused), the door sold by keyboard, play started, the attendance
announced and the occasion closed. The ORM then checks what the pages recorded."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.urls import reverse
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.rules.models import RefusedAction
from beano.rules.opening import CHECKLIST
from occasions.models import Occasion
from occasions.sales_forms import REPEAT_MOMENT_MS
from occasions.sales_selectors import door_counts
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 18, 50, tzinfo=ZoneInfo("America/New_York"))
LAST_ITEM = CHECKLIST[-1]
#: The door after the three sales: the counts panel and the ORM must both say this.
DOOR = {"admission": 2, "extra_regular": 2, "bonus": 1, "special": 1}


@pytest.mark.browser
@pytest.mark.motion
def test_the_member_in_charge_runs_a_night_from_sign_in_to_close(
    live_server, page, monkeypatch, tmp_path
):
    # The live server runs in this process: pinning the clock pins the server's too.
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    occasion = Occasion.objects.get(
        organization__name="American Legion Post 171", date=NIGHT.date()
    )
    assert occasion.status == Occasion.Status.SCHEDULED
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    status = page.locator(".occasion-header .badge")

    def shot(name: str, *, full_page: bool = True) -> None:
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=full_page)

    # Log in through the form, landing on the workers present page.
    page.goto(live_server.url + reverse("workers_present", kwargs=args))
    assert "/accounts/login/" in page.url
    page.get_by_label("Username").fill("post171-mic")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    sign_in_list = page.get_by_role("heading", name=re.compile("Sign in from the 2026 worker list"))
    expect(sign_in_list).to_be_visible()
    expect(status).to_have_text("Scheduled")

    # 2. Workers present: three sign in; Emily Souza, with no ID on the list, is refused.
    panel = page.locator("#workers-panel")
    for name, role, badge in (
        ("Linda Souza", "Member in charge", "P171-02"),
        ("Karen Pacheco", "Bookkeeper", "P171-03"),
        ("Mary Gallagher", "Seller", "P171-06"),
    ):
        page.get_by_label(f"Role for the night of {name}").select_option(label=role)
        page.get_by_label(f"ID displayed by {name}").fill(badge)
        page.get_by_role("button", name=f"Sign in {name}").click()
        expect(panel.get_by_role("status")).to_have_text(f"{name} is signed in as {role}.")
    expect(panel.get_by_text("In charge: Linda Souza")).to_be_visible()
    page.get_by_role("button", name="Sign in Emily Souza").click()
    refusal = panel.get_by_role("alert")
    expect(refusal).to_contain_text("Refused.")
    expect(refusal).to_contain_text("961 CMR 3.04(1)(d)")
    expect(refusal).to_contain_text("Emily Souza has no identification recorded")
    expect(panel.get_by_role("heading", name=re.compile("Present now"))).to_have_text(
        re.compile(r"Present now\s+3")
    )
    expect(page.get_by_role("button", name="Sign out Emily Souza")).to_have_count(0)
    shot("1-workers")

    # 3. The opening checklist: every item but the last, Open refused, the last, Open.
    page.get_by_role("link", name="Next: open the occasion").click()
    checklist = page.locator("#opening-checklist")

    def confirm(code: str) -> None:
        row = page.locator(f"#item-{code}")
        row.get_by_role("button", name="Confirm", exact=True).click()
        expect(row.get_by_role("button", name="✓ Confirmed")).to_be_visible()

    for item in CHECKLIST[:-1]:
        confirm(item.code)
    expect(checklist).to_contain_text(f"{len(CHECKLIST) - 1} of {len(CHECKLIST)} confirmed")
    page.get_by_role("button", name="Open the occasion").click()
    # The summary says what would refuse it, with the citation, and offers no "Yes".
    summary = page.locator("#confirm-summary")
    refusal = summary.locator(".confirm-refused")
    expect(refusal).to_contain_text("It would be refused now")
    expect(refusal).to_contain_text(LAST_ITEM.citation)
    expect(summary.get_by_role("button", name="Yes, open the occasion")).to_have_count(0)
    expect(status).to_have_text("Scheduled")
    shot("2-opening-refused")
    confirm(LAST_ITEM.code)
    expect(checklist).to_contain_text("Everything is in order: the occasion can open now.")
    page.get_by_role("button", name="Open the occasion").click()
    page.get_by_role("button", name="Yes, open the occasion").click()
    expect(status).to_have_text("Open")
    expect(page.get_by_text("The occasion is open. Good luck to the players!")).to_be_visible()

    # 4. The door, by keyboard: the cursor starts in the first extra box, the admission at 1.
    page.get_by_role("link", name="Door sales screen").click()
    counts = page.locator("#door-counts")
    sold = page.locator("#sale-panel").get_by_role("status")
    extra_regular = page.get_by_label("Extra regular card")
    expect(extra_regular).to_be_focused()
    expect(page.get_by_label("Admission (3-on")).to_have_value("1")
    page.evaluate("window.doorLoaded = true")  # gone if a sale reloaded the page
    page.keyboard.type("2")
    page.keyboard.press("Tab")  # to the bonus card box
    page.keyboard.type("1")
    expect(page.locator("#door-due")).to_have_text("$5.00")
    page.keyboard.press("Enter")
    expect(sold).to_contain_text("Receipt 1 recorded — $5.00")
    expect(counts.locator("[data-count=admission]")).to_have_text("1")
    expect(counts.locator("[data-count=extra_regular]")).to_have_text("2")
    expect(counts.locator("[data-count=bonus]")).to_have_text("1")
    # The next player: the fresh form has the cursor back in its box and the admission at 1.
    # An admission alone: the seller takes the player's money, then Enter (at once, it would be
    # receipt 1's Enter again, which sells nothing: tests/browser/test_door_forgives.py).
    expect(extra_regular).to_be_focused()
    page.wait_for_timeout(REPEAT_MOMENT_MS)
    page.keyboard.press("Enter")
    expect(sold).to_contain_text("Receipt 2 recorded — $2.00: 1 × Admission.")
    expect(counts.locator("[data-count=admission]")).to_have_text("2")
    # The first player comes back for a special game card, on receipt 1.
    page.get_by_role("button", name="+ extras against receipt 1").click()
    expect(page.get_by_label("Against admission receipt #")).to_have_value("1")
    expect(page.get_by_label("Admission (3-on")).to_have_value("")
    expect(extra_regular).to_be_focused()
    page.keyboard.press("Tab")  # bonus
    page.keyboard.press("Tab")  # special
    page.keyboard.type("1")
    expect(page.get_by_label("Special game card")).to_have_value("1")
    page.keyboard.press("Enter")
    expect(sold).to_contain_text("Receipt 3 recorded — $2.00: 1 × Special game card.")
    # Pressing "+ extras" low in the list scrolled the page: the receipt just recorded is still
    # in sight, not under the sticky occasion header.
    # (Polled from here: wait_for_function evaluates a string in the page, which the Content
    # Security Policy forbids.)
    in_sight = (
        "() => document.querySelector('[data-sticky-header]').getBoundingClientRect().bottom"
        " <= document.querySelector('#sale-panel [role=status]').getBoundingClientRect().top"
    )
    for _ in range(20):
        if page.evaluate(in_sight):
            break
        page.wait_for_timeout(100)
    assert page.evaluate(in_sight), "the receipt is hidden under the occasion header"
    for category, quantity in DOOR.items():
        expect(counts.locator(f"[data-count={category}]")).to_have_text(str(quantity))
    expect(counts).to_contain_text("3 receipts · 0 voided")
    assert page.evaluate("window.doorLoaded") is True, "the sales and counts were htmx swaps"
    shot("3-door", full_page=False)  # what the 1366×768 screen shows

    # 5. Play starts, the attendance is announced, the occasion closes.
    page.get_by_role("button", name="Start play").click()
    expect(page.get_by_text("Play has started: the first half is on.")).to_be_visible()
    page.get_by_label("Players in attendance").fill("2")
    page.get_by_role("button", name="Announce").click()
    expect(page.get_by_text("2 players in attendance, announced.")).to_be_visible()
    expect(counts).to_contain_text(re.compile(r"attendance announced\s+2"))
    shot("4-attendance")
    page.locator(".floor-bar").get_by_role("link", name="Close", exact=True).click()
    page.get_by_role("button", name="Close the occasion").click()
    page.get_by_role("button", name="Yes, close the occasion").click()
    expect(status).to_have_text("Closed")
    expect(page.get_by_text("The occasion is closed.")).to_be_visible()
    shot("5-closed")

    # 6. What the pages recorded.
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED
    assert occasion.closed_at == NIGHT
    counted = door_counts(occasion)
    assert {c.category: c.quantity for c in counted.categories if c.quantity} == DOOR
    presences = list(occasion.presences.select_related("entry__person"))
    assert sorted(p.entry.person.legal_name for p in presences) == [
        "Karen Pacheco",
        "Linda Souza",
        "Mary Gallagher",
    ]
    assert all(p.signed_out_at == NIGHT for p in presences)
    refused = RefusedAction.objects.filter(
        organization_id=occasion.organization_id, username="post171-mic"
    )
    sign_in = refused.get(action="occasion.sign_in_worker")
    assert "961 CMR 3.04(1)(d)" in sign_in.citations
    assert any("Emily Souza" in v["message"] for v in sign_in.violations)
    # The opening's summary said what would refuse it and offered no "Yes": nothing was tried.
    assert not refused.filter(action="occasion.open").exists()
