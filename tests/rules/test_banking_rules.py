"""The gaming account's rules (961 CMR 3.04(1)(e), 3.05(1)(c)) as pure rules: plain facts in,
cited violations out. No database. None of them may be waived: 3.04(1)(e) and 3.05(1)(c) give
the Director no power to authorize otherwise."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from beano import rules
from beano.rules import Limits
from beano.rules.banking import (
    RECONCILE_MONTH,
    RECORD_BANK_ENTRY,
    RECORD_DEPOSIT,
    BankEntryFacts,
    DepositFacts,
    DrawerFilingFacts,
    ReconciliationFacts,
    next_business_day,
)
from beano.rules.reporting import FILE_REPORT

DAY = dt.date(2026, 12, 4)  # a Friday
LIMITS = Limits(on=DAY, values={})


def refused(action: str, facts: object) -> dict[str, str]:
    decision = rules.judge(action, facts, on=DAY, limits=LIMITS)
    return {v.code: v.citation for v in decision.violations}


@pytest.mark.parametrize(
    "day,due",
    [
        (dt.date(2026, 12, 4), dt.date(2026, 12, 7)),  # Friday → Monday
        (dt.date(2026, 12, 5), dt.date(2026, 12, 7)),  # Saturday → Monday
        (dt.date(2026, 12, 7), dt.date(2026, 12, 8)),  # Monday → Tuesday
    ],
)
def test_the_deposit_is_due_the_next_business_day(day, due):
    assert next_business_day(day) == due


def deposit(**changes: object) -> DepositFacts:
    values = {
        "occasion_closed": True,
        "cash_counted_and_verified": True,
        "occasion_date": DAY,
        "deposited_on": dt.date(2026, 12, 7),
        "today": dt.date(2026, 12, 7),
    }
    return DepositFacts(**(values | changes))  # type: ignore[arg-type]


def test_a_deposit_of_counted_cash_is_allowed_even_late():
    assert refused(RECORD_DEPOSIT, deposit()) == {}
    late = deposit(deposited_on=dt.date(2026, 12, 10), today=dt.date(2026, 12, 10))
    assert refused(RECORD_DEPOSIT, late) == {}  # late is a warning, not a refusal


@pytest.mark.parametrize(
    "changes",
    [
        {"occasion_closed": False},
        {"cash_counted_and_verified": False},
        {"deposited_on": dt.date(2026, 12, 3)},
        {"deposited_on": dt.date(2026, 12, 8)},
    ],
)
def test_a_deposit_is_refused_under_3_04_1_e(changes):
    assert refused(RECORD_DEPOSIT, deposit(**changes)) == {
        "B-1E-DEPOSIT-OF-COUNTED-CASH": "961 CMR 3.04(1)(e)"
    }


def entry(**changes: object) -> BankEntryFacts:
    values = {
        "kind": "expense",
        "names_occasion": True,
        "names_disbursement": False,
        "disbursement_amount": None,
        "amount": Decimal("120.00"),
        "paid_on": DAY,
        "today": DAY,
    }
    return BankEntryFacts(**(values | changes))  # type: ignore[arg-type]


def test_money_out_that_names_its_purpose_is_allowed():
    assert refused(RECORD_BANK_ENTRY, entry()) == {}
    assert refused(RECORD_BANK_ENTRY, entry(kind="bank_charge", names_occasion=False)) == {}
    lawful = entry(
        kind="lawful_purpose",
        names_occasion=False,
        names_disbursement=True,
        disbursement_amount=Decimal("120.00"),
    )
    assert refused(RECORD_BANK_ENTRY, lawful) == {}


@pytest.mark.parametrize(
    "changes,code,citation",
    [
        ({"names_occasion": False}, "B-1E-OUT-FOR-A-PURPOSE", "961 CMR 3.04(1)(e)"),
        (
            {"kind": "prize", "names_occasion": False},
            "B-1E-OUT-FOR-A-PURPOSE",
            "961 CMR 3.04(1)(e)",
        ),
        ({"paid_on": DAY + dt.timedelta(days=1)}, "B-1E-OUT-FOR-A-PURPOSE", "961 CMR 3.04(1)(e)"),
        (
            {"kind": "lawful_purpose", "names_occasion": False},
            "B-305-1C-LAWFUL-PURPOSE-RECORDED",
            "961 CMR 3.05(1)(c)",
        ),
        (
            {
                "kind": "lawful_purpose",
                "names_disbursement": True,
                "disbursement_amount": Decimal("100.00"),
            },
            "B-305-1C-LAWFUL-PURPOSE-RECORDED",
            "961 CMR 3.05(1)(c)",
        ),
    ],
)
def test_money_out_is_refused_with_its_citation(changes, code, citation):
    assert refused(RECORD_BANK_ENTRY, entry(**changes)) == {code: citation}


def reconciliation(**changes: object) -> ReconciliationFacts:
    values = {
        "month_end": dt.date(2026, 11, 30),
        "today": DAY,
        "difference": Decimal("0.00"),
        "explanation": "",
    }
    return ReconciliationFacts(**(values | changes))  # type: ignore[arg-type]


def test_a_month_reconciled_to_zero_or_explained_is_allowed():
    assert refused(RECONCILE_MONTH, reconciliation()) == {}
    explained = reconciliation(difference=Decimal("-5.00"), explanation="A service charge.")
    assert refused(RECONCILE_MONTH, explained) == {}


@pytest.mark.parametrize(
    "changes",
    [
        {"difference": Decimal("-5.00")},
        {"difference": Decimal("0.01"), "explanation": "typo"},
        {"month_end": dt.date(2026, 12, 31)},
    ],
)
def test_a_month_is_refused_under_3_04_1_e(changes):
    assert refused(RECONCILE_MONTH, reconciliation(**changes)) == {
        "B-1E-MONTH-RECONCILED": "961 CMR 3.04(1)(e)"
    }


def test_the_drawer_must_agree_with_the_cash_reported():
    def drawer(counted: bool, total: str | None, cash: str | None) -> dict[str, str]:
        facts = DrawerFilingFacts(
            drawer_counted=counted,
            drawer_total=None if total is None else Decimal(total),
            cash_counted=None if cash is None else Decimal(cash),
        )
        decision = rules.judge(FILE_REPORT, [facts], on=DAY, limits=LIMITS)
        return {v.code: v.citation for v in decision.violations}

    assert drawer(False, None, "500.00") == {}
    assert drawer(True, "596.00", "596.00") == {}
    assert drawer(True, "596.00", "600.00") == {"R-1E-DRAWER-AGREES": "961 CMR 3.04(1)(e)"}


def test_no_banking_rule_may_be_waived():
    codes = {
        "B-1E-DEPOSIT-OF-COUNTED-CASH",
        "B-1E-OUT-FOR-A-PURPOSE",
        "B-305-1C-LAWFUL-PURPOSE-RECORDED",
        "B-1E-MONTH-RECONCILED",
        "R-1E-DRAWER-AGREES",
    }
    found = {r.code: r for r in rules.all_rules() if r.code in codes}
    assert set(found) == codes
    assert not any(r.waivable for r in found.values())
