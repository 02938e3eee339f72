from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    # Playwright's sync API runs an event loop in this thread; the ORM calls made by the test
    # itself (fixtures) are plain synchronous code, so Django's async guard is lifted here.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
    if previous is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]


@pytest.fixture
def new_tab(browser: Any, request: Any) -> Iterator[Callable[[], Any]]:
    """Open a browser tab of its own (its own cookies: another person at another computer),
    1366×768 like a hall laptop. Whatever the Content Security Policy refuses on any page a tab
    visits (an inline script or style, a foreign source) fails the test.

    The tab asks for reduced motion (the browser's setting, which Bootstrap honours: scrolls
    are instant and nothing slides or fades, so Playwright does not wait for each scroll and
    transition to settle before it acts), except in a test marked ``motion``: a test of what
    scrolls into view, keeps the focus or the tab's look plays with the motion a hall laptop
    has by default."""
    contexts: list[Any] = []
    violations: list[str] = []
    motion = "no-preference" if request.node.get_closest_marker("motion") else "reduce"

    def open_tab() -> Any:
        context = browser.new_context(
            viewport={"width": 1366, "height": 768}, reduced_motion=motion
        )
        contexts.append(context)
        page = context.new_page()
        page.on(
            "console",
            lambda message: (
                violations.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )
        page.csp_violations = violations  # tests may look, e.g. to prove the listener works
        return page

    yield open_tab
    for context in contexts:
        context.close()
    assert not violations, "refused by the Content Security Policy:\n" + "\n".join(violations)


@pytest.fixture
def page(new_tab: Callable[[], Any]) -> Any:
    """A hall laptop's browser tab."""
    return new_tab()


@pytest.fixture(autouse=True)
def common_arrangements(request: Any) -> None:
    """A live-server test runs on a transactional database, whose flush after each test also
    empties the data the migrations ship: the common winning arrangements (games 0002) are
    loaded again, as the migration loads them, for a test that plays the demo's program."""
    if "live_server" not in request.fixturenames:
        return
    request.getfixturevalue("transactional_db")
    import importlib

    from django.apps import apps

    importlib.import_module("games.migrations.0002_common_arrangements").load(apps, None)


def second_factor(page: Any, username: str) -> None:
    """After the password was sent: the code of the user's authenticator, when the login asks
    for it (heads, bookkeepers and the Commission's staff must use one). A user who must and
    has none is given one first, as if enrolled earlier; a code already used in this 30-second
    step is accepted again, as a person would wait for the next one."""
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from beano.accounts.policy import confirmed_device, second_factor_required
    from tests.conftest import totp_code, totp_device

    user = get_user_model().objects.get(username=username)
    if confirmed_device(user) is None and not second_factor_required(user):
        return
    device = totp_device(user)
    device.last_t = -1
    device.save(update_fields=["last_t"])
    page.wait_for_url(re.compile(r"/accounts/(verify|two-factor)/"))
    if "/accounts/verify/" not in page.url:
        page.reload()
        # (the set-up page, shown before the device was made, now asks for its code)
    expect(page.get_by_role("heading", name="Your two-factor code")).to_be_visible()
    page.get_by_label("Code from your authenticator app").fill(totp_code(device))
    page.get_by_role("button", name="Verify").click()


@pytest.fixture
def wifi(live_server: Any) -> Iterator[Any]:
    """The hall's Wi-Fi between the browser and the live server (``tests.browser.wifi``)."""
    from tests.browser.wifi import Wifi

    network = Wifi(live_server)
    yield network
    network.restore()


def laptop_browser(browser: Any, profile: Any, refused: list[str]) -> tuple[Any, Any]:
    """The hall laptop's browser started with its profile on disk (``profile``: its service
    worker, caches and IndexedDB survive a restart, as a real browser's do), 1366×768, and its
    first tab. What the Content Security Policy refuses on any of its pages goes to ``refused``
    (the caller asserts it is empty, as ``new_tab`` does). Close the context to quit it."""
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"],
        viewport={"width": 1366, "height": 768},
        reduced_motion="reduce",
    )
    context.on(
        "console",
        lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return context, (context.pages[0] if context.pages else context.new_page())
