"""The inspector's exceptions report: a late deposit, a month not reconciled and a variance over
the threshold appear; the filter narrows them (organization, period, kind, threshold); the CSV
holds the same rows; outside the scope nothing shows; the page is read-only."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from banking import bank_services
from banking.models import GamingAccount
from inspections.exceptions import SOURCES, ExceptionQuery, exceptions
from organizations.models import Organization
from reports import services
from tests.conftest import PASSWORD, login
from tests.fixtures.floor import on_floor
from tests.reports.conftest import COUNTS, at

URL = reverse("inspect_exceptions")


@pytest.fixture
def trail(known_occasion, tenant, report_clock):
    """The known night counted $26 short (explained) and filed, its deposit made three days
    late, November reconciled and December not; the clock on January 15, 2027. The
    organization's records begin here with the known night (``reports_from``): the four Fridays
    after it with nothing recorded are missing reports, the fifth (Jan 8) due."""
    tenant.organization.reports_from = known_occasion.date
    tenant.organization.save()
    services.save_closeout(
        occasion=known_occasion,
        opening_bank=D("200.00"),
        cash_counted=D("570.00"),
        counts=COUNTS,
        explanation="A $20 bill was paid out to the caterer by mistake.",
        cash_verified_by=on_floor(tenant.head, known_occasion),
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    services.file_report(occasion=known_occasion, by=tenant.bookkeeper)
    bank_services.save_account(
        organization=tenant.organization,
        bank_name="Fairhaven Savings",
        account_last4="4412",
        opened_on=dt.date(2026, 11, 1),
        opening_balance=D("1000.00"),
        by=tenant.bookkeeper,
    )
    report_clock(at(10, day=dt.date(2026, 12, 10)))
    bank_services.record_deposit(
        occasion=known_occasion,
        amount=D("370.00"),
        deposited_on=dt.date(2026, 12, 10),
        slip_reference="DS-1204",
        late_reason="The treasurer was away.",
        by=tenant.bookkeeper,
    )
    bank_services.reconcile_month(
        organization=tenant.organization,
        month=dt.date(2026, 11, 1),
        statement_balance=D("1000.00"),
        deposits_in_transit=D("0"),
        outstanding_checks=D("0"),
        explanation="",
        by=tenant.bookkeeper,
    )
    report_clock(at(10, day=dt.date(2027, 1, 15)))
    return known_occasion


def page(client, **query) -> str:
    response = client.get(URL, query)
    assert response.status_code == 200
    return response.content.decode()


def test_a_late_deposit_an_unreconciled_month_and_a_variance_appear(client, trail, inspector):
    login(client, inspector)
    shown = page(client)
    assert "Deposit 3 days late" in shown and "The treasurer was away." in shown
    assert "December 2026 not reconciled" in shown
    assert "November 2026 not reconciled" not in shown  # reconciled
    assert "Cash short by $26.00" in shown and "−$26.00" in shown
    assert shown.count("Report missing") == 4 and "Jan 8, 2027" not in shown
    assert "8 exceptions" in shown
    # and the night sold paper with none issued by serial (tests/inspections/
    # test_exceptions_unissued.py)
    assert "Paper sold at the door but none issued from stock by serial" in shown


def test_the_filter_narrows_by_kind_threshold_and_period(client, trail, inspector):
    login(client, inspector)
    assert "Deposit 3 days late" not in page(client, kind="reconciliations")
    assert "December 2026 not reconciled" in page(client, kind="reconciliations")
    assert "Cash short" not in page(client, threshold="50.00")
    assert "Cash short" in page(client, threshold="20")
    early = page(client, date_from="2026-01-01", date_to="2026-11-30")
    assert "Deposit" not in early and "December 2026" not in early
    bad = page(client, threshold="1e9", kind="nonsense")
    assert "(ignored)" in bad and "8 exceptions" in bad
    assert "Deposit" not in page(client, kind="reports")


def test_the_csv_holds_the_same_rows(client, trail, inspector):
    login(client, inspector)
    response = client.get(reverse("inspect_exceptions_csv"))
    text = b"".join(response.streaming_content).decode()
    lines = text.strip().splitlines()
    assert lines[0].startswith("Organization,Date,Kind")
    assert len(lines) == 9
    assert "Late or missing deposits" in text and "December 2026 not reconciled" in text


def test_outside_the_scope_nothing_shows_and_the_page_is_read_only(
    client, trail, inspector, other_tenant, tenant
):
    from tests.builders import CommissionStaffFactory

    elsewhere = CommissionStaffFactory(
        user__username="inspector-elsewhere", organizations=[other_tenant.organization]
    ).user
    other_tenant.organization.reports_from = dt.date(2027, 1, 15)  # its records begin today
    other_tenant.organization.save()
    login(client, elsewhere)
    assert "No exception matches the filter." in page(client)
    login(client, inspector)
    assert client.post(URL, {}).status_code == 403
    login(client, tenant.head)
    assert client.get(URL).status_code == 403


def test_a_missing_deposit_past_due_is_an_exception(trail, tenant, known_occasion):
    from banking.models import Deposit

    Deposit.objects.all().delete()
    rows = exceptions(
        ExceptionQuery(
            organizations=Organization.objects.filter(pk=tenant.organization.pk),
            date_from=None,
            date_to=None,
            threshold=D("5.00"),
            today=dt.date(2027, 1, 15),
        ),
        ["deposits"],
    )
    assert [r.subject for r in rows] == ["No deposit recorded"]


def test_every_source_is_a_function_in_the_list():
    assert list(SOURCES) == [
        "reports",
        "variances",
        "deposits",
        "reconciliations",
        "inventory",
        "paper_unissued",
    ]
    assert all(callable(function) for _label, function in SOURCES.values())


def test_the_report_reads_in_a_constant_number_of_queries(client, trail, statewide_inspector):
    from tests.conftest import make_organization

    def accounts(n: int, start: int) -> None:
        for i in range(n):
            org = make_organization(f"Lodge {start + i}")
            GamingAccount.objects.create(
                organization=org,
                bank_name="B",
                account_last4="0000",
                opened_on=dt.date(2026, 6, 1),
                recorded_at=at(10),
            )

    login(client, statewide_inspector)
    accounts(1, 0)
    page(client)
    with CaptureQueriesContext(connection) as small:
        page(client)
    accounts(6, 10)
    with CaptureQueriesContext(connection) as large:
        shown = page(client)
    assert "Lodge 15" in shown
    assert len(large) == len(small)


def test_a_short_stock_take_and_paper_never_counted_back_appear(trail, tenant, known_occasion):
    """The paper inventory's differences (961 CMR 3.04(4)(e)): the rows as the paper pages
    record them, read by the report."""
    from equipment.models import PaperIssue, StockTake
    from tests.reports.test_paper import buy

    purchase = buy(tenant, "bonus", 70_000)
    StockTake.objects.create(
        purchase=purchase,
        counted_on=known_occasion.date,
        expected=200,
        counted=198,
        reason="Two sheets missing",
        counted_by=tenant.bookkeeper,
        witness=tenant.head,
    )
    PaperIssue.objects.create(
        purchase=purchase,
        occasion=known_occasion,
        serial_from=70_000,
        serial_to=70_049,
        issued_at=at(16, 30),
        issued_by=tenant.member_in_charge,
    )
    rows = exceptions(
        ExceptionQuery(
            organizations=Organization.objects.filter(pk=tenant.organization.pk),
            date_from=None,
            date_to=None,
            threshold=D("5.00"),
            today=dt.date(2027, 1, 15),
        ),
        ["inventory"],
    )
    assert sorted(r.subject for r in rows) == [
        "Paper issued to the door never counted back",
        "Stock-take -2 against the records",
    ]
