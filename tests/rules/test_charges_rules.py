"""961 CMR 3.04(4)(c), (4)(d) and (5)(b)-(c) at the door as pure rules: plain facts in, cited
violations out. No database: the limits are given, not read."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import Limits
from beano.rules.catalog import ACTION_LABELS
from beano.rules.charges import (
    ANNOUNCE_ATTENDANCE,
    RECORD_SALE,
    START_SECOND_HALF,
    VOID_SALE,
    AttendanceFacts,
    SaleFacts,
    SaleLineFact,
    SecondHalfFacts,
    VoidFacts,
)

DAY = dt.date(2026, 12, 4)
NO_LIMITS = Limits(on=DAY)

ADMISSION = SaleLineFact("Admission", "admission", 1, Decimal("2.00"), Decimal("2.00"))
EXTRA = SaleLineFact("Extra regular card", "extra_regular", 2, Decimal("1.00"), Decimal("1.00"))
BONUS = SaleLineFact("Bonus card", "bonus", 1, Decimal("1.00"), Decimal("1.00"))
NEW_ADMISSION = SaleFacts(occasion_open=True, lines=(ADMISSION, EXTRA, BONUS))
AGAINST_RECEIPT = SaleFacts(
    occasion_open=True, lines=(EXTRA,), admission_receipt=12, receipt_is_admission=True
)
VOID = VoidFacts(
    occasion_open=True,
    receipt=12,
    already_voided=False,
    reason="Rang up a special instead of an extra",
    has_witness=True,
    witness_in_organization=True,
    witness_is_seller=False,
    witness_is_voider=False,
)
ATTENDANCE = AttendanceFacts(
    occasion_open=True, already_announced=False, players=118, admissions_sold=118
)


def judge(action: str, facts: object) -> rules.Decision:
    return rules.judge(action, facts, on=DAY, limits=NO_LIMITS)


def refused(decision: rules.Decision) -> dict[str, str]:
    return {v.code: v.citation for v in decision.violations}


def test_every_door_action_has_a_label_in_the_catalog():
    for action in (RECORD_SALE, VOID_SALE, ANNOUNCE_ATTENDANCE, START_SECOND_HALF):
        assert action in ACTION_LABELS


@pytest.mark.parametrize("facts", [NEW_ADMISSION, AGAINST_RECEIPT])
def test_it_allows_a_sale_at_the_posted_prices_with_a_paid_admission(facts):
    decision = judge(RECORD_SALE, facts)
    assert decision.allowed
    assert "C-4D1-NO-CHOSEN-CARD" in decision.checked


def test_it_refuses_any_sale_while_the_occasion_is_not_open():
    decision = judge(RECORD_SALE, replace(NEW_ADMISSION, occasion_open=False))
    assert refused(decision) == {"C-4C-SOLD-DURING-OCCASION": "961 CMR 3.04(4)(c)"}
    assert str(decision.violations[0]).startswith("961 CMR 3.04(4)(c): The occasion is not open")


def test_it_refuses_an_item_not_on_this_occasions_posted_list():
    stale = SaleLineFact("Item #999", "bonus", 1, Decimal("1.00"), None)
    decision = judge(RECORD_SALE, replace(NEW_ADMISSION, lines=(ADMISSION, stale)))
    assert refused(decision) == {"C-4C-ON-POSTED-LIST": "961 CMR 3.04(4)(c)"}


@pytest.mark.parametrize("charged", ["0.50", "1.01", "0.00"])
def test_it_refuses_a_price_other_than_the_posted_price(charged):
    discounted = replace(EXTRA, unit_price=Decimal(charged))
    decision = judge(RECORD_SALE, replace(NEW_ADMISSION, lines=(ADMISSION, discounted)))
    assert refused(decision) == {"C-4C-AT-POSTED-PRICE": "961 CMR 3.04(4)(c)"}
    assert "the posted price is $1.00" in decision.violations[0].message


def test_it_refuses_a_card_chosen_by_its_numbers():
    decision = judge(RECORD_SALE, replace(NEW_ADMISSION, chosen_card_numbers=("B7 I22 N41",)))
    assert refused(decision) == {"C-4D1-NO-CHOSEN-CARD": "961 CMR 3.04(4)(d)"}


def test_it_refuses_extras_without_a_paid_admission():
    decision = judge(RECORD_SALE, SaleFacts(occasion_open=True, lines=(EXTRA, BONUS)))
    assert refused(decision) == {"C-5B-ADMISSION-PAID": "961 CMR 3.04(5)(b)"}


def test_it_refuses_extras_against_a_receipt_that_is_not_an_admission():
    decision = judge(RECORD_SALE, replace(AGAINST_RECEIPT, receipt_is_admission=False))
    assert refused(decision) == {"C-5B-ADMISSION-PAID": "961 CMR 3.04(5)(b)"}
    assert "Receipt 12 is not an admission" in decision.violations[0].message


def test_it_refuses_extras_against_a_voided_admission():
    decision = judge(RECORD_SALE, replace(AGAINST_RECEIPT, receipt_voided=True))
    assert refused(decision) == {"C-5B-ADMISSION-PAID": "961 CMR 3.04(5)(b)"}
    assert "was voided" in decision.violations[0].message


def test_it_refuses_two_admissions_in_one_sale():
    two = replace(ADMISSION, quantity=2)
    decision = judge(RECORD_SALE, replace(NEW_ADMISSION, lines=(two,)))
    assert refused(decision) == {"C-5B-ONE-ADMISSION": "961 CMR 3.04(5)(b)"}


def test_it_refuses_a_second_admission_against_an_admission_receipt():
    decision = judge(RECORD_SALE, replace(AGAINST_RECEIPT, lines=(ADMISSION, EXTRA)))
    assert refused(decision) == {"C-5B-ONE-ADMISSION": "961 CMR 3.04(5)(b)"}


def test_it_allows_a_witnessed_void_with_a_reason():
    assert judge(VOID_SALE, VOID).allowed


@pytest.mark.parametrize(
    "changes,code,citation",
    [
        ({"occasion_open": False}, "C-4D2-VOID-WHILE-OPEN", "961 CMR 3.04(4)(d)"),
        ({"already_voided": True}, "C-4D2-VOID-WHILE-OPEN", "961 CMR 3.04(4)(d)"),
        ({"reason": "  "}, "C-4D2-VOID-WITNESSED", "961 CMR 3.04(4)(d)"),
        ({"has_witness": False}, "C-4D2-VOID-WITNESSED", "961 CMR 3.04(4)(d)"),
        ({"witness_in_organization": False}, "C-4D2-VOID-WITNESSED", "961 CMR 3.04(4)(d)"),
        ({"witness_is_seller": True}, "C-4D2-VOID-WITNESSED", "961 CMR 3.04(4)(d)"),
        ({"witness_is_voider": True}, "C-4D2-VOID-WITNESSED", "961 CMR 3.04(4)(d)"),
        ({"live_extras_receipts": (14, 20)}, "C-5B-VOID-ADMISSION-LAST", "961 CMR 3.04(5)(b)"),
    ],
)
def test_it_refuses_a_void_that_would_leave_the_count_untrustworthy(changes, code, citation):
    decision = judge(VOID_SALE, replace(VOID, **changes))
    assert refused(decision) == {code: citation}


def test_it_allows_the_attendance_announced_once_while_open():
    assert judge(ANNOUNCE_ATTENDANCE, ATTENDANCE).allowed
    assert judge(ANNOUNCE_ATTENDANCE, replace(ATTENDANCE, players=110)).allowed


@pytest.mark.parametrize(
    "changes,code",
    [
        ({"occasion_open": False}, "C-5C-ANNOUNCED-ONCE"),
        ({"already_announced": True}, "C-5C-ANNOUNCED-ONCE"),
        ({"players": 119}, "C-5C-ANNOUNCED-ACCURATELY"),
    ],
)
def test_it_refuses_an_attendance_announced_out_of_turn_or_inaccurately(changes, code):
    decision = judge(ANNOUNCE_ATTENDANCE, replace(ATTENDANCE, **changes))
    assert refused(decision) == {code: "961 CMR 3.04(5)(c)"}


def test_the_second_half_starts_only_after_the_attendance_is_announced():
    assert judge(START_SECOND_HALF, SecondHalfFacts(attendance_announced=True)).allowed
    decision = judge(START_SECOND_HALF, SecondHalfFacts(attendance_announced=False))
    assert refused(decision) == {"C-5C-BEFORE-SECOND-HALF": "961 CMR 3.04(5)(c)"}


def test_a_paused_witness_is_told_until_when_and_a_wrong_pin_is_about_the_pin():
    from zoneinfo import ZoneInfo

    from beano.rules.confirmations import about_the_secret

    ends = dt.datetime(2026, 12, 4, 21, 42, tzinfo=ZoneInfo("America/New_York"))
    decision = judge(VOID_SALE, replace(VOID, witness_paused_until=ends))
    assert refused(decision) == {"C-4D2-VOID-WITNESSED": "961 CMR 3.04(4)(d)"}
    message = decision.violations[0].message
    assert "paused until 9:42 PM" in message and not about_the_secret(message)
    wrong = judge(VOID_SALE, replace(VOID, witness_confirmed=False)).violations[0].message
    assert about_the_secret(wrong)
