"""The idle sign-out warns before it happens, in the browser: with the timeout shortened to two
minutes (so the warning shows a minute before), a page left alone shows "Still there?" counting
down, and "Stay signed in" puts the sign-out off without leaving the page."""

from __future__ import annotations

import re
import time
from importlib import import_module

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from beano.accounts.middleware import LAST_ACTIVITY_KEY, idle_seconds_left
from tests.conftest import PASSWORD


def _session(page, live_server):
    cookie = next(c for c in page.context.cookies(live_server.url) if c["name"] == "sessionid")
    # The configured engine's store (cached_db: the cache the server reads, and the table).
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    return store(session_key=cookie["value"])


@pytest.mark.browser
def test_the_warning_counts_down_and_the_button_keeps_the_session(
    live_server, page, tenant, settings, tmp_path
):
    settings.IDLE_TIMEOUT_MINUTES = 2
    account = live_server.url + reverse("account")
    page.clock.install()  # the page's countdown, moved on by run_for instead of waited for
    page.goto(account)
    page.get_by_label("Username").fill(tenant.member_in_charge.get_username())
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("log in", re.I)).click()
    page.wait_for_url(account)
    warning = page.get_by_role("alertdialog", name="Still there?")
    expect(warning).to_be_hidden()

    # The last real request 55 seconds ago (not written again for a minute): 65 seconds left.
    session = _session(page, live_server)
    session[LAST_ACTIVITY_KEY] = int(time.time() - 55)
    session.save()
    page.reload()
    expect(warning).to_be_hidden()
    page.clock.run_for(6_000)  # the warning shows a minute before the end
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(re.compile(r"signed out in 0:[0-5]\d"))
    expect(warning.get_by_role("button", name="Stay signed in")).to_be_focused()
    page.screenshot(path=str(tmp_path / "idle-warning.png"))

    warning.get_by_role("button", name="Stay signed in").click()
    expect(warning).to_be_hidden()
    assert idle_seconds_left(_session(page, live_server)) >= 115
    assert page.url == account
