"""No read writes a row: the pages that list the reports owed (961 CMR 3.05(1)(a)) read the days
not recorded yet as owed, and the nightly task ``reports.record_obligations`` records them."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from reports import selectors
from reports.models import ReportObligation
from tests.conftest import login
from tests.reports.conftest import at


def test_it_records_no_obligation_when_a_page_reads_the_reports_owed(tenant, client, report_clock):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 11, 1)
    tenant.organization.save()
    login(client, tenant.head)
    for url in (
        reverse("dashboard"),
        reverse("organization_home", kwargs={"org_id": tenant.organization.pk}),
        reverse("reports_home", kwargs={"org_id": tenant.organization.pk}),
    ):
        assert client.get(url).status_code == 200
    assert len(selectors.obligations([tenant.organization])) == 7  # owed, though not recorded
    assert selectors.issues_by_organization([tenant.organization])[tenant.organization.pk].missing
    assert not ReportObligation.objects.exists()


def test_the_nightly_task_records_the_reports_owed_once(tenant, report_clock):
    from reports.tasks import record_obligations

    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 11, 1)
    tenant.organization.save()
    before = [(r.obligation.day, r.status) for r in selectors.obligations([tenant.organization])]
    record_obligations.apply().get()
    assert ReportObligation.objects.filter(organization=tenant.organization).count() == 7
    after = [(r.obligation.day, r.status) for r in selectors.obligations([tenant.organization])]
    assert after == before
    assert record_obligations.apply().get() == 0
