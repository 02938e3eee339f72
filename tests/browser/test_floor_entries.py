"""The floor never loses an entry, in the browser of a hall laptop on poor Wi-Fi.

At the door, the next player's quantities are typed while the previous sale is still saving
(its request held back by the test): they stay in their boxes, and the counts show every card
sold. A sale whose answer the network loses, and one whose request never leaves, are kept on
the laptop (static/js/offline.js, issue 42) with the key they were sent with, to be recorded
once when the queue is sent. The caller's console and the claims page do the same. The ORM
then checks what was recorded. The network's faults are played by the live server
(``tests.browser.wifi``)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import BallCall, Claim
from occasions.models import FloorSubmission, Sale
from occasions.sales_selectors import door_counts
from tests.browser.wifi import held_back, lose_the_answer
from tests.conftest import PASSWORD


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


def kept_on_laptop(page: Any) -> list[dict]:
    return page.evaluate(
        """async () => {
          const db = await idb.openDB("beano-floor", 1);
          const acts = await db.getAll("acts");
          db.close();
          return acts.sort((a, b) => a.seq - b.seq);
        }"""
    )


@pytest.mark.browser
def test_a_sale_the_network_dropped_is_kept_on_the_laptop_with_its_key(
    door, open_occasion, tmp_path
):
    """No answer: the sale is kept on the laptop (static/js/offline.js) with the key it was
    sent with, not offered to "Send again"; the boxes are readied for the next player. Sent
    from the queue when the connection returns, the key records nothing twice."""
    page = door
    banner = page.locator("#offline-banner [data-offline-text]")
    notice = page.locator("[data-floor-unsent=sale]")
    extra_regular = page.get_by_label("Extra regular card")
    expect(banner).to_be_hidden()

    # The sale reaches the server, but its answer is lost.
    # The sale reaches the server, its answer is lost, and the Wi-Fi stays down (the laptop asks
    # again a second later: it would be back before the banner is looked at).
    def lost_and_down(app, environ, start_response):
        page.wifi.down()
        return lose_the_answer(app, environ, start_response)

    page.wifi.fate(page.sale_url)(lost_and_down)
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.locator("#sale-result")).to_have_text(
        "Kept on this laptop: 1 × Admission, 2 × Extra regular card — sent when the "
        "connection returns."
    )
    expect(banner).to_have_text(
        "Offline — 1 act waits on this laptop. It is sent when the connection returns."
    )
    expect(notice).to_be_hidden()
    expect(extra_regular).to_have_value("")
    page.screenshot(path=str(tmp_path / "door-kept.png"), caret="initial")
    assert Sale.objects.count() == 1  # recorded: only the answer was lost
    kept = kept_on_laptop(page)
    recorded = [str(k) for k in FloorSubmission.objects.values_list("key", flat=True)]
    assert [a["key"] for a in kept] == recorded
    # The connection is back: the queue is sent, the key answers receipt 1 again.
    page.wifi.up()
    expect(banner).to_be_hidden(timeout=15000)
    assert Sale.objects.count() == FloorSubmission.objects.count() == 1
    assert counted(open_occasion) == {"admission": 1, "extra_regular": 2}


@pytest.mark.browser
def test_the_caller_and_the_claims_keep_what_the_network_dropped(
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
    # I20 reaches the server, but its answer is lost: kept on the laptop with its key, lit.
    wifi.fate(address(live_server, "draw_call", **args))(lose_the_answer)
    ball.fill("20")
    page.keyboard.press("Enter")
    expect(message).to_have_text("I20 kept on this laptop — sent when the connection returns.")
    expect(notice).to_be_hidden()
    expect(page.locator("#draw-ball-20")).to_have_class(re.compile(r"\bis-called\b"))
    page.screenshot(path=str(tmp_path / "console-kept.png"), caret="initial")
    assert calls.count() == 8
    kept = kept_on_laptop(page)
    assert [dict(a["fields"])["ball"] for a in kept] == ["20"]

    # The claims page: the claim never leaves; it is kept on the laptop, nothing recorded.
    page.goto(address(live_server, "game_claims", **args))
    # The Wi-Fi is up: the ball kept on the console goes as the page opens (its key answers the
    # call recorded), and the page is then read again from the server.
    page.wait_for_function("() => performance.getEntriesByType('navigation')[0].type === 'reload'")
    page.wait_for_load_state()
    form = page.locator("#claim")
    form.get_by_label("Player").fill("Joe Dias")
    # The Wi-Fi down (not one request lost: the laptop asks again a second later and would send
    # the claim before it is looked for here).
    wifi.down()
    form.get_by_role("button", name="Record the claim").click()
    expect(page.locator("[data-offline-said=claim]")).to_contain_text(
        "Claim kept on this laptop (Joe Dias) — sent when the connection returns."
    )
    page.screenshot(path=str(tmp_path / "claims-kept.png"), caret="initial")
    assert not Claim.objects.exists()
    kept = kept_on_laptop(page)
    assert [a["action"] for a in kept] == ["ball", "claim"]
    assert dict(kept[1]["fields"])["player_name"] == "Joe Dias"
    wifi.up()
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=15000)
    assert list(calls.order_by("sequence").values_list("number", flat=True))[-2:] == [21, 20]
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
