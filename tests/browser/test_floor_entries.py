"""The floor never loses an entry, in the browser of a hall laptop on poor Wi-Fi.

At the door, the next player's quantities are typed while the previous sale is still saving
(its request held back by the test): they stay in their boxes, and the counts show every card
sold. A sale whose answer the network loses, and one whose request never leaves, are kept with
"Not sent: the connection dropped" and "Send again", and recorded once. The caller's console
and the claims page do the same. The ORM then checks what was recorded. The network's faults
are played by the live server (``tests.browser.wifi``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import BallCall, Claim
from occasions.models import FloorSubmission, Sale
from occasions.sales_selectors import door_counts
from tests.browser.wifi import held_back, lose_the_answer, never_sent
from tests.conftest import PASSWORD

DROPPED = "Not sent: the connection dropped. Your entry is kept."


def log_in(page: Any, url: str, user: Any) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(user.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(url)


def address(live_server: Any, name: str, **kwargs: int) -> str:
    return live_server.url + reverse(name, kwargs=kwargs)


@pytest.fixture
def door(live_server: Any, page: Any, tenant: Any, open_occasion: Any, wifi: Any) -> Any:
    """The door of ``open_occasion``, its seller logged in."""
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    log_in(page, address(live_server, "door_sales", **args), tenant.worker)
    page.sale_url = address(live_server, "sale_record", **args)
    page.wifi = wifi
    return page


def counted(occasion: Any) -> dict[str, int]:
    return {c.category: c.quantity for c in door_counts(occasion).categories if c.quantity}


@pytest.mark.browser
def test_the_next_players_cards_typed_while_a_sale_saves_are_sold_too(
    door, open_occasion, tmp_path
):
    page = door
    form = page.locator("#sale-form")
    sold = page.locator("#sale-panel").get_by_role("status")
    counts = page.locator("#door-counts")
    admission = page.get_by_label("Admission (3-on")
    extra_regular = page.get_by_label("Extra regular card")
    bonus = page.get_by_label("Bonus card")
    special = page.get_by_label("Special game card")
    hold, release = held_back(page.wifi, page.sale_url)
    expect(extra_regular).to_be_focused()

    # Receipt 1 saves slowly; meanwhile the next player asks for a bonus card.
    page.evaluate("window.doorLoaded = true")  # gone if a sale reloaded the page
    hold()
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(form).to_have_attribute("data-floor-sending", "")
    page.keyboard.press("Tab")
    page.keyboard.type("1")
    release()
    expect(sold).to_have_text("Receipt 1 recorded — $4.00: 1 × Admission, 2 × Extra regular card.")
    # The boxes receipt 1 used are ready for the next player; the bonus card typed is kept.
    expect(admission).to_have_value("1")
    expect(extra_regular).to_have_value("")
    expect(bonus).to_have_value("1")
    expect(bonus).to_be_focused()
    expect(page.locator("#door-due")).to_have_text("$3.00")
    page.keyboard.press("Enter")
    expect(sold).to_have_text("Receipt 2 recorded — $3.00: 1 × Admission, 1 × Bonus card.")
    expect(bonus).to_have_value("")
    expect(extra_regular).to_be_focused()

    # Receipt 3 saves slowly; the next player's special is typed and Enter pressed at once:
    # it goes as soon as receipt 3 is recorded.
    hold()
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(form).to_have_attribute("data-floor-sending", "")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(page.locator("#door-next")).to_have_text(
        "The next sale goes as soon as this one is recorded."
    )
    release()
    expect(sold).to_have_text("Receipt 4 recorded — $4.00: 1 × Admission, 1 × Special game card.")
    expect(special).to_have_value("")
    expect(page.locator("#door-next")).to_have_text("")

    every_card = {"admission": 4, "extra_regular": 5, "bonus": 1, "special": 1}
    for category, quantity in every_card.items():
        expect(counts.locator(f"[data-count={category}]")).to_have_text(str(quantity))
    expect(counts).to_contain_text("4 receipts · 0 voided")
    assert page.evaluate("window.doorLoaded") is True, "the sales were htmx requests"
    page.screenshot(path=str(tmp_path / "door-after-sale.png"), caret="initial")
    assert counted(open_occasion) == every_card
    assert FloorSubmission.objects.count() == Sale.objects.count() == 4
    assert len(set(FloorSubmission.objects.values_list("key", flat=True))) == 4


@pytest.mark.browser
def test_a_sale_the_network_dropped_is_sent_again_and_recorded_once(door, open_occasion, tmp_path):
    page = door
    sold = page.locator("#sale-panel").get_by_role("status")
    notice = page.locator("[data-floor-unsent=sale]")
    extra_regular = page.get_by_label("Extra regular card")
    send_again = page.get_by_role("button", name="Send again")
    expect(notice).to_be_hidden()

    # The sale reaches the server, but its answer is lost.
    fate = page.wifi.fate(page.sale_url)
    fate(lose_the_answer)
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.get_by_role("alert")).to_have_text(re.compile(re.escape(DROPPED)))
    expect(send_again).to_be_visible()
    expect(extra_regular).to_have_value("2")  # the entry is kept as it was sent
    expect(page.locator("#sale-form")).not_to_have_attribute("data-floor-sending", "")
    assert Sale.objects.count() == 1  # recorded: only the answer was lost
    page.screenshot(path=str(tmp_path / "door-not-sent.png"), caret="initial")
    # "Send again", by keyboard: the same submission, with its key, answers with receipt 1.
    send_again.focus()
    expect(send_again).to_be_focused()
    page.keyboard.press("Enter")
    expect(sold).to_have_text("Receipt 1 recorded — $4.00: 1 × Admission, 2 × Extra regular card.")
    expect(notice).to_be_hidden()
    expect(extra_regular).to_have_value("")
    assert Sale.objects.count() == FloorSubmission.objects.count() == 1

    # The next sale never leaves the laptop; Enter in the form sends it again.
    fate(never_sent)
    extra_regular.focus()
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    expect(notice).to_contain_text(DROPPED)
    assert Sale.objects.count() == 1
    extra_regular.focus()
    page.keyboard.press("Enter")
    expect(sold).to_have_text("Receipt 2 recorded — $3.00: 1 × Admission, 1 × Extra regular card.")
    expect(notice).to_be_hidden()
    assert counted(open_occasion) == {"admission": 2, "extra_regular": 3}
    assert Sale.objects.count() == FloorSubmission.objects.count() == 2


@pytest.mark.browser
def test_the_caller_and_the_claims_send_again_what_the_network_dropped(
    live_server, page, tenant, game_in_play, tmp_path, wifi
):
    game = game_in_play
    args = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    log_in(page, address(live_server, "draw_console", **args), tenant.worker)
    calls = BallCall.objects.filter(game=game)
    ball = page.get_by_label("Ball called")
    message = page.locator(".draw-msg")
    notice = page.locator("[data-floor-unsent=draw]")

    # The caller's console: I21 is called; what is typed after its answer is the next ball's.
    ball.fill("21")
    page.keyboard.press("Enter")
    expect(message).to_have_text("I21 called (#7).")
    page.keyboard.type("2")
    expect(ball).not_to_have_attribute("data-floor-touched", "")
    # I20 reaches the server, but its answer is lost; "Send again" answers with the same call.
    wifi.fate(address(live_server, "draw_call", **args))(lose_the_answer)
    ball.fill("20")
    page.keyboard.press("Enter")
    expect(notice).to_contain_text(DROPPED)
    expect(ball).to_have_value("20")
    page.screenshot(path=str(tmp_path / "console-not-sent.png"), caret="initial")
    assert calls.count() == 8
    notice.get_by_role("button", name="Send again").click()
    expect(message).to_have_text("I20 called (#8).")
    expect(notice).to_be_hidden()
    assert list(calls.order_by("sequence").values_list("number", flat=True))[-2:] == [21, 20]

    # The claims page: the claim never leaves; sent again, it is recorded once.
    page.goto(address(live_server, "game_claims", **args))
    form = page.locator("#claim")
    form.get_by_label("Player").fill("Joe Dias")
    wifi.fate(address(live_server, "claim_record", **args))(never_sent)
    form.get_by_role("button", name="Record the claim").click()
    notice = page.locator("[data-floor-unsent=claim]")
    expect(notice).to_contain_text(DROPPED)
    page.screenshot(path=str(tmp_path / "claims-not-sent.png"), caret="initial")
    expect(form.get_by_label("Player")).to_have_value("Joe Dias")
    assert not Claim.objects.exists()
    notice.get_by_role("button", name="Send again").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    expect(page.locator("[id^=claim-]")).to_contain_text("Joe Dias")
    assert Claim.objects.get().player_name == "Joe Dias"


@pytest.mark.browser
def test_a_ball_entered_the_instant_the_console_comes_back_stays_on_the_console(
    live_server, page, tenant, game_in_play
):
    """A fast caller's Enter can land between the answer's swap and htmx taking up the new form
    (seen in CI: the second ball left the console for a full page post). The Enter is pressed
    here from inside the swap itself, the earliest moment a person could press it."""
    game = game_in_play
    args = {"org_id": game.occasion.organization_id, "pk": game.occasion_id, "game_pk": game.pk}
    log_in(page, address(live_server, "draw_console", **args), tenant.worker)
    page.evaluate(
        """() => document.body.addEventListener("htmx:afterSwap", () => {
             document.getElementById("id_ball").value = "22";
             document.getElementById("ball-form").requestSubmit();
           }, {once: true})"""
    )
    page.evaluate("() => { window.stillHere = true; }")
    ball = page.get_by_label("Ball called")
    ball.fill("21")
    page.keyboard.press("Enter")
    expect(page.locator(".draw-msg")).to_have_text("I22 called (#8).")
    assert page.evaluate("() => window.stillHere") is True
    numbers = BallCall.objects.filter(game=game).order_by("sequence")
    assert list(numbers.values_list("number", flat=True))[-2:] == [21, 22]
