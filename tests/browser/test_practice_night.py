"""Right after ``seed_demo``, at whatever hour this test runs (the clock is not pinned), the
practice hall's member in charge (practice-mic, Jordan Vale) finds today's practice occasion
open on the dashboard and tries the floor: a sale at the door, the laptop handed to the door
worker (practice-door, Robin Hale, with her PIN) who sells the next one, handed back, balls
called on the caller's console, a claim recorded, and the flashboard on a second screen showing
the balls. The ORM then checks what the pages recorded, each sale by the one who sold it."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.demo.practice_hall import LOGINS, NAME
from games.models import BallCall, Claim
from occasions.models import Occasion, Sale
from tests.browser.test_accessibility import AXE_RUN, WCAG_AA
from tests.demo_snapshot import seed_demo

#: Balls for the console: by keyboard, then a tap on the board; the claim is on the last one.
TYPED = ("B7", "22")
TAPPED = "N41"


@pytest.mark.browser
def test_a_new_user_tries_the_practice_night_at_any_hour(live_server, browser, page, tmp_path):
    seed_demo()
    occasion = Occasion.objects.get(organization__name=NAME, date=timezone.localdate())
    assert occasion.status == Occasion.Status.OPEN

    def shot(target, name: str) -> None:
        target.screenshot(path=str(tmp_path / f"{name}.png"))

    # Log in: the dashboard has the practice hall, open now, labelled practice.
    page.goto(live_server.url + "/")
    page.get_by_label("Username").fill("practice-mic")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    card = page.locator(".card").filter(has=page.get_by_role("heading", name=NAME))
    expect(card).to_contain_text("Practice — not a licensee")
    expect(card.locator(".open-now")).to_contain_text("Open now:")
    shot(page, "1-dashboard")

    # The door: one admission and two extra cards, sold by keyboard.
    card.get_by_role("link", name="Door sales").click()
    expect(page.locator(".occasion-header")).to_contain_text("Practice — not reported")
    expect(page.locator(".occasion-header .badge").first).to_have_text("Open")
    expect(page.get_by_label("Extra regular card")).to_be_focused()
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.locator("#sale-panel").get_by_role("status")).to_contain_text(
        "Receipt 1 recorded — $4.00"
    )
    expect(page.locator("#door-counts [data-count=admission]")).to_have_text("1")
    shot(page, "2-door")

    # The laptop handed to the door worker, who types her own PIN; she sells the next player.
    pins = {username: pin for username, _, _, pin, _ in LOGINS}
    page.locator(".floor-laptop").click()
    page.get_by_label("Robin Hale (practice-door)").check()
    page.get_by_label("Their PIN or password").fill(pins["practice-door"])
    page.add_script_tag(url=live_server.url + "/static/vendor/axe-core/axe.min.js")
    assert page.evaluate(AXE_RUN, WCAG_AA) == []  # the walk of every page cannot reach it
    shot(page, "2a-laptop")
    page.get_by_role("button", name="Hand the laptop").click()
    # Her first name on the bar (one line at 1366×768), her whole name to a screen reader.
    expect(page.locator(".floor-laptop")).to_have_text("Laptop: Robin")
    expect(page.locator(".floor-laptop")).to_have_accessible_name(
        "Laptop: Robin Hale, in practice-mic's session"
    )
    expect(page.get_by_label("Extra regular card")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#sale-panel").get_by_role("status")).to_contain_text("Receipt 2 recorded")
    shot(page, "2b-door-worker")
    # And back to the member in charge, with her own PIN.
    page.locator(".floor-laptop").click()
    page.get_by_label(re.compile(r"back to the session's login")).check()
    page.get_by_label("Their PIN or password").fill(pins["practice-mic"])
    page.get_by_role("button", name="Hand the laptop").click()
    expect(page.locator(".floor-laptop")).to_have_accessible_name("Laptop: Jordan Vale")

    # The flashboard, opened from the occasion page on the hall's screen (no login there).
    page.goto(live_server.url + "/")
    card.get_by_role("link", name="Occasion and flashboard").click()
    link = page.get_by_role("link", name="Open the flashboard ↗").get_attribute("href")
    projector = browser.new_context(viewport={"width": 1366, "height": 768})
    try:
        flash = projector.new_page()
        flash.goto(link)
        expect(flash.locator(".flash-game")).to_contain_text("Game 1")
        expect(flash.locator(".flash-prize")).to_have_text("$50")
        expect(flash.locator(".flash-last")).to_have_text("–")

        # The caller's console: game 1 is in play; balls typed, and one tapped on the board.
        page.get_by_role("link", name="Caller's console").click()
        page.get_by_role("link", name=re.compile(r"Game 1\s+in play")).click()
        page.wait_for_url(re.compile(r"/games/\d+/draw/$"))  # typing must reach the new page
        page.wait_for_load_state("load")
        message = page.locator(".draw-msg")
        expect(page.get_by_label("Ball called")).to_be_focused()
        for n, ball in enumerate(TYPED, start=1):
            page.keyboard.type(ball)
            page.keyboard.press("Enter")
            expect(message).to_contain_text(f"called (#{n}).")
        page.get_by_role("button", name=TAPPED, exact=True).click()
        expect(message).to_have_text(f"{TAPPED} called (#3).")
        expect(flash.locator(".flash-last")).to_have_text(TAPPED, timeout=3000)
        expect(flash.locator(".flash-ball.is-called")).to_have_text(["7", "22", "41"])
        shot(page, "3-console")
        shot(flash, "4-flashboard")
    finally:
        projector.close()

    # A player calls Beano as N41 is being called: the claim is recorded.
    page.get_by_role("link", name="Claims and winners").click()
    form = page.locator("#claim")
    form.get_by_label("Ball the caller had drawn").fill("41")
    form.get_by_text("Yes — calling had begun").click()
    form.get_by_label("Player").fill("Pat Newcomer")
    form.get_by_label("Table").fill("1")
    form.get_by_role("button", name="Record the claim").click()
    expect(page.get_by_text("The claim is recorded.")).to_be_visible()
    expect(page.locator("[id^=claim-]")).to_contain_text("Pat Newcomer · table 1")
    shot(page, "5-claim")

    # What the pages recorded, at the practice occasion.
    first, second = Sale.objects.filter(occasion=occasion).order_by("number")
    assert first.sold_by.username == "practice-mic" and first.total == 4
    assert second.sold_by.username == "practice-door" and second.total == 2
    calls = BallCall.objects.filter(game__occasion=occasion, voided_at__isnull=True)
    assert list(calls.order_by("sequence").values_list("number", flat=True)) == [7, 22, 41]
    claim = Claim.objects.get(game__occasion=occasion)
    assert (claim.player_name, claim.ball_in_hand, claim.calling_begun) == (
        "Pat Newcomer",
        41,
        True,
    )
