"""961 CMR 3.04(1)(e), the cash counted by one person and verified by a second, judged as a
pure rule; the second person's (1)(g) is judged by W-1G-NOT-A-SECOND-PERSON
(tests/rules/test_workers_rules.py). No waiver: (1)(e) allows none."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from zoneinfo import ZoneInfo

import pytest

from beano import rules
from beano.rules import Limits
from beano.rules.confirmations import about_the_secret
from beano.rules.reporting import COUNT_CASH, CashCountFacts

DAY = dt.date(2026, 12, 4)
COUNTED = CashCountFacts(has_verifier=True)


def judge(facts: CashCountFacts) -> rules.Decision:
    return rules.judge(COUNT_CASH, facts, on=DAY, limits=Limits(on=DAY, values={}))


def test_a_count_verified_by_a_second_person_who_confirmed_is_allowed():
    assert judge(COUNTED).allowed


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"has_verifier": False}, "A second person verifies the cash counted"),
        ({"verifier_in_organization": False}, "a person of this organization"),
        ({"verifier_is_counter": True}, "cannot also verify the count"),
        ({"verifier_confirmed": False}, "has not confirmed the count"),
        ({"verifier_worked_that_night": False}, "did not work at this occasion"),
        (
            {"verifier_paused_until": dt.datetime(2026, 12, 4, 23, 5, tzinfo=ZoneInfo("EST"))},
            "paused until 11:05 PM",
        ),
    ],
)
def test_each_lack_of_a_second_person_is_refused_citing_1e(changes, words):
    decision = judge(replace(COUNTED, **changes))
    assert {v.code: v.citation for v in decision.violations} == {
        "R-1E-CASH-COUNTED-BY-TWO": "961 CMR 3.04(1)(e)"
    }
    message = decision.violations[0].message
    assert words in message
    assert about_the_secret(message) == (changes == {"verifier_confirmed": False})
