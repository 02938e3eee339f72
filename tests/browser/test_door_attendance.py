"""The member in charge types the attendance at the door while still selling: the number typed
stays in its box through the sales' answers (each brings the card of the halves again) until it
is announced, and the cursor stays in the box when an answer comes while they type; a box not
typed in follows the admissions sold."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from occasions.models import AttendanceAnnouncement
from tests.browser.test_floor_entries import address, log_in
from tests.browser.wifi import held_back


@pytest.fixture
def mic_door(live_server, page, tenant, open_occasion, wifi):
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.member_in_charge)
    page.sale_url = address(live_server, "sale_record", **args)
    page.wifi = wifi
    return page


def sell(page, receipt: int) -> None:
    extra = page.get_by_label("Extra regular card")
    extra.fill("1")
    extra.press("Enter")
    expect(page.locator("#sale-panel").get_by_role("status")).to_contain_text(
        f"Receipt {receipt} recorded"
    )


@pytest.mark.browser
def test_the_attendance_typed_stays_through_the_sales_until_it_is_announced(
    mic_door, open_occasion
):
    page = mic_door
    players = page.get_by_label("Players in attendance")
    for receipt in (1, 2, 3, 4):
        sell(page, receipt)
        expect(players).to_have_value(str(receipt))  # not typed in: the admissions sold

    players.fill("3")  # counted in the hall: one player has left
    sell(page, 5)
    expect(players).to_have_value("3")
    sell(page, 6)
    expect(players).to_have_value("3")

    # The answer to a sale comes while the member in charge types in the box: both stay.
    hold, release = held_back(page.wifi, page.sale_url)
    hold()
    page.get_by_label("Extra regular card").fill("1")
    page.get_by_label("Extra regular card").press("Enter")
    players.click()
    page.keyboard.press("End")
    page.keyboard.press("Backspace")
    page.keyboard.type("5")
    release()
    expect(page.locator("#sale-panel").get_by_role("status")).to_contain_text("Receipt 7")
    expect(players).to_have_value("5")
    expect(players).to_be_focused()
    page.keyboard.type("1")  # still typing in the same box
    page.keyboard.press("Backspace")
    expect(players).to_have_value("5")

    page.get_by_role("button", name="Announce").click()
    expect(page.locator("#door-halves")).to_contain_text("5 players, announced")
    assert AttendanceAnnouncement.objects.get(occasion=open_occasion).players == 5
