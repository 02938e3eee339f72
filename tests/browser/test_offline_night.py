"""The Wi-Fi drops in the middle of the night and the night goes on (issue 42): on the hall
laptop, with every request cut (``wifi.down()``: the pages' and the service worker's alike),
the member in charge sells 20 admissions at the door, calls 10 balls, records a claim and pays a
winner; reloads the door, then restarts the browser, still offline; the Wi-Fi comes back, the
verifier types their PIN for the payout, and every act is recorded once, at the moment it was
done, marked as recorded on the laptop while offline. A ball kept after the license's hours is
refused when it arrives and shown with its citation.

That the same acts give the same filed figures recorded live is tests/offline/test_same_figures.py
(the figures of the report, compared whole); here, that each act the laptop kept arrives once."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.models import BallCall, Claim, Payout
from occasions.models import Sale
from occasions.sales_selectors import door_counts
from offline.models import QueuedAct
from tests.browser.conftest import laptop_browser
from tests.browser.test_floor_entries import counted, log_in
from tests.conftest import PASSWORD
from tests.fixtures.floor import on_floor
from tests.fixtures.games import GAME_BALLS

SHOTS = Path("/tmp/beano-screenshots")
#: The balls called offline on game 1 (none of them already called).
BALLS = (42, 7, 19, 33, 61, 4, 27, 50, 66, 12)


def _url(live_server: Any, name: str, **kwargs: int) -> str:
    return live_server.url + reverse(name, kwargs=kwargs)


def _pack_kept(page: Any, occasion_id: int) -> None:
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => document.documentElement.dataset.offlineKept === 'yes'")
    page.wait_for_function(
        """async (id) => {
             const db = await idb.openDB("beano-floor", 1);
             const pack = await db.get("meta", "pack:" + id);
             db.close();
             return !!pack;
           }""",
        arg=occasion_id,
    )


def _waiting(page: Any, n: int) -> None:
    words = "1 act waits" if n == 1 else f"{n} acts wait"
    expect(page.locator("#offline-banner [data-offline-text]")).to_contain_text(
        f"Offline — {words} on this laptop."
    )


@pytest.mark.browser
def test_a_night_with_the_wifi_down_in_the_middle_is_recorded_once_when_it_returns(
    live_server, browser, tenant, draw_game, game_in_play, winner, wifi, tmp_path
):
    occasion = draw_game.occasion
    on_floor(tenant.head, occasion)  # the payout's verifier
    org = {"org_id": occasion.organization_id, "pk": occasion.pk}
    door = _url(live_server, "door_sales", **org)
    console = _url(live_server, "draw_console", game_pk=draw_game.pk, **org)
    claims = _url(live_server, "game_claims", game_pk=draw_game.pk, **org)
    payouts = _url(live_server, "game_claims", game_pk=game_in_play.pk, **org)
    before = (Sale.objects.count(), BallCall.objects.count(), Claim.objects.count())
    profile = tmp_path / "profile"
    refused_by_csp: list[str] = []

    def launch() -> Any:
        return laptop_browser(browser, profile, refused_by_csp)

    context, page = launch()
    try:
        # Online: the night opened on this laptop, which keeps its pages and its pack.
        log_in(page, door, tenant.member_in_charge)
        _pack_kept(page, occasion.pk)

        # --- The Wi-Fi drops. The door goes on: 20 players, some with extra cards. ----------
        wifi.down()
        extra = page.get_by_label("Extra regular card")
        for i in range(20):
            extra.click()
            extra.fill(str(i % 3) if i % 3 else "")
            extra.press("Enter")
            _waiting(page, i + 1)
        expect(page.locator("#sale-result")).to_contain_text("Kept on this laptop")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "offline-door-20-waiting-1366x768.png"))
        page.set_viewport_size({"width": 1024, "height": 768})
        page.screenshot(path=str(SHOTS / "offline-door-20-waiting-1024x768.png"))
        page.set_viewport_size({"width": 1366, "height": 768})

        # A reload offline: the door again, from the laptop, the 20 still waiting.
        page.reload()
        expect(page.locator("#sale-form")).to_be_visible()
        _waiting(page, 20)

        # The caller's console, never opened on this laptop, was kept with the night: 10 balls.
        page.goto(console)
        ball = page.get_by_label("Ball called")
        for i, number in enumerate(BALLS):
            ball.fill(str(number))
            ball.press("Enter")
            _waiting(page, 21 + i)
        expect(page.locator(f"#draw-ball-{BALLS[-1]}")).to_have_class(re.compile(r"\bis-called\b"))
        # A ball already called is refused on the laptop at once, nothing kept.
        ball.fill(str(BALLS[0]))
        ball.press("Enter")
        _waiting(page, 30)
        page.screenshot(path=str(SHOTS / "offline-console-1366x768.png"))

        # A claim on game 1.
        page.goto(claims)
        form = page.locator("#claim")
        form.get_by_label("Player").fill("Joe Dias")
        form.get_by_role("button", name="Record the claim").click()
        _waiting(page, 31)

        # Game 3's winner paid, the head verifying: kept to be confirmed, the PIN not kept.
        page.goto(payouts)
        pay = page.locator(f"#payout_{winner.pk}")
        pay.get_by_label("Verified by").select_option(str(tenant.head.pk))
        pay.get_by_label("The verifier types their own password or PIN").fill(PASSWORD)
        pay.get_by_role("button", name="Record the payout").click()
        expect(pay).to_contain_text("Kept on this laptop to be confirmed")
        _waiting(page, 32)
    finally:
        context.close()

    # --- The browser restarted, still offline: the door and its queue are there. -------------
    context, page = launch()
    try:
        page.goto(door)
        expect(page.locator("#sale-form")).to_be_visible()
        _waiting(page, 32)
        assert (Sale.objects.count(), BallCall.objects.count(), Claim.objects.count()) == before

        # --- The Wi-Fi is back: the queue goes, in order; the payout waits for its PIN. -------
        wifi.up()
        banner = page.locator("#offline-banner")
        pin = banner.get_by_label("The verifier types their PIN")
        expect(banner.locator("[data-offline-text]")).to_have_text(
            "1 act waits on this laptop for a second person's PIN.", timeout=20000
        )
        expect(pin).to_be_visible()
        assert Sale.objects.count() == before[0] + 20
        assert BallCall.objects.count() == before[1] + 10
        assert Claim.objects.count() == before[2] + 1
        assert not Payout.objects.exists()
        pin.fill(PASSWORD)
        banner.get_by_role("button", name="Send with the PIN").click()
        expect(banner).to_be_hidden(timeout=20000)
    finally:
        context.close()
    assert not refused_by_csp, "\n".join(refused_by_csp)

    # Every act once, at the moment it was done, marked as done on the laptop offline.
    assert QueuedAct.objects.filter(state="recorded").count() == 32
    assert not QueuedAct.objects.exclude(state="recorded").exists()
    sales = Sale.objects.order_by("number")
    assert list(sales.values_list("number", flat=True)) == list(range(1, 21))
    counts = door_counts(occasion)
    assert counts.admissions == 20
    called = BallCall.objects.filter(game=draw_game).order_by("sequence")
    assert list(called.values_list("number", flat=True)) == list(BALLS)
    assert set(BallCall.objects.filter(game=game_in_play).values_list("number", flat=True)) == set(
        GAME_BALLS
    )
    claim = Claim.objects.get(game=draw_game)
    assert claim.player_name == "Joe Dias"
    payout = Payout.objects.get()
    assert payout.winner_id == winner.pk and payout.verified_by_id == tenant.head.pk
    received = QueuedAct.objects.order_by("seq")
    claimed = list(received.values_list("done_at", flat=True))
    assert claimed == sorted(claimed)
    assert all(r.received_at >= r.done_at - dt.timedelta(seconds=5) for r in received)


@pytest.mark.browser
def test_a_ball_kept_after_the_license_hours_is_refused_when_it_arrives_and_shown(
    live_server, page, tenant, draw_game, wifi
):
    occasion = draw_game.occasion
    org = {"org_id": occasion.organization_id, "pk": occasion.pk}
    log_in(page, _url(live_server, "draw_console", game_pk=draw_game.pk, **org), tenant.worker)
    _pack_kept(page, occasion.pk)
    wifi.down()
    ball = page.get_by_label("Ball called")
    ball.fill("42")
    ball.press("Enter")
    _waiting(page, 1)
    # Meanwhile the license's hours are found to end at 10:30 PM: the ball, kept at 11 PM by
    # the laptop's clock, is after them.
    type(occasion.license).objects.filter(pk=occasion.license_id).update(
        start_time=dt.time(18, 0), end_time=dt.time(22, 30)
    )
    wifi.up()
    refused = page.locator("#offline-refused")
    expect(refused).to_be_visible(timeout=20000)
    expect(refused).to_contain_text("Ball N42")
    expect(refused.locator(".offline-refused-message")).to_have_text(
        "It is 11:00 PM; the license allows Beano from 6:00 PM to 10:30 PM. 961 CMR 3.04(7)"
    )
    # The page is read again from the server: the ball is not shown as called.
    expect(page.locator("#draw-ball-42")).not_to_have_class(re.compile(r"\bis-called\b"))
    expect(page.locator(".draw-msg")).not_to_contain_text("kept on this laptop")
    page.screenshot(path=str(SHOTS / "offline-refused-1366x768.png"))
    assert not BallCall.objects.filter(game=draw_game, number=42).exists()
    kept = QueuedAct.objects.get()
    assert kept.state == "refused" and kept.refusal_citation == "961 CMR 3.04(7)"


@pytest.mark.browser
def test_an_act_kept_by_one_login_waits_for_that_login_to_send_it(
    live_server, page, tenant, open_occasion, wifi
):
    """The server records an act as the login that sends it: a sale kept while the worker was
    signed in is not sent under the member in charge's login that signs in after them; it
    waits, and says for whom, until the worker signs in again."""
    org = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    door = _url(live_server, "door_sales", **org)
    log_in(page, door, tenant.worker)
    _pack_kept(page, open_occasion.pk)
    # The acts cannot be sent for now (the server is busy): the sale stays on the laptop.
    page.route("**/offline/acts/", lambda route: route.abort())
    wifi.down()
    page.get_by_label("Extra regular card").press("Enter")
    _waiting(page, 1)
    wifi.up()
    page.get_by_role("button", name="Log out").click()
    log_in(page, door, tenant.member_in_charge)
    page.unroute("**/offline/acts/")
    worker = tenant.worker.get_full_name() or tenant.worker.get_username()
    expect(page.locator("#offline-banner [data-offline-text]")).to_have_text(
        f"1 act was kept on this laptop by {worker}: it is sent once {worker} signs in on "
        "this laptop.",
        timeout=15000,
    )
    page.wait_for_timeout(6000)  # a probe and a send would have come by now
    assert not Sale.objects.exists()

    page.get_by_role("button", name="Log out").click()
    log_in(page, door, tenant.worker)
    # (The banner is hidden as a page opens, before the laptop has read its queue: the sale
    # itself is waited for.)
    for _ in range(75):
        if Sale.objects.exists():
            break
        page.wait_for_timeout(200)
    sale = Sale.objects.get()
    assert sale.sold_by_id == tenant.worker.pk


@pytest.mark.browser
def test_two_laptops_at_the_door_one_offline_give_distinct_receipts_and_the_right_totals(
    live_server, browser, page, tenant, open_occasion, wifi
):
    org = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    door = _url(live_server, "door_sales", **org)
    log_in(page, door, tenant.member_in_charge)
    second = browser.new_context(
        viewport={"width": 1366, "height": 768},
        reduced_motion="reduce",
        user_agent="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/140.0 Safari/537.36 HallLaptopTwo",
    )
    try:
        other = second.new_page()
        log_in(other, door, tenant.worker)
        _pack_kept(other, open_occasion.pk)

        # The second laptop, at the far end of the hall, loses the Wi-Fi; the first does not.
        wifi.down("HallLaptopTwo")
        for i in range(3):
            # Three players in a row with an admission alone: "New admission" (Alt+N) says the
            # next Enter is a new sale, not the same one pressed twice.
            other.get_by_label("Extra regular card").press("Alt+n")
            other.get_by_label("Extra regular card").press("Enter")
            _waiting(other, i + 1)
        for i in range(2):
            extra = page.get_by_label("Extra regular card")
            extra.fill("1")
            extra.press("Enter")
            expect(page.locator("#sale-panel").get_by_role("status")).to_contain_text(
                f"Receipt {i + 1} recorded"
            )
        assert Sale.objects.count() == 2

        wifi.up()
        expect(other.locator("#offline-banner")).to_be_hidden(timeout=20000)
    finally:
        second.close()
    numbers = list(Sale.objects.order_by("number").values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5]
    by_laptop = dict(
        QueuedAct.objects.filter(state="recorded").values_list("key", "target_id").distinct()
    )
    assert len(by_laptop) == 3
    assert door_counts(open_occasion).admissions == 5
    assert counted(open_occasion) == {"admission": 5, "extra_regular": 2}


@pytest.mark.browser
def test_an_act_the_laptop_does_not_keep_says_so_offline_instead_of_the_browsers_error(
    live_server, page, tenant, claim, wifi
):
    """Verifying a claim needs the server (the card's faces, the draw): offline, the laptop says
    it is not kept and to do it when the connection returns, the page and its form as they were,
    rather than posting into no connection and the browser's own error page."""
    occasion = claim.game.occasion
    org = {"org_id": occasion.organization_id, "pk": occasion.pk}
    claims = _url(live_server, "game_claims", game_pk=claim.game_id, **org)
    log_in(page, claims, tenant.member_in_charge)
    _pack_kept(page, occasion.pk)
    wifi.down()
    page.context.set_offline(True)  # the laptop knows: its network is gone
    said = page.locator("#offline-banner [data-offline-text]")
    expect(said).to_contain_text("Offline — no act waits on this laptop.")
    draw = page.locator(f"#draw_{claim.pk}")
    draw.locator("summary").click()
    draw.get_by_role("button").last.click()
    expect(draw.get_by_role("alert")).to_have_text(
        "Offline: this is not kept on the laptop. Do it once the connection returns, or write "
        "it on the paper sheet."
    )
    expect(page).to_have_url(claims)
    page.context.set_offline(False)
    wifi.up()
