"""The whole night on the floor, as each floor person, on the demo as ``make run`` seeds it
(issue 39, item 9): the practice hall's occasion of today, open at whatever hour the test runs
(the clock is not pinned), its four people on its worker list and signed in.

- Jordan Vale (``practice-mic``, the member in charge) finds the night open, signs Robin Hale
  back in after she stepped out (the laptop's list offers her only once she is on the floor),
  sells at the door: a double Enter sells once and says so; a typo "e5" is refused in its box.
- Robin Hale (``practice-door``) takes the laptop with her PIN and sells the next player; the
  door says who is at the laptop where the sale's answer shows; Jordan takes it back with his.
- Casey Marsh (``practice-caller``), at her own computer, calls the balls; a ball keyed wrong is
  corrected by Alt+C.
- Jordan records the claim, verifies the whole card typed for "any single line" and records the
  winner; finishes game 1 (the summary lists the winner not paid and the games never played);
  the close is refused while she is unpaid.
- Robin verifies the payout with her PIN; Morgan Pike (``practice-books``) witnesses a void with
  hers; the night is closed, and the projector's flashboard says "This night is over".

The ORM then checks what the pages recorded. Each step is shot at 1366×768 and 1024×768 into
BEANO_SCREENSHOTS when it is set (else the test's folder), for a person to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.demo.practice_hall import LOGINS, NAME
from games.models import BallCall, CardVerification, Game, Payout, Winner
from occasions.models import Occasion, Sale
from occasions.sales_forms import REPEAT_MOMENT_MS
from tests.browser.night_steps import settled
from tests.demo_snapshot import seed_demo
from tests.games.claims_helpers import ROW_2, WHOLE_CARD

SIZES = ((1366, 768), (1024, 768))
PINS = {username: pin for username, _, _, pin, _ in LOGINS}
#: Game 1 is "any single line" for $50: row 2 of the whole card, with a few balls not on it;
#: 48 is keyed for 38 and corrected.
BALLS = ("B1", "20", "B7", "22", "35", "48")
AFTER_CORRECTION = ("38", "47", "52", "65", "70")
VOID_REASON = "rang up an extra card the player did not want"


class Shots:
    """Each step at 1366×768 and 1024×768, numbered in the order taken."""

    def __init__(self, tmp_path: Path) -> None:
        self.folder = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.n = 0

    def __call__(self, page: Any, name: str) -> None:
        self.n += 1
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(self.folder / f"walk-{self.n:02d}-{name}-{width}.png"))
        page.set_viewport_size({"width": 1366, "height": 768})


def log_in(page: Any, url: str, username: str) -> None:
    page.goto(url)
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()


def hand_laptop(page: Any, to: str, pin: str) -> None:
    page.locator(".floor-laptop").click()
    page.get_by_label(to).check()
    page.get_by_label("Their PIN or password").fill(pin)
    page.get_by_role("button", name="Hand the laptop").click()
    page.wait_for_url(re.compile(r"/sales/$"))
    expect(page.get_by_text(re.compile(r" is at the laptop\.$"))).to_be_visible()


def sold(page: Any) -> Any:
    return page.locator("#sale-panel").get_by_role("status")


@pytest.mark.browser
def test_the_whole_night_on_the_floor_as_each_floor_person(
    live_server, browser, new_tab, page, tmp_path
):
    seed_demo()
    occasion = Occasion.objects.get(organization__name=NAME, date=timezone.localdate())
    assert occasion.status == Occasion.Status.OPEN
    shot = Shots(tmp_path)

    # --- Jordan Vale, the member in charge, finds the night open. -----------------------------
    log_in(page, live_server.url + "/", "practice-mic")
    card = page.locator(".card").filter(has=page.get_by_role("heading", name=NAME))
    expect(card.locator(".open-now")).to_contain_text("Open now:")
    shot(page, "dashboard")
    card.get_by_role("link", name="Occasion and flashboard").click()
    expect(page.locator(".occasion-header .badge").first).to_have_text("Open")
    flash_link = page.get_by_role("link", name="Open the flashboard ↗").get_attribute("href")
    shot(page, "occasion")

    # The hall's screen shows the flashboard all night, with no login.
    projector = browser.new_context(viewport={"width": 1366, "height": 768})
    flash = projector.new_page()
    flash.goto(flash_link)
    expect(flash.locator(".flash-game")).to_contain_text("Game 1")

    # Robin stepped out: signed out, the laptop cannot be handed to her; signed in again, it can.
    page.locator("#floor-bar").get_by_role("link", name="Workers").click()
    page.get_by_role("button", name="Sign out Robin Hale").click()
    expect(page.get_by_text("Robin Hale is signed out.")).to_be_visible()
    page.locator(".floor-laptop").click()
    expect(page.get_by_label("Casey Marsh (practice-caller)")).to_be_visible()
    expect(page.get_by_label("Robin Hale (practice-door)")).to_have_count(0)
    page.go_back()
    page.reload()
    expect(page.get_by_label("ID displayed by Robin Hale")).to_have_value("PH-03")
    page.get_by_label("Role for the night of Robin Hale").select_option(label="Seller")
    page.get_by_role("button", name="Sign in Robin Hale").click()
    expect(page.get_by_text("Robin Hale is signed in")).to_be_visible()
    expect(page.get_by_role("button", name="Sign out Robin Hale")).to_be_visible()
    shot(page, "workers")

    # --- The door, by keyboard: Enter pressed twice sells once, and says so. -------------------
    page.locator("#floor-bar").get_by_role("link", name="Door").click()
    extra = page.get_by_label("Extra regular card")
    expect(extra).to_be_focused()
    # The box has the cursor as soon as it is drawn, before the page's scripts have all run on a
    # slow machine; a seller's first key comes once the page is there (a press before that posts
    # the page the old way, and the second press is lost in its loading: sold once, nothing said).
    page.wait_for_load_state("load")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    page.wait_for_timeout(150)
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text(
        "Receipt 1 recorded — $4.00: 1 × Admission, 2 × Extra regular card."
    )
    expect(page.locator("#sale-result").get_by_role("alert")).to_contain_text(
        "Already sold: receipt #1."
    )
    expect(extra).to_be_focused()
    shot(page, "door-double-enter")

    # A typo in a quantity is refused in its box, kept as typed; put right, it sells.
    page.wait_for_timeout(REPEAT_MOMENT_MS)
    page.keyboard.type("e5")
    page.keyboard.press("Enter")
    expect(page.locator("#sale-result").get_by_role("alert").first).to_contain_text(
        "Extra regular card (3-on): "
    )
    expect(extra).to_have_value("e5")
    expect(extra).to_have_attribute("aria-invalid", "true")
    expect(extra).to_be_focused()
    shot(page, "door-typo")
    extra.fill("1")
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text(
        "Receipt 2 recorded — $3.00: 1 × Admission, 1 × Extra regular card."
    )

    # --- Robin Hale takes the laptop with her PIN and sells the next player. -------------------
    hand_laptop(page, "Robin Hale (practice-door)", PINS["practice-door"])
    expect(page.locator(".floor-laptop")).to_have_text("Laptop: Robin")
    expect(extra).to_be_focused()
    page.keyboard.press("Enter")
    expect(sold(page)).to_have_text(
        "Receipt 3 recorded — $2.00: 1 × Admission. Sold by Robin Hale."
    )
    shot(page, "door-robin")
    hand_laptop(page, re.compile("back to the session's login"), PINS["practice-mic"])
    expect(page.locator(".floor-laptop")).to_have_text("Laptop: Jordan")

    # --- Casey Marsh calls the balls at her own computer; a wrong one corrected by Alt+C. ------
    caller = new_tab()
    log_in(caller, live_server.url + "/", "practice-caller")
    caller.get_by_role("link", name="Caller's console").first.click()
    caller.wait_for_url(re.compile(r"/games/\d+/draw/$"))
    caller.wait_for_load_state("load")
    expect(caller.locator(".floor-laptop")).to_have_count(0)  # her session hands nothing
    ball = caller.get_by_label("Ball called")
    message = caller.locator("#draw-msg")

    def call(balls: tuple[str, ...], first: int) -> None:
        for sequence, typed in enumerate(balls, start=first):
            expect(ball).to_be_focused()
            caller.keyboard.type(typed)
            caller.keyboard.press("Enter")
            expect(message).to_contain_text(f" called (#{sequence}).")
            expect(ball).to_have_value("")
            settled(caller)

    call(BALLS, 1)
    shot(caller, "console")
    caller.keyboard.press("Alt+C")
    reason = caller.get_by_label(f"Why call #{len(BALLS)} is corrected")
    expect(reason).to_be_focused()
    caller.keyboard.type("keyed 48 for 38")
    shot(caller, "console-correct")
    caller.keyboard.press("Enter")
    expect(message).to_have_text(f"Call #{len(BALLS)} (G48) voided: enter the ball called.")
    call(AFTER_CORRECTION, len(BALLS) + 1)
    expect(flash.locator(".flash-last")).to_have_text("O70", timeout=3000)
    shot(flash, "flashboard")

    # --- Jordan records the claim and verifies the whole card typed. ---------------------------
    page.locator("#floor-bar").get_by_role("link", name="Claims").click()
    form = page.locator("#claim")
    form.get_by_label("Ball the caller had drawn").fill("70")
    form.get_by_text("Yes — calling had begun").click()
    form.get_by_label("Player").fill("Pat Newcomer")
    form.get_by_label("Table").fill("4")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    claim = page.locator("[id^=claim-]").filter(has_text="Pat Newcomer")
    claim.get_by_text("Verify the card").click()
    grid = claim.get_by_role("table", name="The winning card")
    for square, number in WHOLE_CARD.items():
        grid.get_by_label(square, exact=True).fill(str(number))
    expect(claim.locator("[data-card-scope]")).to_contain_text("Found: row 2.")
    claim.get_by_label("Witness 1", exact=True).fill("Lee Ortiz")
    claim.get_by_label("Witness 1 table").fill("9")
    shot(page, "card-typed")
    claim.get_by_role("button", name="Check the card").click()
    expect(
        page.get_by_text("The card verification is recorded. The card is valid.")
    ).to_be_visible()
    claim = page.locator("[id^=claim-]").filter(has_text="Pat Newcomer")
    expect(claim).to_contain_text("Found: row 2")
    winners = page.locator("[id^=winners_]")
    winners.get_by_role("checkbox", name="Pat Newcomer won (table 4)").check()
    winners.get_by_role("button", name="Record the winners").click()
    page.get_by_role("button", name="Yes, record the winners").click()
    expect(page.get_by_text("Winners recorded.")).to_be_visible()
    shot(page, "winner")

    # --- Game 1 finished: its summary lists what is left. --------------------------------------
    page.locator("#floor-bar").get_by_role("link", name="Games").click()
    page.get_by_role("button", name="Finish game 1").click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_contain_text("Pat Newcomer")
    shot(page, "finish-summary")
    page.get_by_role("button", name="Yes, finish game 1").click()
    expect(page.locator("#program-panel").get_by_role("status")).to_have_text("Game 1 is finished.")

    # --- The close is refused while the winner is unpaid. --------------------------------------
    page.locator("#floor-bar").get_by_role("link", name="Close").click()
    page.get_by_role("button", name="Close the occasion", exact=True).click()
    refused = summary.locator(".confirm-refused")
    expect(refused).to_contain_text("Pat Newcomer won $50.00")
    expect(summary.get_by_role("button", name="Yes, close the occasion")).to_have_count(0)
    shot(page, "close-refused")

    # --- Robin verifies the payout with her PIN. -----------------------------------------------
    refused.get_by_role("link", name="Pay on game 1's claims").click()
    payout = page.locator("[id^=payout_]").filter(has_text="Pat Newcomer")
    expect(payout.get_by_label("Amount paid")).to_have_value("50.00")
    verifier = payout.get_by_label("Verified by")
    verifier.select_option(label="Robin Hale (practice-door)")
    payout.get_by_label("The verifier types their own password or PIN").fill(PINS["practice-door"])
    shot(page, "payout")
    payout.get_by_role("button", name="Record the payout").click()
    expect(page.get_by_text("Pat Newcomer is paid.")).to_be_visible()

    # --- Morgan Pike witnesses a void with her PIN. --------------------------------------------
    page.locator("#floor-bar").get_by_role("link", name="Door").click()
    receipts = page.locator("#recent-sales")
    receipts.locator("tr").filter(has_text="$3.00").get_by_role("button", name="Void").click()
    void = page.locator("#void-form-2")
    void.get_by_label("Reason").fill(VOID_REASON)
    void.get_by_label(re.compile("^Witness")).select_option(label="Morgan Pike")
    void.get_by_label("The witness types their own password or PIN").fill(PINS["practice-books"])
    shot(page, "void")
    void.get_by_role("button", name="Void receipt 2").click()
    expect(receipts.get_by_role("status")).to_have_text("Receipt 2 is voided.")

    # --- The night closed; the projector says so. ----------------------------------------------
    page.locator("#floor-bar").get_by_role("link", name="Close").click()
    page.get_by_role("button", name="Close the occasion", exact=True).click()
    expect(summary.locator(".confirm-refused")).to_have_count(0)
    shot(page, "close-summary")
    summary.get_by_role("button", name="Yes, close the occasion").click()
    expect(page.get_by_text("The occasion is closed.")).to_be_visible()
    expect(flash.locator(".flash-ended")).to_have_text("This night is over", timeout=5000)
    shot(flash, "flashboard-over")
    projector.close()

    # --- What the pages recorded. --------------------------------------------------------------
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED
    sales = list(Sale.objects.filter(occasion=occasion).order_by("number"))
    assert [(s.number, s.total, s.sold_by.username) for s in sales] == [
        (1, 4, "practice-mic"),  # the double Enter: one sale
        (2, 3, "practice-mic"),
        (3, 2, "practice-door"),
    ]
    voided = sales[1]
    assert voided.is_voided and voided.void_reason == VOID_REASON
    assert voided.void_witness.username == "practice-books"
    game = Game.objects.get(occasion=occasion, number=1)
    calls = BallCall.objects.filter(game=game)
    assert calls.filter(voided_at__isnull=False).values_list("number", flat=True).get() == 48
    assert calls.filter(voided_at__isnull=True).count() == len(BALLS) - 1 + len(AFTER_CORRECTION)
    card = CardVerification.objects.get(claim__game=game)
    assert card.valid and card.scope == CardVerification.Scope.WHOLE_CARD
    assert {square: card.numbers[square] for square in ROW_2 if square in card.numbers}
    payout = Payout.objects.get(winner__in=Winner.objects.filter(claim__game=game))
    assert payout.amount == 50 and payout.paid_by.username == "practice-mic"
    assert payout.verified_by.username == "practice-door"
