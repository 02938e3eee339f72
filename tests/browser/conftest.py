from __future__ import annotations

import os
from collections.abc import Iterator
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
def page(browser: Any) -> Iterator[Any]:
    """A hall laptop's browser tab. Whatever the Content Security Policy refuses on any page
    the test visits (an inline script or style, a foreign source) fails the test."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.csp_violations = violations  # tests may look, e.g. to prove the listener works
    yield page
    context.close()
    assert not violations, "refused by the Content Security Policy:\n" + "\n".join(violations)


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
