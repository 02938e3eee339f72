"""The close-out and report pages from the hall's side: bookkeeper writes, bad input gets a
message and saves nothing, filing shows the PDF's progress and offers the download; a real
Celery worker makes the PDF end to end."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.urls import reverse

from organizations.models import AuditEvent
from reports.models import CloseOut, Expense, FinancialReport, LawfulPurposeDisbursement
from tests.conftest import PASSWORD, login, refusal_shown
from tests.fixtures.floor import on_floor
from tests.reports.conftest import COUNTS, KNOWN, at


def closeout_url(occasion) -> str:
    return reverse("report_closeout", args=[occasion.organization_id, occasion.pk])


def post_counts(client, occasion, **changes):
    """The close-out's counts and cash, the cash verified by the head (on the floor that night)
    typing their own password."""
    head = occasion.organization.user_roles.get(role="head").user
    on_floor(head, occasion)
    data = {f"count_{k}": v for k, v in COUNTS.items()}
    data |= {"opening_bank": "200.00", "cash_counted": str(KNOWN["cash_expected_with_200_bank"])}
    data |= {"cash_verified_by": str(head.pk), "cash_verifier_secret": PASSWORD}
    return client.post(closeout_url(occasion), data | changes)


def test_the_bookkeeper_closes_out_and_files(client, tenant, known_occasion):
    login(client, tenant.bookkeeper)
    page = client.get(closeout_url(known_occasion)).content.decode()
    assert "Recorded sold: 100" in page and "$456.00" in page
    assert post_counts(client, known_occasion).status_code == 302
    assert CloseOut.objects.get().cash_counted == KNOWN["cash_expected_with_200_bank"]
    response = client.post(
        reverse("report_file", args=[tenant.organization.pk, known_occasion.pk]),
        {"confirmed": "yes"},
        follow=True,
    )
    report = FinancialReport.objects.get()
    page = response.content.decode()
    assert "Original report" in page
    assert reverse("report_status", args=[tenant.organization.pk, report.pk]) in page
    assert 'hx-trigger="every 2s"' in page


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"opening_bank": "12.345"}, "at most two decimals"),
        ({"opening_bank": "-5"}, "cannot be negative"),
        ({"cash_counted": "ten"}, "with the digits 0 to 9"),
        ({"cash_counted": "1e9"}, "with the digits 0 to 9"),
        ({"opening_bank": "\uff12\uff10\uff10"}, "with the digits 0 to 9"),
        ({"count_admission": "-1"}, "A count cannot be negative"),
        ({"count_admission": "1.5"}, "whole number"),
        ({"count_admission": "\u0661\u0660\u0660"}, "whole number"),
        ({"count_admission": "1_000"}, "whole number"),
        ({"opening_bank": "99999999999999"}, "too large"),
        ({"opening_bank": "$100,000.01"}, "the cash in the box is at most $100,000.00"),
    ],
)
def test_bad_input_gets_a_message_and_saves_nothing(
    client, tenant, known_occasion, changes, message
):
    login(client, tenant.bookkeeper)
    response = post_counts(client, known_occasion, **changes)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not CloseOut.objects.filter(cash_counted__isnull=False).exists()


def test_a_refused_filing_is_shown_with_its_citation(client, tenant, known_occasion):
    login(client, tenant.bookkeeper)
    response = client.post(
        reverse("report_file", args=[tenant.organization.pk, known_occasion.pk]),
        {"confirmed": "yes"},
    )
    assert response.status_code == 400
    page = response.content.decode()
    assert refusal_shown(page, "961 CMR 3.05(1)(a): Enter the count of admissions")
    assert not FinancialReport.objects.exists()


def test_a_refused_expense_is_shown_on_its_form(client, tenant, counted):
    from tests.reports.test_services import on_list

    on_list(tenant, "Sally Seller", ["seller"])
    login(client, tenant.bookkeeper)
    kind = __import__("reports.models", fromlist=["ExpenseKind"]).ExpenseKind.objects.get(
        code="other"
    )
    response = client.post(
        reverse("report_add_expense", args=[tenant.organization.pk, counted.pk]),
        {"kind": kind.pk, "payee": "Sally Seller", "amount": "20.00"},
    )
    assert response.status_code == 400
    assert "961 CMR 3.04(1)(f)" in response.content.decode()
    assert not Expense.objects.exists()


def test_the_member_in_charge_cannot_file(client, tenant, counted):
    """The close-out is the back office's money: the head's and the bookkeeper's
    (organizations/access_matrix.py), not even shown to the member in charge."""
    login(client, tenant.member_in_charge)
    assert client.get(closeout_url(counted)).status_code == 403
    response = client.post(reverse("report_file", args=[tenant.organization.pk, counted.pk]))
    assert response.status_code == 403
    assert not FinancialReport.objects.exists()


def test_the_status_offers_the_download_when_ready(client, tenant, rendered_report_kwargs):
    login(client, tenant.bookkeeper)
    org = tenant.organization.pk
    report_id = rendered_report_kwargs["report_id"]
    partial = client.get(reverse("report_status", args=[org, report_id])).content.decode()
    assert "Download the PDF" in partial and "hx-trigger" not in partial
    response = client.get(reverse("report_pdf", args=[org, report_id]))
    assert response["Content-Type"] == "application/pdf"
    assert b"".join(response.streaming_content).startswith(b"%PDF-")


def test_an_amendment_through_the_pages(client, tenant, filed_report):
    login(client, tenant.bookkeeper)
    org, pk = tenant.organization.pk, filed_report.occasion_id
    response = client.post(reverse("report_open_amendment", args=[org, pk]), {"reason": "short"})
    assert response.status_code == 400
    client.post(
        reverse("report_open_amendment", args=[org, pk]),
        {"reason": "One admission was counted twice."},
    )
    assert post_counts(client, filed_report.occasion, count_admission="99").status_code == 302
    client.post(
        closeout_url(filed_report.occasion),
        {f"count_{k}": v for k, v in COUNTS.items()}
        | {
            "count_admission": "99",
            "opening_bank": "200.00",
            "cash_counted": "594.00",
            "explanation": "One admission ticket was torn and counted twice.",
        },
    )
    client.post(reverse("report_file", args=[org, pk]), {"confirmed": "yes"})
    page = client.get(reverse("report_versions", args=[org, pk])).content.decode()
    assert "Amendment 1" in page and "Original report" in page
    assert "One admission was counted twice." in page
    assert "Admissions: counted" in page


def test_the_reports_page_lists_a_late_report(client, tenant, counted, report_clock):
    tenant.organization.reports_from = dt.date(2026, 12, 4)
    tenant.organization.save()
    report_clock(at(12, day=dt.date(2026, 12, 16)))
    login(client, tenant.head)
    page = client.get(reverse("reports_home", args=[tenant.organization.pk])).content.decode()
    assert "Fri Dec 4, 2026" in page and ">Late<" in page


def test_annual_report_through_the_pages(client, tenant, report_clock):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    login(client, tenant.bookkeeper)
    org = tenant.organization.pk
    url = reverse("annual_add_disbursement", args=[org, 2026])
    response = client.post(
        url, {"paid_on": "2025-05-01", "payee": "X", "purpose": "Y", "amount": "10.00"}
    )
    assert response.status_code == 400 and "give a date in 2026" in response.content.decode()
    client.post(
        url,
        {"paid_on": "2026-05-01", "payee": "Scouts", "purpose": "Camp fees", "amount": "250.00"},
    )
    assert LawfulPurposeDisbursement.objects.get().amount == 250
    response = client.post(reverse("annual_file", args=[org, 2026]), {"confirmed": "yes"})
    assert response.status_code == 400
    page = response.content.decode()
    words = "The year 2026 has not ended: its annual report is filed from January 1."
    assert f'{words} <span class="citation">961 CMR 3.05(1)(c)</span>' in page


def test_annual_report_filed_after_the_year_with_an_authority_copy(
    tenant, annual_report, media_root
):
    from reports.tasks import render

    render("annual", annual_report.pk)
    annual_report.refresh_from_db()
    assert annual_report.figures["total"] == "1500.00"
    assert annual_report.due_on == dt.date(2026, 1, 30)
    assert annual_report.pdf and annual_report.authority_pdf
    assert AuditEvent.objects.filter(action="reports.annual.filed").exists()


def test_an_annual_amendment_needs_a_reason(tenant, annual_report, disbursement):
    from beano import rules
    from reports import services

    services.void_disbursement(disbursement=disbursement, reason="Wrong payee", by=tenant.head)
    with pytest.raises(rules.RuleViolation) as error:
        services.file_annual_report(organization=tenant.organization, year=2025, by=tenant.head)
    assert error.value.citations == ["961 CMR 3.05(1)(c)"]
    amended = services.file_annual_report(
        organization=tenant.organization,
        year=2025,
        by=tenant.head,
        reason="The food pantry payment was recorded twice.",
    )
    assert amended.version == 2 and amended.figures["total"] == "0.00"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_makes_the_filed_report(worker_process, tenant, counted):
    from reports import services

    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        report.refresh_from_db()
        if report.render_status in ("ready", "failed"):
            break
        if worker_process.poll() is not None:
            pytest.fail(f"the worker died: {worker_process.log()}")
        time.sleep(0.5)
    assert report.render_status == "ready", report.render_error
    assert report.render_task_id
    with report.pdf.open("rb") as handle:
        assert handle.read(5) == b"%PDF-"
