"""Filing the annual report is a final act (issue 19, item 2): the button first shows what will
be filed, its totals and due date, the year's occasions with no report on file, what the rules
would refuse now and how a filed report is corrected; only the confirmed POST files."""

from __future__ import annotations

import datetime as dt
import html
import re
from decimal import Decimal

import pytest
from django.urls import reverse

from organizations.models import AuditEvent
from reports import annual_services
from reports.models import AnnualReport, LawfulPurposeDisbursement
from tests.conftest import login
from tests.reports.conftest import at

CONFIRM = {"confirmed": "yes"}


def _text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


@pytest.fixture
def year_ended(client, tenant, occasion, report_clock):
    """January 10, 2027: the 2026 year has ended; $250.00 was given to the Scouts in 2026 and
    the scheduled December 4 occasion has no report on file."""
    report_clock(at(12, day=dt.date(2027, 1, 10)))
    annual_services.record_disbursement(
        organization=tenant.organization,
        paid_on=dt.date(2026, 6, 1),
        payee="Troop 12 Scouts",
        purpose="Camp fees",
        amount=Decimal("250.00"),
        reference="Check 1200",
        by=tenant.bookkeeper,
    )
    login(client, tenant.bookkeeper)
    return reverse("annual_file", args=[tenant.organization.pk, 2026])


def test_the_first_post_shows_the_summary_and_files_nothing(client, year_ended):
    events = AuditEvent.objects.count()
    response = client.post(year_ended)
    page = _text(response)
    assert response.status_code == 200 and "File the 2026 annual report?" in page
    assert "0 occasion reports (0 played), gross receipts $0.00" in page
    assert "spent for Lawful Purposes $250.00 (1 disbursement), leaving ($250.00)" in page
    assert "It is due by January 30, 2027." in page
    assert "December 4: no financial report is filed (scheduled)" in page
    assert "a correction is filed as an amendment with its reason" in page
    assert "It would be refused now" not in page
    assert not AnnualReport.objects.exists() and AuditEvent.objects.count() == events


def test_the_confirmed_post_files_the_report(client, year_ended):
    response = client.post(year_ended, CONFIRM)
    assert response.status_code == 302
    report = AnnualReport.objects.get()
    assert report.version == 1 and report.figures["total"] == "250.00"


def test_filed_late_the_summary_says_how_late(client, year_ended, report_clock):
    report_clock(at(12, day=dt.date(2027, 2, 5)))
    page = _text(client.post(year_ended))
    assert "It is due by January 30, 2027; filed today it is 6 days late." in page


def test_an_amendment_shows_what_it_corrects_and_refuses_without_a_reason(
    client, tenant, year_ended
):
    client.post(year_ended, CONFIRM)
    disbursement = LawfulPurposeDisbursement.objects.get(organization=tenant.organization)
    annual_services.void_disbursement(
        disbursement=disbursement, reason="Paid twice", by=tenant.bookkeeper
    )
    page = _text(client.post(year_ended))
    assert "File amendment 1?" in page and "It would be refused now" in page
    words = page.find("Say why the filed annual report is corrected")
    assert 0 <= words < page.find("961 CMR 3.05(1)(c)", words), "words first, citation after"
    reason = "The Scouts' check was entered twice."
    response = client.post(year_ended, {"reason": reason})
    page = _text(response)
    assert "It corrects version 1 (filed January 10, 2027) in 3 figures" in page
    assert f"for the reason given: “{reason}”" in page and "It would be refused now" not in page
    assert f'name="reason" value="{html.escape(reason)}"' in response.content.decode()
    assert AnnualReport.objects.count() == 1
    assert client.post(year_ended, {"reason": reason} | CONFIRM).status_code == 302
    amended = AnnualReport.objects.get(version=2)
    assert amended.reason == reason and amended.figures["total"] == "0.00"


def test_before_the_year_ends_the_summary_shows_the_refusal_and_confirming_is_refused(
    client, year_ended, report_clock
):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    page = _text(client.post(year_ended))
    assert "It would be refused now" in page and "The year 2026 has not ended" in page
    refused = client.post(year_ended, CONFIRM)
    assert refused.status_code == 400 and "The year 2026 has not ended" in _text(refused)
    assert not AnnualReport.objects.exists()
