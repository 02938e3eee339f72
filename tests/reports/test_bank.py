"""The gaming bank account: each occasion's deposit (due by the next business day, a late one
recorded with its reason), the checks and transfers out, the monthly reconciliation (the
difference zero or explained), its pages, and what the inspector's exceptions report shows."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from banking import bank_services
from banking.models import (
    BankEntry,
    BankReconciliation,
    Deposit,
    GamingAccount,
)
from beano import rules
from beano.rules.models import RefusedAction
from organizations.models import AuditEvent
from tests.conftest import login
from tests.reports.conftest import NIGHT, at

OPENED = dt.date(2026, 11, 1)


def refused_with(citation: str) -> None:
    assert RefusedAction.objects.get().citations == citation
    RefusedAction.objects.all().delete()


@pytest.fixture
def account(tenant):
    return bank_services.save_account(
        organization=tenant.organization,
        bank_name="Fairhaven Savings",
        account_last4="4412",
        opened_on=OPENED,
        opening_balance=D("1000.00"),
        by=tenant.bookkeeper,
    )


def deposit(occasion, tenant, on=dt.date(2026, 12, 7), **extra):
    return bank_services.record_deposit(
        occasion=occasion,
        amount=D("396.00"),
        deposited_on=on,
        slip_reference="DS-1204",
        by=tenant.bookkeeper,
        **extra,
    )


def test_a_deposit_on_the_next_business_day_is_on_time(counted, tenant, account, report_clock):
    report_clock(at(10, day=dt.date(2026, 12, 7)))
    made = deposit(counted, tenant)
    assert made.due_on == dt.date(2026, 12, 7)  # the Friday's next business day is Monday
    assert made.days_late == 0 and made.account == account
    event = AuditEvent.objects.get(action="reports.deposit.recorded")
    assert (
        event.new_values["amount"] == "396.00" and event.new_values["slip_reference"] == "DS-1204"
    )


def test_a_late_deposit_is_recorded_with_its_reason(counted, tenant, account, report_clock):
    report_clock(at(10, day=dt.date(2026, 12, 10)))
    with pytest.raises(ValidationError, match="due by Mon Dec 7, 2026: say why"):
        deposit(counted, tenant, on=dt.date(2026, 12, 10))
    assert not Deposit.objects.exists()
    made = deposit(counted, tenant, on=dt.date(2026, 12, 10), late_reason="The bank was closed")
    assert made.days_late == 3


def test_a_deposit_of_cash_not_counted_by_two_is_refused_under_3_04_1_e(
    known_occasion, tenant, account, report_clock
):
    report_clock(at(10, day=dt.date(2026, 12, 7)))
    with pytest.raises(rules.RuleViolation, match="verified by a second person"):
        deposit(known_occasion, tenant)
    refused_with("961 CMR 3.04(1)(e)")
    assert not Deposit.objects.exists()


def test_a_deposit_dated_before_the_occasion_or_in_the_future_is_refused(
    counted, tenant, account, report_clock
):
    report_clock(at(10, day=dt.date(2026, 12, 7)))
    with pytest.raises(rules.RuleViolation, match="before the occasion"):
        deposit(counted, tenant, on=NIGHT - dt.timedelta(days=1))
    with pytest.raises(rules.RuleViolation, match="after today"):
        deposit(counted, tenant, on=dt.date(2026, 12, 8))
    assert not Deposit.objects.exists()


def test_a_deposit_needs_the_account_and_is_recorded_once(counted, tenant, report_clock):
    report_clock(at(10, day=dt.date(2026, 12, 7)))
    with pytest.raises(ValidationError, match="gaming bank account first"):
        deposit(counted, tenant)
    bank_services.save_account(
        organization=tenant.organization,
        bank_name="Fairhaven Savings",
        account_last4="4412",
        opened_on=OPENED,
        opening_balance=D("0"),
        by=tenant.bookkeeper,
    )
    deposit(counted, tenant)
    with pytest.raises(ValidationError, match="already recorded"):
        deposit(counted, tenant)
    assert Deposit.objects.count() == 1


def entry(tenant, **changes):
    values = {
        "organization": tenant.organization,
        "kind": "expense",
        "method": "check",
        "paid_on": dt.date(2026, 11, 20),
        "payee": "Fairhaven Paper Co.",
        "amount": D("120.00"),
        "reference": "1001",
        "by": tenant.bookkeeper,
    }
    return bank_services.record_bank_entry(**(values | changes))


def test_checks_out_name_their_purpose(counted, tenant, account):
    made = entry(tenant, occasion=counted)
    assert made.occasion == counted
    with pytest.raises(rules.RuleViolation, match="names its occasion"):
        entry(tenant, kind="prize", reference="1002")
    refused_with("961 CMR 3.04(1)(e)")
    with pytest.raises(ValidationError, match="1001 is already recorded"):
        entry(tenant, occasion=counted)
    assert BankEntry.objects.count() == 1


def test_a_lawful_purpose_check_pays_the_disbursement_on_record(tenant, account, disbursement):
    with pytest.raises(rules.RuleViolation, match="Name the Lawful Purpose disbursement"):
        entry(tenant, kind="lawful_purpose", reference="2001")
    refused_with("961 CMR 3.05(1)(c)")
    with pytest.raises(rules.RuleViolation, match="pays the same amount"):
        entry(tenant, kind="lawful_purpose", reference="2001", disbursement=disbursement)
    refused_with("961 CMR 3.05(1)(c)")
    made = entry(
        tenant,
        kind="lawful_purpose",
        reference="2001",
        disbursement=disbursement,
        amount=disbursement.amount,
    )
    assert made.disbursement == disbursement


def test_another_organizations_occasion_or_disbursement_is_refused(
    tenant, other_tenant, account, disbursement
):
    bank_services.save_account(
        organization=other_tenant.organization,
        bank_name="Acushnet Trust",
        account_last4="0001",
        opened_on=OPENED,
        opening_balance=D("0"),
        by=other_tenant.bookkeeper,
    )
    with pytest.raises(ValidationError, match="another organization's"):
        bank_services.record_bank_entry(
            organization=other_tenant.organization,
            kind="lawful_purpose",
            method="check",
            paid_on=OPENED,
            payee="x",
            amount=disbursement.amount,
            reference="9",
            disbursement=disbursement,
            by=other_tenant.bookkeeper,
        )


def reconcile(tenant, month=dt.date(2026, 11, 1), statement="1000.00", explanation="", **extra):
    return bank_services.reconcile_month(
        organization=tenant.organization,
        month=month,
        statement_balance=D(statement),
        deposits_in_transit=extra.get("in_transit", D("0")),
        outstanding_checks=extra.get("outstanding", D("0")),
        explanation=explanation,
        by=tenant.bookkeeper,
    )


def test_a_month_reconciles_with_deposits_in_transit_and_outstanding_checks(
    counted, tenant, account, report_clock
):
    report_clock(at(10, day=dt.date(2026, 12, 7)))
    deposit(counted, tenant)
    entry(tenant, occasion=counted)
    report_clock(at(10, day=dt.date(2027, 1, 4)))
    # Book at Dec 31: 1000 + 396 − 120 = 1276; the bank has 1000 + 396, the check outstanding.
    done = reconcile(
        tenant, month=dt.date(2026, 12, 1), statement="1396.00", outstanding=D("120.00")
    )
    assert done.book_balance == D("1276.00") and done.difference == 0


def test_an_unexplained_difference_is_refused_and_an_explained_one_kept(tenant, account):
    with pytest.raises(rules.RuleViolation, match=r"differ by \(\$5.00\): explain"):
        reconcile(tenant, statement="995.00")
    refused_with("961 CMR 3.04(1)(e)")
    assert not BankReconciliation.objects.exists()
    done = reconcile(tenant, statement="995.00", explanation="A $5 service charge not booked.")
    assert done.difference == D("-5.00")


def test_a_month_not_ended_is_not_reconciled(tenant, account):
    with pytest.raises(rules.RuleViolation, match="once it has ended"):
        reconcile(tenant, month=dt.date(2026, 12, 1))
    refused_with("961 CMR 3.04(1)(e)")


def bank_url(org, name="bank_account"):
    return reverse(name, args=[org.pk])


def test_the_bookkeeper_uses_the_account_page(client, counted, tenant, account, report_clock):
    report_clock(at(10, day=dt.date(2026, 12, 9)))
    login(client, tenant.bookkeeper)
    org = tenant.organization
    page = client.get(bank_url(org)).content.decode()
    assert "Fairhaven Savings …4412" in page and "November 2026" in page
    response = client.post(
        bank_url(org, "bank_record_deposit"),
        {
            "occasion": counted.pk,
            "amount": "396.00",
            "deposited_on": "2026-12-09",
            "slip_reference": "DS-9",
            "late_reason": "Snowstorm",
        },
    )
    assert response.status_code == 302
    page = client.get(bank_url(org)).content.decode()
    assert "2 days late" in page and "Snowstorm" in page
    response = client.post(
        bank_url(org, "bank_reconcile"),
        {
            "month": "2026-11",
            "statement_balance": "1000.00",
            "deposits_in_transit": "0",
            "outstanding_checks": "0",
        },
    )
    assert response.status_code == 302
    assert BankReconciliation.objects.get().month == dt.date(2026, 11, 1)


@pytest.mark.parametrize(
    "name,data,message",
    [
        ("bank_record_deposit", {"amount": "1e3"}, "with the digits 0 to 9"),
        ("bank_record_deposit", {"amount": "10", "occasion": "999999"}, "valid choice"),
        ("bank_record_entry", {"amount": "-5"}, "cannot be negative"),
        ("bank_reconcile", {"month": "2026-13"}, "YYYY-MM"),
        ("bank_save_account", {"account_last4": "12345678"}, "last four digits"),
    ],
)
def test_bad_input_comes_back_with_its_message_and_saves_nothing(
    client, tenant, account, name, data, message
):
    login(client, tenant.bookkeeper)
    before = AuditEvent.objects.count()
    response = client.post(bank_url(tenant.organization, name), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert AuditEvent.objects.count() == before
    assert not Deposit.objects.exists() and not BankEntry.objects.exists()
    assert not BankReconciliation.objects.exists()
    assert GamingAccount.objects.get().account_last4 == "4412"


def test_the_account_pages_are_404_to_another_organization_and_read_only_to_an_inspector(
    client, tenant, other_tenant, inspector, account
):
    org = tenant.organization
    names = ["bank_record_deposit", "bank_record_entry", "bank_reconcile", "bank_save_account"]
    login(client, other_tenant.head)
    assert client.get(bank_url(org)).status_code == 404
    for name in names:
        assert client.post(bank_url(org, name), {}).status_code == 404
    login(client, inspector)
    page = client.get(bank_url(org)).content.decode()
    assert "Fairhaven Savings" in page and "Record a deposit" not in page
    for name in names:
        assert client.post(bank_url(org, name), {"institution": "X"}).status_code == 403
    assert GamingAccount.objects.get().bank_name == "Fairhaven Savings"


def test_the_account_page_reads_in_a_constant_number_of_queries(client, tenant, account):
    login(client, tenant.bookkeeper)
    url = bank_url(tenant.organization)

    def add(n: int, start: int) -> None:
        for i in range(n):
            BankEntry.objects.create(
                account=account,
                kind="bank_charge",
                paid_on=OPENED,
                payee="Bank",
                amount=D("1.00"),
                reference=f"T{start + i}",
                recorded_at=at(10),
            )
            BankReconciliation.objects.create(
                account=account,
                month=dt.date(2020 + start + i, 1, 1),
                statement_balance=D("1"),
                book_balance=D("1"),
                difference=D("0"),
                completed_at=at(10),
            )

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    add(2, 0)
    client.get(url)  # the session and caches warmed
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    add(20, 10)
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    assert len(large) == len(small)


def test_dates_outside_the_book_are_refused_and_nothing_saved(tenant, account):
    with pytest.raises(ValidationError, match="from 1971 to today"):
        bank_services.save_account(
            organization=tenant.organization,
            bank_name="Fairhaven Savings",
            account_last4="4412",
            opened_on=dt.date(1, 1, 1),
            opening_balance=D("0"),
            by=tenant.bookkeeper,
        )
    assert GamingAccount.objects.get().opened_on == OPENED
    with pytest.raises(ValidationError, match="book starts on Nov 1, 2026"):
        entry(tenant, kind="bank_charge", paid_on=dt.date(2026, 10, 31))
    assert not BankEntry.objects.exists()
    with pytest.raises(rules.RuleViolation, match="once it has ended"):
        reconcile(tenant, month=dt.date(9999, 12, 1))
