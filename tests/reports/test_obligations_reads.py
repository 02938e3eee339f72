"""No read writes a row: the pages that list the reports owed (961 CMR 3.05(1)(a)) read the days
not recorded yet as owed, and the nightly task ``reports.record_obligations`` records them, as
does a license's change (``reports.license_hooks``)."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from organizations.models import License, Organization
from reports import selectors
from reports.models import FinancialReport, ReportObligation
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


def test_the_dashboards_counts_of_report_issues_are_the_lists_statuses_counted(
    tenant, report_clock
):
    """``issues_by_organization`` counts in the database what ``obligations`` says of each day
    (due, late, missing; amendments and filed reports with a difference): recorded days and
    days not recorded yet alike."""
    from collections import Counter

    from occasions.models import Occasion

    today = report_clock(at(12, day=dt.date(2026, 12, 20))).date()
    quiet = OrganizationFactory(
        name="Hall Not Recorded",
        reports_from=dt.date(2026, 11, 1),
        license__authorized_weekdays=[0, 4],
    )
    org = tenant.organization
    org.reports_from = dt.date(2026, 9, 1)
    org.save()
    license = org.licenses.get()
    license.authorized_weekdays = [1, 4]
    license.save()
    ensure_obligations([org], today - dt.timedelta(days=8))  # the last week not recorded yet
    days = license.authorized_dates(org.reports_from, today - dt.timedelta(days=1))
    # Every third day filed (some amended, one with a difference), every third closed unfiled.
    occasions = Occasion.objects.bulk_create(
        Occasion(organization=org, license=license, date=day, status=Occasion.Status.CLOSED)
        for i, day in enumerate(days)
        if i % 3 != 2
    )
    reports = []
    for i, occasion in enumerate(occasions):
        if i % 2:
            continue
        for version in (1, 2) if i % 4 == 0 else (1,):
            reports.append(
                FinancialReport(
                    organization=org,
                    occasion=occasion,
                    version=version,
                    reason="A count corrected." if version > 1 else "",
                    # As a filing writes it: the differences above the threshold, a list.
                    figures={
                        "variance": {
                            "above_threshold": (
                                [{"label": "Cash counted", "value": "-40.00"}] if i == 2 else []
                            )
                        }
                    },
                    figures_sha256="0" * 64,
                    filed_at=at(12, day=occasion.date + dt.timedelta(days=3)),
                    filed_by=tenant.bookkeeper,
                    due_on=occasion.date + dt.timedelta(days=10),
                    chain_length=0,
                    chain_head_hash="0" * 64,
                )
            )
    FinancialReport.objects.bulk_create(reports)

    issues = selectors.issues_by_organization([org, quiet])
    for organization in (org, quiet):
        listed = Counter(
            row.status
            for row in selectors.obligations([organization], limit=10_000)
            if row.obligation.day < today
        )
        found = issues[organization.pk]
        assert (found.due, found.late, found.missing) == (
            listed["due"],
            listed["late"],
            listed["missing"],
        ), organization
    mine = issues[org.pk]
    assert mine.due and mine.late and mine.missing and issues[quiet.pk].missing
    assert (mine.amendments, mine.variances) == (
        sum(1 for r in reports if r.version == 2),
        1,
    )


def test_one_open_status_asked_for_lists_as_many_of_it_as_there_are(tenant, report_clock):
    """Only missing days asked for, while the newest days are due (not late yet): the list
    still reads far enough back to find ``limit`` missing ones."""
    today = report_clock(at(12, day=dt.date(2026, 12, 20))).date()
    org = tenant.organization
    org.reports_from = dt.date(2026, 6, 1)  # Fridays: Dec 18 and 11 due, the rest missing
    org.save()
    ensure_obligations([org], today)
    missing = selectors.obligations([org], statuses=["missing"], limit=5)
    assert len(missing) == 5 and {row.status for row in missing} == {"missing"}
    assert missing[0].obligation.day == dt.date(2026, 12, 4)
    due = selectors.obligations([org], statuses=["due"], limit=5)
    assert [row.obligation.day for row in due] == [dt.date(2026, 12, 18), dt.date(2026, 12, 11)]
