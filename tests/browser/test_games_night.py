"""Game 1 at American Legion Post 171, driven in the browser by its member in charge on the hall
laptop while a second page, logged in to nothing, is the projector's flashboard: the prize
announced, the 75 balls confirmed and the game started; the balls entered by keyboard and by a
tap, one mis-keyed and corrected; two players calling Beano on the same ball, the draw and both
cards verified, the $75 prize split $38 + $37 and both paid. The ORM then checks what the pages
recorded.

The demo data gives the organization, its people, logins and worker list; the night itself
(open, the member in charge signed in, a few door sales, game 1 with its prize) is set up here
through the services, so that whatever program the demo plans does not matter."""

import datetime as dt
import re
from decimal import Decimal
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.demo.program import authorize_common_arrangements
from games import program_services
from games.draw_selectors import board_state, flash_state
from games.models import (
    Arrangement,
    BallCall,
    Game,
    JackpotLedgerEntry,
    Payout,
    PrizePart,
    ProgressiveGame,
    Winner,
)
from occasions import floor_services, sales_services
from occasions.models import Occasion
from organizations.models import WorkerListEntry
from tests.demo_snapshot import seed_demo
from tests.fixtures.night import open_for_tests

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))
PRIZE = Decimal("75")
#: The calls as entered: #3 was keyed 21 for 12 and is voided, #4 is the ball called.
ENTERED = [4, 63, 21, 12, 38, 70]
CALLED = [4, 63, 12, 38, 70]
#: Four corners on two cards, each completed by O70, the ball being called at the claims.
ANN = {"B1": 4, "O1": 63, "B5": 12, "O5": 70}
JOE = {"B1": 12, "O1": 70, "B5": 4, "O5": 63}


def clear_demo_program(occasion: Occasion) -> None:
    """The demo may plan this night's program; the test plans its own game 1."""
    games = Game.objects.filter(occasion=occasion)
    JackpotLedgerEntry.objects.filter(game__game__in=games).delete()
    ProgressiveGame.objects.filter(game__in=games).delete()
    PrizePart.objects.filter(game__in=games).delete()
    games.delete()


def set_up_the_night(occasion: Occasion) -> None:
    """Open, Linda Souza in charge and Robert Medeiros (the head, for gross receipts) on the
    floor, three players at the door, game 1: four corners for $75. (Opening the short way
    has put Post 171's member in charge and worker logins, Linda Souza and Thomas Ferreira, on
    the floor already.)"""
    clear_demo_program(occasion)
    occasion = open_for_tests(occasion)
    mic = get_user_model().objects.get(username="post171-mic")
    for name, role in (("Linda Souza", "member_in_charge"), ("Robert Medeiros", "gross_receipts")):
        entry = WorkerListEntry.objects.get(
            worker_list__organization=occasion.organization,
            worker_list__year=2026,
            person__legal_name=name,
        )
        if occasion.presences.present().filter(entry=entry).exists():
            continue
        floor_services.sign_in_worker(
            occasion=occasion,
            entry=entry,
            role=role,
            identification=entry.identification,
            by=mic,
        )
    items = {i.category: i for i in occasion.price_items.all()}
    for extras in (2, 0, 1):
        lines = [(items["admission"], 1)] + ([(items["extra_regular"], extras)] if extras else [])
        sales_services.record_sale(occasion=occasion, lines=lines, admission_receipt=None, by=mic)
    authorize_common_arrangements(occasion)
    game = program_services.add_game(occasion=occasion, number=1, half=1, kind="regular", by=mic)
    program_services.add_prize_part(
        game=game,
        arrangement=Arrangement.objects.get(code="four_corners"),
        kind="cash",
        amount=PRIZE,
        description="",
        donated=False,
        is_bonus=False,
        by=mic,
    )


@pytest.mark.browser
def test_the_member_in_charge_plays_game_1_to_two_paid_winners(
    live_server, browser, page, monkeypatch, tmp_path
):
    # The live server runs in this process: pinning the clock pins the server's too.
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    occasion = Occasion.objects.get(
        organization__name="American Legion Post 171", date=NIGHT.date()
    )
    set_up_the_night(occasion)
    game = Game.objects.get(occasion=occasion, number=1)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}

    def shot(target, name: str, *, full_page: bool = False) -> None:
        target.screenshot(path=str(tmp_path / f"{name}.png"), full_page=full_page)

    # Log in through the form, landing on the program page.
    page.goto(live_server.url + reverse("game_program", kwargs=args))
    assert "/accounts/login/" in page.url
    page.get_by_label("Username").fill("post171-mic")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()

    # 1. The program: announce game 1's prize, confirm the 75 balls, start the game.
    card = page.locator(f"#game-{game.pk}")
    expect(card).to_contain_text("Four corners")
    expect(card.get_by_text("Next", exact=True)).to_be_visible()
    card.get_by_role("button", name="Announce", exact=True).click()
    expect(page.get_by_role("status")).to_have_text("Game 1's prize 1 is announced.")
    expect(card).to_contain_text("✓ announced 7:00 PM")
    card.get_by_role("button", name="75 balls present").click()
    expect(page.get_by_role("status")).to_have_text(
        "All 75 balls are in the receptacle for game 1."
    )
    expect(card).to_contain_text("✓ 75 balls confirmed 7:00 PM")
    card.get_by_role("button", name="Start game 1").click()
    expect(page.get_by_role("status")).to_have_text("Game 1 has begun.")
    expect(page.locator("#program-panel").get_by_text("Game 1 in play", exact=True)).to_be_visible()
    expect(page.locator("#floor-bar")).to_contain_text("Game 1 in play")
    shot(page, "1-program-started")

    # 2. The occasion page's draw card: make the flashboard link, open it on the projector.
    page.get_by_role("link", name="Friday, December 4, 2026").click()
    page.get_by_role("button", name="Make the flashboard link").click()
    opener = page.get_by_role("link", name="Open the flashboard ↗")
    expect(opener).to_be_visible()
    link = opener.get_attribute("href")
    expect(page.get_by_label("The flashboard's public link")).to_have_value(link)
    projector = browser.new_context(viewport={"width": 1366, "height": 768})  # no login
    try:
        flash = projector.new_page()
        flash.goto(link)
        expect(flash.locator(".flash-game")).to_contain_text("Game 1")
        expect(flash.locator(".flash-last")).to_have_text("–")
        expect(flash.locator(".flash-prize")).to_have_text("$75")
        flash.evaluate("window.flashLoaded = true")  # gone if the page reloaded
        lit = flash.locator(".flash-ball.is-called")
        last_ball = flash.locator(".flash-last")

        # 3. The caller's console: balls by keyboard and by a tap, one corrected. With game 1
        # in play, "Caller's console" opens its console, no game to pick first.
        page.get_by_role("link", name="Caller's console").click()
        page.wait_for_url(re.compile(r"/games/\d+/draw/$"))  # typing must reach the new page
        page.wait_for_load_state("load")
        ball = page.get_by_label("Ball called")
        expect(ball).to_be_focused()
        message = page.locator(".draw-msg")
        page.keyboard.type("4")
        expect(page.locator("#draw-preview")).to_have_text("B4")
        page.keyboard.press("Enter")
        expect(message).to_have_text("B4 called (#1).")
        expect(last_ball).to_have_text("B4", timeout=3000)
        expect(ball).to_be_focused()
        page.keyboard.type("O63")
        page.keyboard.press("Enter")
        expect(message).to_have_text("O63 called (#2).")
        expect(last_ball).to_have_text("O63", timeout=3000)
        page.keyboard.type("21")  # the caller called B12
        page.keyboard.press("Enter")
        expect(message).to_have_text("I21 called (#3).")
        expect(last_ball).to_have_text("I21", timeout=3000)
        expect(lit).to_have_text(["4", "21", "63"])
        # The correction: its reason, then the ball called.
        wrong = page.locator(".draw-calls tr").filter(has_text="#3")
        wrong.get_by_text("Correct").click()
        reason = page.get_by_label("Why call #3 is corrected")
        expect(reason).to_be_focused()
        page.keyboard.type("keyed 21 for 12")
        page.keyboard.press("Enter")
        expect(message).to_have_text("Call #3 (I21) voided: enter the ball called.")
        expect(wrong).to_contain_text("voided: keyed 21 for 12")
        expect(last_ball).to_have_text("O63", timeout=3000)
        expect(lit).to_have_text(["4", "63"])
        expect(ball).to_be_focused()
        page.keyboard.type("12")
        page.keyboard.press("Enter")
        expect(message).to_have_text("B12 called (#4).")
        # A tap on the board.
        page.get_by_role("button", name="N38", exact=True).click()
        expect(message).to_have_text("N38 called (#5).")
        expect(page.get_by_role("button", name="N38", exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        expect(last_ball).to_have_text("N38", timeout=3000)
        # O70: its calling begins, and two players call Beano.
        page.keyboard.type("o70")
        page.keyboard.press("Enter")
        expect(message).to_have_text("O70 called (#6).")
        expect(page.locator(".draw-last")).to_contain_text("5 called")
        expect(last_ball).to_have_text("O70", timeout=3000)
        expect(flash.locator(".flash-count")).to_have_text("5 called")
        expect(lit).to_have_text(["4", "12", "38", "63", "70"])
        expect(flash.locator(".flash-ball.is-last")).to_have_text("70")
        assert flash.evaluate("window.flashLoaded") is True, "the flashboard was never reloaded"
        shot(page, "2-console")
        shot(flash, "3-flashboard")
    finally:
        projector.close()

    # 4. The claims page: two claims on O70, the draw and both cards verified.
    page.get_by_role("link", name="Claims and winners").click()
    expect(page.get_by_role("heading", name="Game 1 · claims and winners")).to_be_visible()
    expect(page.locator(".ball-chip")).to_have_text(["B4", "O63", "B12", "N38", "O70"])

    def record_claim(player: str, table: str) -> None:
        form = page.locator("#claim")
        expect(form.get_by_label("Prize claimed")).to_have_value(str(game.parts.get().pk))
        form.get_by_label("Ball the caller had drawn").fill("70")
        form.get_by_text("Yes — calling had begun").click()
        form.get_by_label("Player").fill(player)
        form.get_by_label("Table").fill(table)
        form.get_by_role("button", name="Record the claim").click()
        expect(page.get_by_text("The claim is recorded.")).to_be_visible()

    record_claim("Ann Pires", "3")
    record_claim("Joe Dias", "7")
    claims = page.locator("[id^=claim-]")
    expect(claims).to_have_count(2)
    ann_claim, joe_claim = claims.nth(0), claims.nth(1)
    expect(ann_claim).to_contain_text("Ann Pires · table 3")
    expect(ann_claim).to_contain_text("on O70 (ball 5)")
    expect(joe_claim).to_contain_text("on O70 (ball 5)")
    expect(ann_claim).to_contain_text("Ball in hand: O70, calling had begun — it counts.")

    # Ann asks to see the draw: the member in charge is filled in, a player witnesses.
    ann_claim.get_by_text("Verify the draw").click()
    expect(ann_claim.get_by_label("Member in charge present")).to_have_value("Linda Souza")
    ann_claim.get_by_label("Players present, other than the winner").fill("Rose Medeiros")
    ann_claim.get_by_role("button", name="Record the verification").click()
    expect(page.get_by_text("The verification of the draw is recorded.")).to_be_visible()
    expect(ann_claim).to_contain_text(
        "before Linda Souza and Rose Medeiros: 5 drawn, 70 remaining."
    )

    def verify_card(claim, numbers: dict[str, int]) -> None:
        claim.get_by_text("Verify the card").click()
        grid = claim.get_by_role("table", name="The winning card")
        for square, number in numbers.items():
            grid.get_by_label(square, exact=True).fill(str(number))
        claim.get_by_label("Witness 1", exact=True).fill("Rose Medeiros")
        claim.get_by_label("Witness 1 table").fill("12")
        claim.get_by_role("button", name="Check the card").click()
        expect(page.get_by_text("The card verification is recorded.")).to_be_visible()

    verify_card(ann_claim, ANN)
    expect(ann_claim).to_contain_text("Card valid")
    verify_card(joe_claim, JOE)
    expect(joe_claim).to_contain_text("Card valid")
    expect(joe_claim).to_contain_text("before Rose Medeiros (table 12)")
    shot(page, "4-claims-verified", full_page=True)

    # Both won on the same call: tick both, see the split, record the winners.
    winners = page.locator("[id^=winners_]")
    expect(winners).to_contain_text("Prize 1: Four corners · $75.00")
    split = winners.locator("[id^=split-]")
    expect(split).to_contain_text("Tick the claims that won")
    winners.get_by_label("Ann Pires won (table 3)").check()
    expect(split).to_contain_text("Ann Pires $75.00")
    winners.get_by_label("Joe Dias won (table 7)").check()
    expect(split).to_contain_text("Ann Pires $38.00 · Joe Dias $37.00 — total $75.00 of the $75.00")
    shot(page, "5-split", full_page=True)
    winners.get_by_role("button", name="Record the winners").click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_contain_text("Ann Pires $38.00 and Joe Dias $37.00")
    assert not Winner.objects.filter(claim__game=game).exists()  # nothing until confirmed
    page.get_by_role("button", name="Yes, record the winners").click()
    expect(page.get_by_text("Winners recorded.")).to_be_visible()
    expect(ann_claim).to_contain_text("Winner · $38.00")
    expect(joe_claim).to_contain_text("Winner · $37.00")

    # Both paid by the member in charge, verified by the head, picked from the form.
    for winner_name, share in (("Ann Pires", "38.00"), ("Joe Dias", "37.00")):
        card = page.locator("[id^=payout_]").filter(has_text=winner_name)
        expect(card.get_by_label("Amount paid")).to_have_value(share)
        card.get_by_label("Verified by").select_option(label="Robert Medeiros (post171-head)")
        # Robert confirms himself, on the same laptop: a name picked from a list is not enough.
        card.get_by_label("The verifier types their own password or PIN").fill(DEMO_PASSWORD)
        card.get_by_role("button", name="Record the payout").click()
        expect(page.get_by_text(f"{winner_name} is paid.")).to_be_visible()
        expect(card).to_contain_text(
            f"Paid ${share} at 7:00 PM by Linda Souza, verified by Robert Medeiros"
        )
    shot(page, "6-paid", full_page=True)

    # 5. What the pages recorded.
    calls = list(BallCall.objects.filter(game=game).order_by("sequence"))
    assert [(c.sequence, c.number) for c in calls] == list(enumerate(ENTERED, start=1))
    voided = [c for c in calls if c.voided_at is not None]
    assert [(v.sequence, v.number, v.void_reason) for v in voided] == [(3, 21, "keyed 21 for 12")]
    live = [c.number for c in calls if c.voided_at is None]
    assert live == CALLED
    rows = list(Winner.objects.filter(claim__game=game).order_by("claim__claimed_at", "claim__pk"))
    assert [(w.player_name, w.share) for w in rows] == [
        ("Ann Pires", Decimal("38.00")),
        ("Joe Dias", Decimal("37.00")),
    ]
    payouts = list(Payout.objects.filter(winner__in=rows).select_related("paid_by", "verified_by"))
    assert sorted(p.amount for p in payouts) == [Decimal("37.00"), Decimal("38.00")]
    assert {(p.paid_by.username, p.verified_by.username) for p in payouts} == {
        ("post171-mic", "post171-head")
    }
    # The flashboard shows the game in play, its last ball the last call that stands.
    shown = flash_state(occasion.pk).game
    assert shown == game
    assert board_state(shown).last.number == live[-1] == 70
