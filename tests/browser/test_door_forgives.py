"""The door forgives the hand: Enter pressed twice (a bounce, a habit) sells once and says so,
two plain admissions in a row are still quick to sell on purpose, a typo in a quantity box
("e5") is refused in its box, never emptied into a plain admission, and an old receipt is found
by its number and voided. The ORM then checks what was recorded."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from occasions.models import Sale
from tests.browser.test_floor_entries import address, counted, log_in
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.occasions.test_sales_views import _bulk_sales

ALREADY_SOLD = re.compile(r"Already sold: receipt #2\. Nothing new was typed")


@pytest.fixture
def door(live_server, page, tenant, open_occasion):
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.worker)
    return page


def sold(page):
    return page.locator("#sale-panel").get_by_role("status")


@pytest.mark.browser
@pytest.mark.parametrize("gap_ms", [80, 300])
def test_enter_pressed_twice_sells_once_and_says_so(door, open_occasion, gap_ms):
    page = door
    # The door warmed up by a first player (an answer then takes the tenth of a second it takes
    # in a hall, well inside the gap between the two presses).
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(sold(page)).to_contain_text("Receipt 1 recorded")
    page.wait_for_timeout(1000)
    expect(page.get_by_label("Extra regular card")).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.wait_for_timeout(gap_ms)
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text(
        "Receipt 2 recorded — $4.00: 1 × Admission, 2 × Extra regular card."
    )
    page.wait_for_timeout(1000)  # long enough for a second sale to have been recorded
    assert Sale.objects.count() == 2
    assert counted(open_occasion) == {"admission": 2, "extra_regular": 3}
    expect(page.locator("#sale-result").get_by_role("alert")).to_have_text(ALREADY_SOLD)
    # The boxes are ready for the next player, and the cursor where the next sale starts.
    expect(page.get_by_label("Admission (3-on")).to_have_value("1")
    expect(page.get_by_label("Extra regular card")).to_have_value("")
    expect(page.get_by_label("Extra regular card")).to_be_focused()


@pytest.mark.browser
def test_two_plain_admissions_in_a_row_are_sold_on_purpose(door, open_occasion, tmp_path):
    """A queue of players each buying an admission alone: Enter sells each once the moment
    after the last receipt has passed (a player paying takes longer); at once, pressing
    "New admission" (Alt+N) or typing in a box is something new, and Enter sells it."""
    page = door
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text("Receipt 1 recorded — $2.00: 1 × Admission.")
    page.wait_for_timeout(1000)
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text("Receipt 2 recorded — $2.00: 1 × Admission.")
    # The button's access key (Alt+N in Chromium) is the browser's own, which Playwright's keys
    # do not reach: the button is pressed as a mouse or a finger would.
    page.get_by_role("button", name="New admission + extras").click()
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text("Receipt 3 recorded — $2.00: 1 × Admission.")
    page.get_by_label("Admission (3-on").fill("1")
    page.keyboard.press("Enter")
    page.wait_for_timeout(150)  # and Enter again, by habit: on a timer, not after a wait
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text("Receipt 4 recorded — $2.00: 1 × Admission.")
    expect(page.locator("#sale-result").get_by_role("alert")).to_contain_text(
        "Already sold: receipt #4."
    )
    page.screenshot(path=str(tmp_path / "door-already-sold.png"), caret="initial")
    assert Sale.objects.count() == 4
    assert counted(open_occasion) == {"admission": 4}


@pytest.mark.browser
@pytest.mark.parametrize("typed", ["e5", "1.5", "-1", "٤"])
def test_a_typo_in_a_quantity_is_refused_in_its_box_and_kept(door, typed, tmp_path):
    page = door
    extra = page.get_by_label("Extra regular card")
    expect(extra).to_be_focused()  # the door's script has put the cursor there: typing goes in
    page.keyboard.type(typed)
    expect(extra).to_have_value(typed)
    page.keyboard.press("Enter")
    expect(page.locator("#sale-result").get_by_role("alert").first).to_contain_text(
        "Extra regular card (3-on): "
    )
    expect(extra).to_have_value(typed)
    expect(extra).to_have_attribute("aria-invalid", "true")
    expect(extra).to_be_focused()
    expect(page.get_by_label("Admission (3-on")).to_have_value("1")
    page.screenshot(path=str(tmp_path / "door-typo.png"), caret="initial")
    assert not Sale.objects.exists()
    # Put right, the same Enter sells it.
    extra.fill("2")
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text(
        "Receipt 1 recorded — $4.00: 1 × Admission, 2 × Extra regular card."
    )
    expect(extra).not_to_have_attribute("aria-invalid", "true")


@pytest.mark.browser
def test_an_old_receipt_is_found_by_its_number_and_voided(
    live_server, page, tenant, open_occasion, tmp_path
):
    """Receipt 11 of 40, long gone from the latest: found by its number, voided before a
    witness who types their own password, and left in sight, struck out."""
    _bulk_sales(open_occasion, tenant.worker, 40)
    on_floor(tenant.head, open_occasion)
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.member_in_charge)
    receipts = page.locator("#recent-sales")
    expect(receipts.get_by_role("button", name="Void")).to_have_count(12)
    page.get_by_label("Find receipt #").fill("11")
    page.keyboard.press("Enter")
    expect(receipts.get_by_role("heading")).to_have_text("Receipt 11")
    expect(page.get_by_label("Find receipt #")).to_be_focused()
    row = receipts.locator("tbody.door-looked-up tr").filter(has_text="$4.00")
    row.get_by_role("button", name="Void").click()
    form = row.locator("form.door-void")
    form.get_by_label("Reason").fill("sold to the wrong player")
    form.get_by_label(re.compile("^Witness")).select_option(str(tenant.head.pk))
    form.get_by_label("The witness types their own password or PIN").fill(PASSWORD)
    expect(form.get_by_role("button", name="Void receipt 11")).to_be_in_viewport()
    page.screenshot(path=str(tmp_path / "door-old-receipt-void.png"), caret="initial")
    form.get_by_role("button", name="Void receipt 11").click()
    expect(receipts.get_by_role("status")).to_have_text("Receipt 11 is voided.")
    expect(receipts.locator("tr.door-voided")).to_contain_text("sold to the wrong player")
    expect(page.locator("#door-counts")).to_contain_text("39 receipts · 1 voided")
    page.screenshot(path=str(tmp_path / "door-old-receipt-voided.png"), caret="initial")
    assert list(Sale.objects.filter(voided_at__isnull=False).values_list("number", flat=True)) == [
        11
    ]
    # Back to the latest, a page of older ones, and on.
    receipts.get_by_role("link", name="‹ Latest receipts").click()
    expect(receipts.get_by_role("heading")).to_contain_text("Recent sales")
    receipts.get_by_role("link", name="Older receipts ›").click()
    expect(receipts.get_by_role("heading")).to_have_text("Receipts before #29")
    expect(receipts.locator("tbody.door-looked-up td.fw-bold")).to_have_text(
        [str(n) for n in range(28, 16, -1)]
    )
