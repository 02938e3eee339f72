"""The floor bar and the confirmations, in the browser at 1366×768 on the hall laptop: the
member in charge of Post 171 goes from the occasion page to the console and the claims and back
by the bar, finishes game 1 after its summary (the bar then says "Next: game 2"), sees the $150
special game 2 named as never played in the close's summary, closes, and the bar then points to
the close-out, never to game 2. Screenshots are kept in the test's folder."""

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
from games import program_services
from games.models import Arrangement, Game
from occasions import floor_services
from occasions.models import Occasion
from organizations.models import WorkerListEntry
from tests.browser.test_games_night import set_up_the_night
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))


def _ready(occasion: Occasion) -> Game:
    """Game 1 in play ($75 four corners), game 2 a $150 special never played, and Karen Pacheco
    (the paid bookkeeper) on the floor so that the close is allowed."""
    set_up_the_night(occasion)
    mic = get_user_model().objects.get(username="post171-mic")
    entry = WorkerListEntry.objects.get(
        worker_list__organization=occasion.organization,
        worker_list__year=2026,
        person__legal_name="Karen Pacheco",
    )
    floor_services.sign_in_worker(
        occasion=occasion,
        entry=entry,
        role="bookkeeper",
        identification=entry.identification,
        by=mic,
    )
    special = program_services.add_game(occasion=occasion, number=2, half=1, kind="special", by=mic)
    program_services.add_prize_part(
        game=special,
        arrangement=Arrangement.objects.get(code="four_corners"),
        kind="cash",
        amount=Decimal("150"),
        description="",
        donated=False,
        is_bonus=False,
        by=mic,
    )
    game = Game.objects.get(occasion=occasion, number=1)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.IN_PLAY, started_at=NIGHT)
    return game


@pytest.mark.browser
@pytest.mark.motion
def test_the_bar_leads_round_the_night_and_the_final_acts_confirm(
    live_server, page, monkeypatch, tmp_path
):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    occasion = Occasion.objects.get(
        organization__name="American Legion Post 171", date=NIGHT.date()
    )
    game = _ready(occasion)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    bar = page.locator("#floor-bar")

    def shot(name: str) -> None:
        page.screenshot(path=str(tmp_path / f"{name}.png"))

    page.goto(live_server.url + reverse("occasion_detail", kwargs=args))
    page.get_by_label("Username").fill("post171-mic")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()

    # 1. The bar on the occasion page: the game in play and the console one click away.
    expect(bar).to_contain_text("Game 1 in play")
    for label in ("Workers", "Door", "Games", "Console", "Claims", "Flashboard", "Close"):
        expect(bar.get_by_role("link", name=label, exact=True)).to_be_visible()
    shot("1-occasion-bar")
    bar.get_by_role("link", name="Console", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/draw/$"))
    expect(bar.get_by_role("link", name="Console", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    shot("2-console-bar")

    # 2. The console and the claims: one click apart, both ways.
    bar.get_by_role("link", name="Claims", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/claims/$"))
    shot("3-claims-bar")
    bar.get_by_role("link", name="Console", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/games/{game.pk}/draw/$"))

    # 3. Finish game 1: first the summary, nothing done; then confirmed.
    bar.get_by_role("link", name="Games", exact=True).click()
    page.get_by_role("button", name="Finish game 1").click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_contain_text("Finish game 1?")
    expect(summary).to_contain_text("No winner is recorded for Four corners ($75.00).")
    expect(summary).to_contain_text("A finished game cannot be put back in play.")
    summary.scroll_into_view_if_needed()
    shot("4-finish-summary")
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PLAY
    page.get_by_role("button", name="Yes, finish game 1").click()
    expect(page.locator("#program-panel").get_by_role("status")).to_have_text("Game 1 is finished.")
    expect(bar).to_contain_text("Next: game 2")  # the bar came along with the program

    # 4. The close: the summary names the $150 special never played; then confirmed.
    bar.get_by_role("link", name="Close", exact=True).click()
    page.get_by_role("button", name="Close the occasion").click()
    summary = page.locator("#confirm-summary")
    expect(summary).to_contain_text("Close the occasion?")
    expect(summary).to_contain_text("Game 2 (Special, $150.00 in prizes) was never played.")
    expect(summary).to_contain_text("the close signs them out")
    shot("5-close-summary")
    assert Occasion.objects.get(pk=occasion.pk).status == Occasion.Status.OPEN
    page.get_by_role("button", name="Yes, close the occasion").click()
    expect(page.locator(".occasion-header .badge").first).to_have_text("Closed")
    expect(bar).to_contain_text("Closed at 7:00 PM")
    expect(bar).not_to_contain_text("Next: game")
    expect(bar.get_by_role("link", name="Next: close-out and report")).to_be_visible()
    shot("6-closed-bar")
    assert not page.csp_violations
