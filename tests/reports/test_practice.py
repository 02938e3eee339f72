"""A practice license (``License.practice``, the demo's practice hall) owes no financial report:
none of its days is an obligation, none is due, late or missing anywhere a report is listed, and
the Commission's list of reports owed does not offer the practice organization."""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from occasions import services as occasion_services
from reports import selectors, services
from reports.models import ReportObligation
from tests.conftest import login, make_tenant
from tests.reports.conftest import at

EVERY_DAY = [0, 1, 2, 3, 4, 5, 6]


def practice_tenant(name: str = "Practice Hall") -> object:
    """An organization whose only license is a practice one, authorizing every day."""
    tenant = make_tenant(name)
    tenant.organization.licenses.update(practice=True, authorized_weekdays=EVERY_DAY)
    return tenant


def test_a_practice_licenses_days_owe_no_report(db, tenant, report_clock):
    practice = practice_tenant()
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    for org in (tenant.organization, practice.organization):
        org.reports_from = dt.date(2026, 11, 1)
        org.save()
    services.ensure_obligations([tenant.organization, practice.organization], dt.date(2026, 12, 20))
    assert not ReportObligation.objects.filter(organization=practice.organization).exists()
    assert ReportObligation.objects.filter(organization=tenant.organization).count() == 7
    assert selectors.obligations([practice.organization]) == []
    issues = selectors.issues_by_organization([tenant.organization, practice.organization])
    assert issues[tenant.organization.pk].missing == 5  # the Fridays of Nov 6 – Dec 4
    assert not issues[practice.organization.pk].any and issues[practice.organization.pk].due == 0


def test_a_license_marked_practice_after_its_days_were_recorded_owes_none_of_them(
    tenant, report_clock
):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 11, 1)
    tenant.organization.save()
    assert len(selectors.obligations([tenant.organization])) == 7
    tenant.organization.licenses.update(practice=True)
    assert selectors.obligations([tenant.organization]) == []
    issues = selectors.issues_by_organization([tenant.organization])[tenant.organization.pk]
    assert (issues.due, issues.late, issues.missing) == (0, 0, 0)


def test_a_practice_occasion_is_never_due_nor_late_in_a_list_of_occasions(tenant, report_clock):
    practice = practice_tenant()
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    days = {
        "practice": dt.date(2026, 11, 3),  # a Tuesday: the practice license allows every day
        "licensee": dt.date(2026, 11, 6),
    }
    recorded = [
        occasion_services.mark_not_played(
            occasion=occasion_services.occasion_for_day(
                organization=t.organization, day=days[key], by=t.head
            ),
            reason="Hall closed",
            by=t.head,
        )
        for key, t in (("practice", practice), ("licensee", tenant))
    ]
    shown = selectors.reports_of_occasions(recorded)
    practice_report, licensee_report = (shown[o.pk] for o in recorded)
    assert practice_report.status == selectors.PRACTICE
    assert (practice_report.label, practice_report.style) == ("No report (practice)", "light")
    assert licensee_report.status == selectors.LATE


def test_the_commissions_list_of_reports_owed_leaves_the_practice_organization_out(
    client, tenant, statewide_inspector, report_clock
):
    practice = practice_tenant("Practice Hall (demo — not a licensee)")
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 12, 1)
    tenant.organization.save()
    login(client, statewide_inspector)
    response = client.get(reverse("commission_reports"), {"status": ""})
    assert list(response.context["organizations"]) == [tenant.organization]
    assert {r.obligation.organization_id for r in response.context["rows"]} == {
        tenant.organization.pk
    }
    asked = client.get(
        reverse("commission_reports"), {"status": "", "organization": practice.organization.pk}
    )
    assert asked.context["rows"] == []


def test_the_pages_say_a_practice_occasion_owes_no_report(client, commission_admin, report_clock):
    practice = practice_tenant()
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    occasion = occasion_services.mark_not_played(
        occasion=occasion_services.occasion_for_day(
            organization=practice.organization, day=dt.date(2026, 12, 15), by=practice.head
        ),
        reason="Hall closed",
        by=practice.head,
    )
    login(client, practice.bookkeeper)
    args = [practice.organization.pk, occasion.pk]
    closeout = client.get(reverse("report_closeout", args=args)).content.decode()
    assert "A practice occasion owes no report" in closeout and "Due Dec" not in closeout
    header = client.get(reverse("occasion_detail", args=args)).content.decode()
    assert "Practice — not reported" in header
    dashboard = client.get(reverse("dashboard")).content.decode()
    assert "Practice — not a licensee" in dashboard and "reports coming due" not in dashboard
    login(client, commission_admin)
    listed = client.get(reverse("dashboard")).content.decode()
    home = reverse("organization_home", args=[practice.organization.pk])
    row = listed[listed.index(f'<td><a href="{home}">') :]
    assert "Practice — not a licensee" in row[: row.index("</tr>")]
