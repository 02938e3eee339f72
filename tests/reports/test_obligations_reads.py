"""No read writes a row: the pages that list the reports owed (961 CMR 3.05(1)(a)) read the days
not recorded yet as owed, and the nightly task ``reports.record_obligations`` records them, as
does a license's change (``reports.license_hooks``)."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from organizations.models import License, Organization
from reports import selectors
from reports.models import ReportObligation
from reports.obligations import ensure_obligations
from tests.builders import LicenseFactory, OrganizationFactory
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


def test_a_license_revoked_keeps_the_reports_its_past_days_owe(tenant, report_clock):
    """Saving the change records, in its own transaction, what the license owed as it stood."""
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 11, 1)
    tenant.organization.save()
    license = tenant.organization.licenses.get()
    license.status = License.Status.REVOKED
    license.save()
    recorded = ReportObligation.objects.filter(organization=tenant.organization)
    assert recorded.count() == 7 and {o.license_id for o in recorded} == {license.pk}
    # Read after the revocation, they are owed still: the nightly run adds nothing.
    assert len(selectors.obligations([tenant.organization])) == 7
    assert ensure_obligations(Organization.objects.all(), dt.date(2026, 12, 20)) == 0


def test_a_license_granted_records_its_days_owed_once_the_change_commits(
    tenant, report_clock, django_capture_on_commit_callbacks
):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    org = OrganizationFactory(license=None, reports_from=dt.date(2026, 11, 1))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        LicenseFactory(organization=org)
        assert not ReportObligation.objects.filter(organization=org).exists()  # not yet
    for callback in callbacks:
        callback()
    assert ReportObligation.objects.filter(organization=org).count() == 7
    assert not ReportObligation.objects.filter(organization=tenant.organization).exists()


def test_beat_sends_the_nightly_obligations_and_the_resend_of_unsent_reports():
    from django.conf import settings

    from beano.celery import app

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"reports.record_obligations", "reports.resend_unsent"} <= tasks
    assert {"reports.record_obligations", "reports.resend_unsent"} <= set(app.tasks)
