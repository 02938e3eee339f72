"""The Commission's list of reports owed across organizations, and the ZIP of filed PDFs."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from occasions import services as occasion_services
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
    client.force_login(tenant.head)
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
