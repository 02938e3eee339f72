"""The floor page comes back with the Wi-Fi down: the hall laptop's service worker (/sw.js) kept
the door page as it was shown online, so a reload, another tab and a browser restart with no
connection show it again, not the browser's error page; a page never opened on the laptop shows
the /offline/ page, which says so and how to get back. The Wi-Fi is cut by the live server
(``tests.browser.wifi``), the worker's own requests included."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import laptop_browser
from tests.browser.test_floor_entries import log_in

#: Where the screenshot of the /offline/ page is left to be looked at.
SHOTS = Path("/tmp/beano-screenshots")


def kept(page: Any) -> None:
    """Wait until the worker controls the page and has kept it (offline-register.js says so)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.wait_for_function("() => document.documentElement.dataset.offlineKept === 'yes'")


def door_shown(page: Any, url: str) -> None:
    expect(page).to_have_url(url)
    expect(page.locator("#sale-form")).to_be_visible()
    expect(page.get_by_label("Extra regular card")).to_be_visible()


def door_url(live_server: Any, occasion: Any) -> str:
    args = {"org_id": occasion.organization_id, "pk": occasion.pk}
    return live_server.url + reverse("door_sales", kwargs=args)


@pytest.mark.browser
def test_the_door_comes_back_offline_on_a_reload_and_in_another_tab(
    live_server, page, tenant, open_occasion, wifi
):
    url = door_url(live_server, open_occasion)
    log_in(page, url, tenant.worker)
    kept(page)

    wifi.down()
    page.reload()
    door_shown(page, url)  # not chrome-error://
    # Its styles and scripts came from the laptop too: the page looks as it does online.
    expect(page.locator("#sale-form")).not_to_have_attribute("data-floor-sending", "")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "door-reloaded-offline-1366x768.png"))

    other = page.context.new_page()
    other.goto(url)
    door_shown(other, url)

    # A page never opened on this laptop: the /offline/ page, not the browser's.
    never = live_server.url + reverse("organization_home", args=[tenant.organization.pk])
    other.goto(never)
    expect(other).to_have_url(never)
    expect(other.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(other.get_by_text("this page was not kept on this laptop")).to_be_visible()
    SHOTS.mkdir(parents=True, exist_ok=True)
    other.screenshot(path=str(SHOTS / "offline-page-1366x768.png"), full_page=True)

    wifi.up()
    other.goto(never)
    expect(other.get_by_role("heading", name="You are offline")).to_have_count(0)


def in_floor_cache(page: Any, path: str) -> bool:
    return page.evaluate(
        "path => caches.open('beano-floor-pages').then(c => c.match(path)).then(Boolean)", path
    )


@pytest.mark.browser
def test_the_nights_other_pages_are_kept_unvisited_and_logout_forgets_them(
    live_server, page, tenant, open_occasion, wifi
):
    url = door_url(live_server, open_occasion)
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    workers = reverse("workers_present", kwargs=args)
    log_in(page, url, tenant.member_in_charge)
    kept(page)
    assert in_floor_cache(page, workers)  # never opened, kept for the night

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/accounts/login/")
    page.wait_for_function("() => caches.has('beano-floor-pages').then(has => !has)")
    # The floor's files stay (they hold nothing of anyone's); the pages are gone.
    assert page.evaluate("() => caches.keys()").count("beano-floor-pages") == 0
    assert any("precache" in name for name in page.evaluate("() => caches.keys()"))

    wifi.down()
    page.goto(url)
    expect(page.get_by_role("heading", name="You are offline")).to_be_visible()
    expect(page.locator("#sale-form")).to_have_count(0)


@pytest.mark.browser
def test_the_pages_the_night_pack_lists_are_kept(
    live_server, page, tenant, open_occasion, game_in_play, wifi, settings
):
    """The pack's "pages" (contract §1: strings, and objects of game id to address) are what
    the registration asks the worker to keep: the console and claims of a game never opened."""
    from games import draw_services
    from tests.offline import pack_stand_in

    settings.ROOT_URLCONF = "tests.offline.pack_stand_in"
    args = {"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    game = {**args, "game_pk": game_in_play.pk}
    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    console, claims = reverse("draw_console", kwargs=game), reverse("game_claims", kwargs=game)
    pack_stand_in.PAGES.update(
        door=reverse("door_sales", kwargs=args),
        console={str(game_in_play.pk): console},
        claims={str(game_in_play.pk): claims},
        flashboard=reverse("flashboard", args=[board.token]),
    )
    try:
        log_in(page, door_url(live_server, open_occasion), tenant.member_in_charge)
        kept(page)
    finally:
        pack_stand_in.PAGES.clear()
    for path in (console, claims, reverse("flashboard", args=[board.token])):
        assert in_floor_cache(page, path), path
    assert in_floor_cache(page, reverse("offline_pack", kwargs=args))  # the pack itself

    wifi.down()
    page.goto(live_server.url + console)
    expect(page).to_have_url(live_server.url + console)
    expect(page.get_by_role("heading", name="You are offline")).to_have_count(0)


@pytest.mark.browser
def test_a_lapsed_sessions_login_page_is_never_kept_for_a_floor_page(
    live_server, page, tenant, open_occasion, wifi
):
    """A floor page the worker is asked to keep with the session gone is answered by the login
    page (a redirect followed): it is not kept in the floor page's place, which keeps the page
    last seen."""
    url = door_url(live_server, open_occasion)
    path = reverse(
        "door_sales", kwargs={"org_id": open_occasion.organization_id, "pk": open_occasion.pk}
    )
    log_in(page, url, tenant.worker)
    kept(page)
    page.context.clear_cookies()
    page.evaluate(
        """path => navigator.serviceWorker.ready.then(r => workbox.messageSW(
            r.active, {type: "CACHE_URLS", payload: {urlsToCache: [path]}}))""",
        path,
    )
    text = page.evaluate(
        "path => caches.open('beano-floor-pages').then(c => c.match(path)).then(r => r.text())",
        path,
    )
    assert 'id="sale-form"' in text
    wifi.down()
    page.reload()
    door_shown(page, url)


@pytest.mark.browser
def test_the_flashboard_with_no_login_comes_back_offline(
    live_server, page, tenant, open_occasion, wifi
):
    from games import draw_services

    board = draw_services.issue_flashboard_link(occasion=open_occasion, by=tenant.head)
    url = live_server.url + reverse("flashboard", args=[board.token])
    page.goto(url)
    kept(page)
    wifi.down()
    page.reload()
    expect(page).to_have_url(url)
    expect(page.locator("#flash")).to_be_visible()


@pytest.mark.browser
def test_the_door_comes_back_offline_after_a_browser_restart(
    live_server, browser, tenant, open_occasion, wifi, tmp_path
):
    """The laptop's browser closed and opened again with its profile (the worker and its caches
    are on disk), the Wi-Fi still down."""
    url = door_url(live_server, open_occasion)
    profile = tmp_path / "profile"
    refused: list[str] = []

    def launch() -> Any:
        return laptop_browser(browser, profile, refused)[0]

    context = launch()
    try:
        page = context.pages[0] if context.pages else context.new_page()
        log_in(page, url, tenant.worker)
        kept(page)
    finally:
        context.close()

    wifi.down()
    context = launch()
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url)
        door_shown(page, url)
    finally:
        context.close()
    assert not refused, "refused by the Content Security Policy:\n" + "\n".join(refused)
