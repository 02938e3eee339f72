"""The tests' Wi-Fi switch: down, the browser's requests fail as they do with no network (a
fetch rejects, a page does not load); up again, they go through."""

from __future__ import annotations

import pytest


@pytest.mark.browser
def test_with_the_wifi_down_a_fetch_fails_and_up_again_it_goes_through(live_server, page, wifi):
    page.goto(live_server.url + "/accounts/login/")
    ask = "() => fetch('/accounts/login/', {cache: 'no-store'}).then(r => r.status, e => 'failed')"
    assert page.evaluate(ask) == 200
    wifi.down()
    assert page.evaluate(ask) == "failed"
    with pytest.raises(Exception, match="ERR_"):
        page.goto(live_server.url + "/accounts/login/")
    page.wait_for_url("chrome-error://**")  # the browser's own "no connection" page
    wifi.up()
    page.goto(live_server.url + "/accounts/login/")
    assert page.evaluate(ask) == 200
