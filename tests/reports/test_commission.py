"""The Commission's list of reports owed across organizations, and the ZIP of filed PDFs."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from decimal import Decimal as D

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from inspections.report_views import REPORTS_PER_PAGE
from occasions import services as occasion_services
from reports.models import ReportObligation
from tests.conftest import login, make_tenant
from tests.reports.conftest import at


def test_an_inspector_finds_the_late_report_in_scope_only(
    client, tenant, other_tenant, inspector, counted, report_clock
):
    for org in (tenant.organization, other_tenant.organization):
        org.reports_from = dt.date(2026, 12, 4)
        org.save()
    report_clock(at(12, day=dt.date(2026, 12, 16)))
    login(client, inspector)
    page = client.get(reverse("commission_reports")).content.decode()
    assert tenant.organization.name in page and ">Late<" in page
    assert other_tenant.organization.name not in page  # outside this inspector's scope
    page = client.get(reverse("commission_reports"), {"status": "filed"}).content.decode()
    assert "No report matches." in page


def test_members_of_organizations_are_refused(client, tenant):
    login(client, tenant.head)
    assert client.get(reverse("commission_reports")).status_code == 403
    assert client.get(reverse("commission_reports_zip")).status_code == 403


def test_the_zip_holds_exactly_the_filed_pdfs_of_the_range(
    client, statewide_inspector, rendered_report_kwargs, filed_report
):
    login(client, statewide_inspector)
    url = reverse("commission_reports_zip")
    assert client.get(url, {"from": "2026-12-05", "to": "2026-12-01"}).status_code == 400
    response = client.get(url, {"from": "2026-12-01", "to": "2026-12-31"})
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    license_number = filed_report.figures["organization"]["license_number"]
    assert sorted(archive.namelist()) == [f"{license_number}/2026-12-04-v1.pdf", "manifest.csv"]
    assert archive.read(f"{license_number}/2026-12-04-v1.pdf").startswith(b"%PDF-")
    empty = client.get(url, {"from": "2026-11-01", "to": "2026-11-30"})
    assert zipfile.ZipFile(io.BytesIO(empty.content)).namelist() == ["manifest.csv"]


def _organizations_with_nights(start: int, count: int, report_clock) -> None:
    report_clock(at(12, day=dt.date(2026, 11, 1)))
    for i in range(start, start + count):
        t = make_tenant(f"Hall {i}")
        t.organization.reports_from = dt.date(2026, 10, 1)
        t.organization.save()
        day = occasion_services.occasion_for_day(
            organization=t.organization, day=dt.date(2026, 10, 2), by=t.head
        )
        occasion_services.mark_not_played(occasion=day, reason="Closed", by=t.head)


def test_the_list_keeps_a_constant_number_of_queries(client, statewide_inspector, report_clock):
    def queries() -> int:
        report_clock(at(12, day=dt.date(2026, 12, 20)))
        client.get(reverse("commission_reports"), {"status": ""})  # obligations brought up to date
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("commission_reports"), {"status": ""}).status_code == 200
        return len(ctx.captured_queries)

    login(client, statewide_inspector)
    _organizations_with_nights(0, 2, report_clock)
    small = queries()
    _organizations_with_nights(2, 12, report_clock)
    assert queries() == small


def test_the_inspectors_dashboard_shows_reports_owed_and_filed(
    client, tenant, inspector, counted, report_clock
):
    from reports import services

    tenant.organization.reports_from = dt.date(2026, 11, 27)
    tenant.organization.save()
    report_clock(at(12, day=dt.date(2026, 12, 16)))
    services.file_report(occasion=counted, by=tenant.bookkeeper)  # 2 days late
    login(client, inspector)
    page = client.get(reverse("inspector_dashboard"), {"from": "2026-11-01"}).content.decode()
    assert "1 missing" in page  # Nov 27: nothing recorded, due Dec 7
    occasions = page[page.index('<h2 class="h5 mb-0">Occasions') :]
    # Two days late: interest $22.80 × 12 % × 2 / 365 = $0.01 comes off the net proceeds.
    assert "Filed late" in occasions and "$118.19" in occasions, occasions[:3000]


def test_the_full_record_holds_the_report_and_every_amendment(
    client, tenant, inspector, filed_report
):
    from reports import services
    from reports.models import ExpenseKind

    occasion = filed_report.occasion
    services.open_amendment(
        occasion=occasion, reason="The hall rent invoice came late.", by=tenant.bookkeeper
    )
    services.record_expense(
        occasion=occasion,
        kind=ExpenseKind.objects.get(code="hall_rent"),
        payee="Hall Co.",
        amount=D("100.00"),
        by=tenant.bookkeeper,
    )
    services.file_report(occasion=occasion, by=tenant.bookkeeper)
    login(client, inspector)
    page = client.get(
        reverse("occasion_record", args=[tenant.organization.pk, occasion.pk])
    ).content.decode()
    assert "Financial report" in page and "Amendment 1" in page
    assert "The hall rent invoice came late." in page
    assert "Net proceeds: 118.20 → 18.20" in page


def test_the_list_of_reports_owed_comes_fifty_at_a_time_the_newest_first(
    client, tenant, statewide_inspector
):
    today = timezone.localdate()
    license = tenant.organization.licenses.get()
    ReportObligation.objects.bulk_create(
        ReportObligation(
            organization=tenant.organization,
            license=license,
            day=today - dt.timedelta(days=n),
            due_on=today - dt.timedelta(days=n) + dt.timedelta(days=10),
        )
        # Today's recorded too: whatever the weekday, no day is left unrecorded to list.
        for n in range(REPORTS_PER_PAGE + 5)
    )
    login(client, statewide_inspector)
    url = reverse("commission_reports")
    first = client.get(url, {"status": "", "organization": tenant.organization.pk})
    shown = [row.obligation.day for row in first.context["page"]]
    assert len(shown) == REPORTS_PER_PAGE and shown[0] == today
    assert shown == sorted(shown, reverse=True)
    page = first.content.decode()
    assert f"{REPORTS_PER_PAGE + 5} reports match" in page and ">Older</a>" in page
    second = client.get(url, {"status": "", "organization": tenant.organization.pk, "page": 2})
    assert [row.obligation.day for row in second.context["page"]] == [
        today - dt.timedelta(days=n) for n in range(REPORTS_PER_PAGE, REPORTS_PER_PAGE + 5)
    ]
    # The filter's query goes with the page links.
    assert f"organization={tenant.organization.pk}" in second.content.decode().split(">Newer<")[0]
