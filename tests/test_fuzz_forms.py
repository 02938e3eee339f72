"""Bad input, fuzzed: every form and POST endpoint the walk of the demo finds (tests/site_walk.py)
is posted Hypothesis-made values as the organization's head: wrong types, negative and huge
amounts, more than two decimals, exponents, digit separators, full-width and Arabic-Indic
digits, far and impossible dates, unicode and control characters, very long text, missing
fields and stale ids. Never a 500; a refusal (4xx) saves nothing (the logs of refused actions
and page views aside); money with more than two decimals, over its kind's ceiling, or written
with anything but the digits 0 to 9 is refused with a message that says so.

New forms are fuzzed without anyone adding them to a list. The counts of what was tried are
printed (``-s``) and recorded in docs/TRUST.md."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import login
from tests.site_walk import counts, seeded_walk

#: Logs written by design when something is refused or looked at.
LOGS = {"rules.refusedaction"}
MONEY = re.compile(r"amount|price|bank|cash|value|fee|rate|jackpot|share", re.I)
WHOLE = re.compile(r"count|quantity|number|hours|players|calls|receipt|ball|persons|serial", re.I)
DATE = re.compile(r"(^|_)(on|date|day|from|to|until|born)($|_)|_on$|date", re.I)
STALE_ID = re.compile(r"(_id|_pk|^kind|^entry|^person|^equipment|^winner|^claim|^part|^game)")
EXAMPLES = 12

text = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12),
    st.sampled_from(["", " ", "\x00", "NUL\x00byte", "😀" * 50, "a" * 10_000, "<script>", "%00"]),
)
numbers = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.decimals(allow_nan=True, allow_infinity=True, places=None).map(str),
    st.sampled_from(["1.005", "0.001", "-0.01", "99999999999999.99", "1e9", "1,000", "NaN", "ten"]),
    # What issue 14 found read as numbers: a digit separator, full-width and Arabic-Indic digits.
    st.sampled_from(["1_000", "１２", "١٢", "۱۲", "$1,250.00", "1,00", "+5", "5.0"]),
    st.text(alphabet="0123456789０１２３٠١٢٣", min_size=1, max_size=6),
)
dates = st.one_of(
    st.dates(min_value=dt.date(1, 1, 1), max_value=dt.date(9999, 12, 31)).map(str),
    st.sampled_from(["2026-02-30", "0000-00-00", "31/12/2026", "yesterday", "2026-13-01"]),
)
stale = st.one_of(st.sampled_from(["999999999", "0", "-1", "1.5", "abc"]), st.integers().map(str))


def strategy_for(name: str) -> st.SearchStrategy[str]:
    if MONEY.search(name):
        return numbers
    if DATE.search(name):
        return dates
    if WHOLE.search(name):
        return st.one_of(numbers, stale)
    if STALE_ID.search(name):
        return stale
    return text


def payloads(fields: list[str]) -> st.SearchStrategy[dict[str, Any]]:
    """Each field sometimes missing, sometimes a list of values, else one fuzzed value."""
    parts = {
        name: st.one_of(
            st.none(), strategy_for(name), st.lists(strategy_for(name), min_size=2, max_size=3)
        )
        for name in dict.fromkeys(fields)
    }
    return st.fixed_dictionaries(parts).map(lambda d: {k: v for k, v in d.items() if v is not None})


@pytest.fixture(scope="module")
def walked(django_db_setup: Any, django_db_blocker: Any) -> Any:
    with seeded_walk(django_db_blocker) as walk:
        yield walk


def _targets(walked: dict) -> list[tuple[str, str, list[str]]]:
    """(organization key, path, fields) of every form that posts under an organization."""
    out = []
    for key, urls in walked["urls"].items():
        for url in urls.values():
            if url in walked["fields"]:
                out.append((key, url, walked["fields"][url]))
    return out


TRIED: Counter[str] = Counter()


@pytest.mark.django_db
def test_every_form_holds_under_fuzzed_input(walked):
    targets = _targets(walked)
    assert len(targets) >= 40, "the walk found too few forms to fuzz"
    failures: list[tuple[str, Any, int]] = []

    def fuzz(url: str, fields: list[str], client: Client) -> None:
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
        )
        @given(payload=payloads(fields))
        def attempt(payload: dict[str, Any]) -> None:
            before = counts()
            response = client.post(url, payload)
            TRIED["requests"] += 1
            TRIED[f"status {response.status_code}"] += 1
            if response.status_code >= 500:
                failures.append((url, payload, response.status_code))
            elif response.status_code >= 400:
                after = counts()
                changed = {k for k in before if before[k] != after.get(k) and k not in LOGS}
                if changed:
                    failures.append((url, payload, f"refused but saved {sorted(changed)}"))

        attempt()

    for key, url, fields in targets:
        client = Client(raise_request_exception=False)
        login(client, walked["heads"][key])
        fuzz(url, fields, client)
        TRIED["forms"] += 1
    print(f"\nfuzzed {TRIED['forms']} forms with {TRIED['requests']} requests: {dict(TRIED)}")
    assert not failures, failures[:10]


@pytest.mark.django_db
def test_money_with_too_many_decimals_or_digits_is_refused_with_a_message(walked):
    checked = 0
    failures = []
    for key, url, fields in _targets(walked):
        money = [f for f in fields if MONEY.search(f) and not WHOLE.search(f)]
        if not money:
            continue
        client = Client(raise_request_exception=False)
        login(client, walked["heads"][key])
        for value, words in (
            ("1.005", ("two decimals", "2 decimal places", "dollars and cents", "to the cent")),
            ("99999999999999.00", ("too large", "digits in total", "digits before")),
            ("1e9", ("with the digits 0 to 9",)),
            ("1_000", ("with the digits 0 to 9",)),
            ("١٢", ("with the digits 0 to 9",)),
            ("１２", ("with the digits 0 to 9",)),
        ):
            before = counts()
            response = client.post(url, dict.fromkeys(money, value))
            page = response.content.decode(errors="replace")
            checked += 1
            # The form comes back with the message (400, or 200 for a page that shows its
            # forms again) and nothing is saved.
            if response.status_code >= 500 or not any(w in page for w in words):
                failures.append((url, value, response.status_code))
            if {k for k, v in counts().items() if before.get(k) != v} - LOGS:
                failures.append((url, value, "saved"))
    print(f"\nmoney fields checked: {checked} submissions")
    assert checked >= 10
    assert not failures, failures
