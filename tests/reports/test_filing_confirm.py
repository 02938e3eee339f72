"""Filing the report and withdrawing an amendment confirm with a summary (issue 19): what is
filed, its totals, the due date, what becomes read-only, how it is amended and what the rules
would refuse now; or what goes back as filed. The first POST saves nothing (and logs no
refusal); the confirmed POST acts, judged by the rules as before."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest
from django.urls import reverse

from beano.rules.models import RefusedAction
from organizations.models import AuditEvent
from reports import services
from reports.models import CloseOut, Expense, ExpenseKind, FinancialReport
from reports.obligations import due_on
from tests.conftest import PASSWORD, login
from tests.reports.conftest import COUNTS, KNOWN

CONFIRM = {"confirmed": "yes"}


def _file(occasion) -> str:
    return reverse("report_file", args=[occasion.organization_id, occasion.pk])


def _withdraw(occasion) -> str:
    return reverse("report_withdraw_amendment", args=[occasion.organization_id, occasion.pk])


def _text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def books(client, tenant):
    login(client, tenant.bookkeeper)
    return client


# Filing


def test_the_summary_shows_what_is_filed_and_saves_nothing(books, counted):
    events = AuditEvent.objects.count()
    response = books.post(_file(counted))
    assert response.status_code == 200
    page = _text(response)
    assert "File the report?" in page and "Yes, file the report" in page
    assert "File the financial report of Friday, December 4, 2026 as version 1" in page
    assert f"gross receipts ${KNOWN['gross']:,.2f}, Beano tax ${KNOWN['tax']:,.2f}" in page
    assert f"It is due {due_on(counted.date):%B %-d, %Y}: filed today, it is on time." in page
    assert "Seal the occasion: its games, sales, claims, payouts and this close-out" in page
    assert "corrected by an amendment opened on this page" in page
    assert 'name="confirmed" value="yes"' in page
    counted.refresh_from_db()
    assert counted.sealed_at is None and not FinancialReport.objects.exists()
    assert AuditEvent.objects.count() == events and not RefusedAction.objects.exists()


def test_the_confirmed_post_files(books, counted):
    response = books.post(_file(counted), CONFIRM)
    assert response.status_code == 302
    report = FinancialReport.objects.get()
    assert report.version == 1 and report.figures["receipts"]["gross_receipts"] == "456.00"
    counted.refresh_from_db()
    assert counted.sealed_at is not None


def test_the_summary_says_what_the_rules_would_refuse_and_logs_nothing(books, known_occasion):
    """No counts entered: the summary shows the refusal to come; confirming is refused."""
    page = _text(books.post(_file(known_occasion)))
    assert "It would be refused now" in page
    words = page.find("Enter the count of admissions")
    citation = page.find("961 CMR 3.05(1)(a)", max(words, 0))
    assert 0 <= words < citation, "the plain words first, the citation after them"
    assert not RefusedAction.objects.exists() and not FinancialReport.objects.exists()
    refused = books.post(_file(known_occasion), CONFIRM)
    assert refused.status_code == 400 and "961 CMR 3.05(1)(a)" in refused.content.decode()
    assert RefusedAction.objects.count() == 1 and not FinancialReport.objects.exists()


def test_another_organization_gets_404_and_an_inspector_403(
    client, counted, other_tenant, inspector
):
    login(client, other_tenant.bookkeeper)
    assert client.post(_file(counted)).status_code == 404
    assert client.post(_file(counted), CONFIRM).status_code == 404
    login(client, inspector)
    assert client.post(_file(counted)).status_code == 403
    assert client.post(_file(counted), CONFIRM).status_code == 403
    assert not FinancialReport.objects.exists()


# An amendment: filing it, and withdrawing it


@pytest.fixture
def amending(filed_report, tenant):
    """The filed report with an amendment open: an expense added, the cash counted again."""
    occasion = filed_report.occasion
    services.open_amendment(
        occasion=occasion, reason="The supplies invoice arrived late.", by=tenant.bookkeeper
    )
    services.record_expense(
        occasion=occasion,
        kind=ExpenseKind.objects.get(code="other"),
        payee="Supplies Co.",
        amount=Decimal("6.10"),
        by=tenant.bookkeeper,
    )
    services.save_closeout(
        occasion=occasion,
        opening_bank=Decimal("200.00"),
        cash_counted=Decimal("590.00"),
        counts=COUNTS,
        explanation="Six dollars short: the supplies were paid from the box.",
        cash_verified_by=tenant.head,
        cash_verifier_secret=PASSWORD,
        by=tenant.bookkeeper,
    )
    return occasion


def test_the_amendments_summary_names_its_reason_and_the_first_filing(books, amending):
    page = _text(books.post(_file(amending)))
    assert "File amendment 1?" in page and "Yes, file amendment 1" in page
    assert "as version 2, for the reason “The supplies invoice arrived late.”" in page
    assert "of its figures differ from version 1" in page
    assert "the amendment keeps that filing date for the tax and any interest" in page
    assert FinancialReport.objects.count() == 1
    assert books.post(_file(amending), CONFIRM).status_code == 302
    assert FinancialReport.objects.count() == 2


def test_the_withdrawal_summary_says_what_goes_back_and_saves_nothing(books, amending):
    response = books.post(_withdraw(amending))
    assert response.status_code == 200
    page = _text(response)
    assert "Withdraw the amendment?" in page and "(“The supplies invoice arrived late.”)" in page
    assert "The cash counted goes back from $590.00 to $596.00." in page
    assert "The explanation goes back to the one filed." in page
    assert (
        "The expense added in the amendment, Other expense to Supplies Co. $6.10, is taken away."
        in page
    )
    assert "Version 1, filed December 4, 2026, stays the report on record" in page
    assert "To correct the report after all, open a new amendment." in page
    assert CloseOut.objects.get(occasion=amending).amendment_open
    assert Expense.objects.filter(payee="Supplies Co.").exists()


def test_the_confirmed_withdrawal_puts_the_close_out_back(books, amending):
    assert books.post(_withdraw(amending), CONFIRM).status_code == 302
    closeout = CloseOut.objects.get(occasion=amending)
    assert not closeout.amendment_open
    assert closeout.cash_counted == KNOWN["cash_expected_with_200_bank"]
    assert not Expense.objects.filter(payee="Supplies Co.").exists()


def test_withdrawing_with_no_amendment_open_says_so(books, filed_report):
    page = _text(books.post(_withdraw(filed_report.occasion)))
    assert "It would be refused now" in page and "No amendment is open." in page


def test_a_withdrawal_from_another_organization_is_404_and_an_inspectors_403(
    client, amending, other_tenant, inspector
):
    login(client, other_tenant.bookkeeper)
    assert client.post(_withdraw(amending)).status_code == 404
    assert client.post(_withdraw(amending), CONFIRM).status_code == 404
    login(client, inspector)
    assert client.post(_withdraw(amending)).status_code == 403
    assert client.post(_withdraw(amending), CONFIRM).status_code == 403
    assert CloseOut.objects.get(occasion=amending).amendment_open
