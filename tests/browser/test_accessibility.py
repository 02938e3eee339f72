"""WCAG 2.1 AA, checked by axe-core (static/vendor/axe-core, served by the app itself) in the
browser, over every page each role reaches from its dashboard in the seeded demo; and what axe
cannot judge alone: the skip link, a visible focus, 44-pixel touch targets at tablet width and
the larger-text setting the hall laptop remembers."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from beano.demo import DEMO_PASSWORD
from tests.conftest import totp_code, totp_device
from tests.demo_snapshot import seed_demo

#: The logins of the demo, one per kind of user (the Commission's, heads and bookkeepers give a
#: second factor).
ROLES = (
    "post171-head",
    "post171-mic",
    "post171-books",
    "stanne-mic",
    "inspector",
    "commission-admin",
)
WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
#: Not pages: files, the Django admin (the Commission's tool for exceptional fixes), and the
#: API (its schema is a file; its documentation page is drf-spectacular's Swagger UI).
NOT_PAGES = re.compile(
    r"\.(pdf|csv|json|png|zip)$|/download|/export|/pdf/|^/admin/|^/accounts/logout|^/api/"
)
MAX_PAGES = 150
#: axe's serious and critical violations of the page, with the first elements of each.
AXE_RUN = """async (tags) => {
    const result = await axe.run(document, {runOnly: tags, resultTypes: ["violations"]});
    return result.violations
        .filter(v => v.impact === "serious" || v.impact === "critical")
        .map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 3)}));
}"""


def _log_in(page: Any, url: str, username: str) -> None:
    page.goto(url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_load_state()
    if page.get_by_label("Code from your authenticator app").count():  # staff, heads, books
        user = get_user_model().objects.get(username=username)
        page.get_by_label("Code from your authenticator app").fill(totp_code(totp_device(user)))
        page.get_by_role("button", name="Verify").click()
    expect(page.locator("nav .nav-user")).to_have_count(1)  # signed in (collapsed on a tablet)


def _walk(page: Any, url: str, seen: set[str]) -> dict[str, list[Any]]:
    """Every page reached by links from the dashboard, one per shape of address (the numbers
    aside) not checked yet as another login, with axe's serious and critical violations."""
    queue = ["/"]
    visited: set[str] = set()
    checked = len(seen)
    found: dict[str, list[Any]] = {}
    while queue and len(seen) - checked < MAX_PAGES:
        path = queue.pop(0)
        shape = re.sub(r"\d+", "N", path)
        if path in visited or (shape in seen and path != "/") or NOT_PAGES.search(path):
            continue  # the dashboard differs by login: read once by each for its links
        visited.add(path)
        fresh = shape not in seen
        seen.add(shape)
        response = page.goto(url + path)
        if response is None or response.status != 200:
            continue
        if "text/html" not in response.headers.get("content-type", ""):
            continue
        if fresh:
            page.add_script_tag(url=url + "/static/vendor/axe-core/axe.min.js")
            found[path] = page.evaluate(AXE_RUN, WCAG_AA)
        hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
        for href in hrefs:
            parts = urlsplit(href)
            if not parts.netloc and parts.path.startswith("/"):
                queue.append(parts.path)
    return found


@pytest.mark.browser
@pytest.mark.motion
def test_every_page_each_role_reaches_has_no_serious_or_critical_violation(
    live_server, browser, capsys
):
    seed_demo()
    failures: list[str] = []
    counted: dict[str, int] = {}
    # Each shape of page once: as the first login that reaches it (the styles are shared; what
    # differs by role is which pages and controls there are, and each role walks its own).
    seen: set[str] = set()
    for username in ROLES:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        try:
            page = context.new_page()
            _log_in(page, live_server.url, username)
            pages = _walk(page, live_server.url, seen)
        finally:
            context.close()
        counted[username] = len(pages)
        failures += [f"{username} {path}: {v}" for path, vs in pages.items() for v in vs]
    with capsys.disabled():
        print("\naxe-core, WCAG 2.1 AA, pages checked per login:", counted)
    # The walk reached the pages of each kind of user (a login that failed would check none).
    assert counted["post171-head"] >= 40 and counted["inspector"] >= 5, counted
    assert sum(counted.values()) >= 60, counted
    assert not failures, "\n".join(failures)


@pytest.mark.browser
@pytest.mark.motion
def test_the_skip_link_comes_first_and_the_focus_shows(live_server, page):
    seed_demo()
    _log_in(page, live_server.url, "post171-mic")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the page's content")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    outline = skip.evaluate(
        "e => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth"
    )
    assert outline == "solid 3px"
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()
    # The next Tab goes into the page's content, not back to the top bar.
    page.keyboard.press("Tab")
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")


@pytest.mark.browser
@pytest.mark.motion
def test_buttons_and_fields_are_44_pixels_at_tablet_width(live_server, browser):
    seed_demo()
    context = browser.new_context(viewport={"width": 800, "height": 1200}, has_touch=True)
    try:
        page = context.new_page()
        _log_in(page, live_server.url, "practice-mic")  # the practice night is open now
        occasion = page.get_by_role("link", name="Door sales").first.get_attribute("href")
        for path in ("/", occasion, "/accounts/"):
            page.goto(live_server.url + path)
            small = page.evaluate(
                """() => [...document.querySelectorAll("main .btn, main select, "
                    + "main input:not([type=hidden]):not([type=checkbox]):not([type=radio])")]
                    .filter(e => e.offsetParent !== null)
                    .map(e => [e.outerHTML.slice(0, 80), e.getBoundingClientRect().height])
                    .filter(([, h]) => h < 44)"""
            )
            assert small == [], (path, small)
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.motion
def test_the_larger_text_chosen_on_the_account_page_is_remembered_by_the_laptop(live_server, page):
    seed_demo()
    _log_in(page, live_server.url, "post171-books")

    def root_size() -> float:
        return float(
            page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        )

    normal = root_size()
    page.goto(live_server.url + "/accounts/")
    page.get_by_role("button", name="Larger", exact=True).click()
    expect(page.get_by_role("button", name="Larger", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    assert root_size() > normal * 1.15
    # Another page, and the next person's login on the same laptop: still larger.
    page.goto(live_server.url + "/")
    assert root_size() > normal * 1.15
    page.get_by_role("button", name="Log out").click()
    assert root_size() > normal * 1.15
    page.goto(live_server.url + "/accounts/login/")
    _log_in(page, live_server.url, "post171-mic")
    assert root_size() > normal * 1.15
    page.goto(live_server.url + "/accounts/")
    page.get_by_role("button", name="Normal").click()
    assert root_size() == normal
