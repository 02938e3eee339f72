"""The door's running total (static/js/door.js) is written as ``beano.rules.money.usd`` writes
every other amount, run in the browser the door runs in: its ``usd(cents)`` against the Python
formatter, a negative in parentheses."""

from __future__ import annotations

from decimal import Decimal

import pytest

from beano.rules.money import usd
from tests.test_money_one_way import JS_FORMATTER, JS_USD, ROOT

pytestmark = pytest.mark.browser

CENTS = [0, 5, 99, 100, 1250, 123456, 100000000, -1200, -123456]


def test_the_doors_total_is_written_as_usd_writes_it(browser):
    function = JS_USD.search((ROOT / JS_FORMATTER).read_text())
    assert function is not None, "door.js has lost its usd(cents)"
    page = browser.new_page()
    try:
        written = page.evaluate(
            f"(cents) => {{{function.group(0)}\nreturn cents.map(usd);}}", CENTS
        )
    finally:
        page.close()
    assert written == [usd(Decimal(c) / 100) for c in CENTS]
