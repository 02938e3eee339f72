"""The moment claimed for an act sent from the hall laptop's queue (961 CMR 3.04(7)): allowed
and refused, with the citation. No database: the limits are given."""

from __future__ import annotations

import datetime as dt

from beano import rules
from beano.rules import Limits
from beano.rules.catalog import ACTION_LABELS
from beano.rules.queue import QUEUED_ACT, ClaimedTimeFacts

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)
OPENED = dt.datetime(2026, 12, 4, 18, 0)
RECEIVED = dt.datetime(2026, 12, 4, 20, 0)


def judge(**changes: object) -> rules.Decision:
    facts = {"claimed": dt.datetime(2026, 12, 4, 19, 30), "received": RECEIVED}
    facts |= {"opened": OPENED, "previous": dt.datetime(2026, 12, 4, 19, 29)}
    facts |= changes
    return rules.judge(QUEUED_ACT, ClaimedTimeFacts(**facts), on=DAY, limits=NO_LIMITS)


def refused_with(decision: rules.Decision, words: str) -> None:
    assert not decision.allowed
    assert [v.code for v in decision.violations] == ["H-7-QUEUED-TIME"]
    assert decision.violations[0].citation == "961 CMR 3.04(7)"
    assert words in decision.violations[0].message


def test_a_moment_after_the_opening_and_the_previous_act_before_it_was_received_is_allowed():
    assert judge().allowed
    assert judge(previous=None).allowed
    assert judge(claimed=dt.datetime(2026, 12, 4, 19, 29)).allowed  # the same as the previous
    assert judge(claimed=RECEIVED + dt.timedelta(seconds=5)).allowed  # the clocks' slack
    assert QUEUED_ACT in ACTION_LABELS


def test_a_moment_after_it_was_received_is_refused():
    refused_with(judge(claimed=RECEIVED + dt.timedelta(seconds=6)), "its clock is ahead")


def test_a_moment_before_the_opening_is_refused():
    refused_with(
        judge(claimed=dt.datetime(2026, 12, 4, 17, 59), previous=None),
        "before the occasion was opened at 6:00:00 PM",
    )
    refused_with(judge(opened=None), "before the occasion was opened")


def test_a_moment_before_the_laptops_previous_act_is_refused():
    refused_with(
        judge(claimed=dt.datetime(2026, 12, 4, 19, 0)), "before its previous act at 7:29:00 PM"
    )
