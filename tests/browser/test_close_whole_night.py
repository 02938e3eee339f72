"""The close knows the whole night, in the browser on the demo data (issue 39, item 5): Post 171's
game 1 has a $50 winner recorded and never paid. "Close the occasion?" names her with the
paragraph that refuses the close and the link to her payout, offers no "Yes" (only "Go back",
focused), and has no serious or critical axe-core violation, at 1366×768 and at 1024×768. Once
she is paid, "Yes" closes the night; the projector's flashboard then shows the final board and
"This night is over" instead of an error page. Screenshots go to BEANO_SCREENSHOTS when it is
set (else the test's folder), for a person to look at."""

import datetime as dt
import os
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from beano.rules.claims import Witness
from games import claims_services, draw_services, payout_services, program_services
from games.claims_services import PlayerEntry
from games.models import Arrangement, Flashboard, Game, PrizePart
from occasions import floor_services
from occasions.models import Occasion
from organizations.models import WorkerListEntry
from tests.browser.night_steps import log_in
from tests.browser.test_accessibility import AXE_RUN, WCAG_AA
from tests.browser.test_games_night import ANN, set_up_the_night
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 21, 0, tzinfo=ZoneInfo("America/New_York"))
POST = "American Legion Post 171"
SIZES = ((1366, 768), (1024, 768))


def _shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _a_winner_not_paid() -> tuple[Occasion, object]:
    """Tonight at Post 171: game 1 (four corners, $50) won by Ann Pires on B4 O63 B12 O70 and
    finished; Ann is recorded as the winner and never paid. Karen Pacheco, the paid bookkeeper,
    is signed in (3.04(1)(g)), so that only the prize owed stands in the close's way."""
    occasion = Occasion.objects.get(organization__name=POST, date=NIGHT.date())
    set_up_the_night(occasion)
    mic = get_user_model().objects.get(username="post171-mic")
    karen = WorkerListEntry.objects.get(
        worker_list__organization=occasion.organization,
        worker_list__year=2026,
        person__legal_name="Karen Pacheco",
    )
    floor_services.sign_in_worker(
        occasion=occasion,
        entry=karen,
        role="bookkeeper",
        identification=karen.identification,
        by=mic,
    )
    game = Game.objects.get(occasion=occasion, number=1)
    PrizePart.objects.filter(game=game).update(
        arrangement=Arrangement.objects.get(code="four_corners"),
        amount=Decimal("50.00"),
        announced_at=NIGHT - dt.timedelta(minutes=30),
    )
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.IN_PLAY,
        started_at=NIGHT - dt.timedelta(minutes=29),
        balls_confirmed_at=NIGHT - dt.timedelta(minutes=30),
    )
    game.refresh_from_db()
    for number in (4, 63, 12, 70):
        draw_services.record_ball_call(game=game, number=number, by=mic)
    claim = claims_services.record_claim(
        game=game,
        part=game.parts.get(),
        ball_in_hand=None,
        calling_begun=False,
        player_name="Ann Pires",
        table="3",
        by=mic,
    )
    claims_services.verify_card(
        claim=claim, numbers=ANN, witnesses=[Witness("Rose Medeiros", "12")], by=mic
    )
    [winner] = claims_services.record_winners(
        claims=[claim], players=[PlayerEntry("Ann Pires")], by=mic
    )
    program_services.finish_game(game=game, by=mic)
    draw_services.issue_flashboard_link(occasion=occasion, by=mic)
    return occasion, winner


@pytest.mark.browser
def test_the_close_names_the_winner_not_paid_then_closes_once_she_is(
    live_server, browser, page, monkeypatch, tmp_path
):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    occasion, winner = _a_winner_not_paid()
    shots = _shots(tmp_path)
    close = live_server.url + reverse(
        "occasion_close", kwargs={"org_id": occasion.organization_id, "pk": occasion.pk}
    )
    log_in(page, close, "post171-mic")
    summary = page.locator("#confirm-summary")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(close)
        page.get_by_role("button", name="Close the occasion", exact=True).click()
        expect(summary.get_by_role("heading", name="Close the occasion?")).to_be_visible()
        refused = summary.locator(".confirm-refused")
        expect(refused).to_contain_text("It would be refused now")
        expect(refused).to_contain_text(
            "Ann Pires won $50.00 (prize 1 of game 1) and is not paid: record the payout first."
        )
        expect(refused.locator(".citation")).to_have_text("961 CMR 3.04(6)(f)")
        pay = refused.get_by_role("link", name="Pay on game 1's claims")
        expect(pay).to_have_attribute(
            "href",
            f"/org/{occasion.organization_id}/occasions/"
            f"{occasion.pk}/games/{winner.claim.game_id}/claims/"
            f"#payout_{winner.pk}",
        )
        expect(summary.get_by_role("button", name="Yes, close the occasion")).to_have_count(0)
        expect(summary).to_contain_text("It cannot be done yet")
        expect(summary.get_by_role("link", name="Go back")).to_be_focused()
        expect(summary).not_to_contain_text("Nothing is left unfinished")
        summary.scroll_into_view_if_needed()
        page.screenshot(path=str(shots / f"close-summary-unpaid-{width}x{height}.png"))
        page.add_script_tag(url=live_server.url + "/static/vendor/axe-core/axe.min.js")
        assert page.evaluate(AXE_RUN, WCAG_AA) == []
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.OPEN

    # Where to put it right is one click away: her payout on game 1's claims.
    page.set_viewport_size({"width": 1366, "height": 768})
    summary.get_by_role("link", name="Pay on game 1's claims").click()
    expect(page.locator(f"#payout_{winner.pk}")).to_contain_text("Ann Pires")
    expect(page.locator(f"#payout_{winner.pk}")).to_be_in_viewport()

    head = get_user_model().objects.get(username="post171-head")
    mic = get_user_model().objects.get(username="post171-mic")
    payout_services.record_payout(
        winner=winner, by=mic, verified_by=head, verifier_secret=DEMO_PASSWORD
    )
    page.goto(close)
    page.get_by_role("button", name="Close the occasion", exact=True).click()
    expect(summary.locator(".confirm-refused")).to_have_count(0)
    summary.get_by_role("button", name="Yes, close the occasion").click()
    expect(page.get_by_text("The occasion is closed.")).to_be_visible()
    occasion.refresh_from_db()
    assert occasion.status == Occasion.Status.CLOSED

    # The projector keeps the final board: no error page.
    token = Flashboard.objects.get(occasion=occasion).token
    for width, height in SIZES:
        projector = browser.new_context(viewport={"width": width, "height": height})
        try:
            flash = projector.new_page()
            flash.goto(live_server.url + reverse("flashboard", args=[token]))
            expect(flash.locator(".flash-ended")).to_have_text("This night is over")
            expect(flash.locator(".flash-game")).to_contain_text("Game 1")
            expect(flash.locator(".flash-ball.is-last")).to_have_text("70")
            expect(flash.locator("#flash-gone")).to_be_hidden()
            flash.wait_for_timeout(1500)  # a poll or two: still the final board
            expect(flash.locator(".flash-ended")).to_be_visible()
            fits = flash.evaluate(
                "() => document.documentElement.scrollHeight <= window.innerHeight"
                " && document.documentElement.scrollWidth <= window.innerWidth"
            )
            assert fits, f"the final board overflows at {width}×{height}"
            flash.screenshot(path=str(shots / f"flashboard-over-{width}x{height}.png"))
        finally:
            projector.close()
