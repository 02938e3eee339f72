"""The night's sticky header on a hall laptop (issue 39): at 1366×768 it takes one line (the
floor bar, where the night stands, its next step and the clock), and at 1024×768 no more than
two; a confirmation's heading, a page jumped to by its anchor, is shown below it, never under
it. Played with the motion a hall laptop has (scrolls are smooth). Screenshots go to
BEANO_SCREENSHOTS when it is set (else the test's folder)."""

import datetime as dt
import os
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import django.utils.timezone
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from playwright.sync_api import expect

from games import program_services
from games.models import Game
from occasions import floor_services
from occasions.models import Occasion
from organizations.models import WorkerListEntry
from tests.browser.night_steps import log_in
from tests.browser.test_games_night import set_up_the_night
from tests.demo_snapshot import seed_demo

NIGHT = dt.datetime(2026, 12, 4, 19, 0, tzinfo=ZoneInfo("America/New_York"))
#: One line of the bar: its tallest control (a 44-pixel target) and the bar's padding.
ONE_LINE = 64
#: What is sticky on the page, and where it is.
STICKY = """() => [...document.querySelectorAll("body *")]
    .filter(e => getComputedStyle(e).position === "sticky")
    .map(e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom,
                height: r.height}; })"""


def sign_in(occasion: Occasion, name: str, role: str) -> None:
    mic = get_user_model().objects.get(username="post171-mic")
    entry = WorkerListEntry.objects.get(
        worker_list__organization=occasion.organization,
        worker_list__year=2026,
        person__legal_name=name,
    )
    floor_services.sign_in_worker(
        occasion=occasion, entry=entry, role=role, identification=entry.identification, by=mic
    )


def _sticky(page) -> dict:
    found = page.evaluate(STICKY)
    assert len(found) == 1, found
    return found[0]


def _settled_top(page, selector: str) -> float:
    """The element's top once a smooth scroll has come to rest."""
    top = None
    for _ in range(30):
        now = page.locator(selector).bounding_box()["y"]
        if now == top:
            return now
        top = now
        page.wait_for_timeout(100)
    return top


@pytest.mark.browser
@pytest.mark.motion
def test_the_header_takes_one_line_and_covers_no_heading(live_server, page, monkeypatch, tmp_path):
    monkeypatch.setattr(django.utils.timezone, "now", lambda: NIGHT)
    seed_demo()
    occasion = Occasion.objects.get(
        organization__name="American Legion Post 171", date=NIGHT.date()
    )
    set_up_the_night(occasion)
    game = Game.objects.get(occasion=occasion, number=1)
    Game.objects.filter(pk=game.pk).update(
        status=Game.Status.IN_PLAY, started_at=NIGHT, balls_confirmed_at=NIGHT
    )
    shots = Path(os.environ.get("BEANO_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    console = reverse("draw_console", kwargs=args | {"game_pk": game.pk})
    log_in(page, live_server.url + console, "post171-mic")
    page.wait_for_url(re.compile(r"/games/\d+/draw/$"))
    bar = page.locator("#floor-bar")

    sizes = ((1366, ONE_LINE), (1024, 2 * ONE_LINE - 12))
    for width, most in sizes:
        page.set_viewport_size({"width": width, "height": 768})
        size = f"{width}x768"
        # The console and the occasion page: the header is one line (two at most at 1024).
        for name, path in (
            ("console", console),
            ("occasion", reverse("occasion_detail", kwargs=args)),
        ):
            page.goto(live_server.url + path)
            expect(bar).to_contain_text("Game 1 in play")
            expect(page.locator("#hall-clock")).to_be_visible()
            header = _sticky(page)
            assert header["height"] <= most, (size, path, header)
            page.screenshot(path=str(shots / f"{name}-{size}.png"))

        # The bar's Flashboard jumps to the occasion page's flashboard card: its heading below.
        bar.get_by_role("link", name="Flashboard", exact=True).click()
        top = _settled_top(page, "#flashboard h2")
        assert top >= _sticky(page)["bottom"], (size, "flashboard", top)

    # Game 1 over, eight more never played and the paid bookkeeper on the floor: the close may
    # be confirmed, and its summary is long enough that the browser scrolls to its button.
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=NIGHT)
    sign_in(occasion, "Karen Pacheco", "bookkeeper")
    mic = get_user_model().objects.get(username="post171-mic")
    for number in range(2, 10):
        program_services.add_game(occasion=occasion, number=number, half=2, kind="regular", by=mic)
    for width, most in sizes:
        page.set_viewport_size({"width": width, "height": 768})
        size = f"{width}x768"
        # A confirmation shown on a page of its own: the browser brings its button into view,
        # and the summary's heading stays below the header.
        page.goto(live_server.url + reverse("occasion_close", kwargs=args))
        page.get_by_role("button", name="Close the occasion").click()
        summary = page.locator("#confirm-summary")
        yes = summary.get_by_role("button", name="Yes, close the occasion")
        expect(yes).to_be_focused()
        top = _settled_top(page, "#confirm-title")
        header = _sticky(page)
        assert header["height"] <= most, (size, "close", header)
        assert top >= header["bottom"], (size, "the heading under the header", top, header)
        expect(page.locator("#confirm-title")).to_be_in_viewport()
        expect(yes).to_be_in_viewport()
        page.screenshot(path=str(shots / f"close-summary-{size}.png"))
    assert Occasion.objects.get(pk=occasion.pk).status == Occasion.Status.OPEN
