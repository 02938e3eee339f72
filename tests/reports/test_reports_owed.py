"""The reports owed: each authorized day owes a report due ten days after (961 CMR 3.05(1)(a)),
its status (filed, late, missing), and a late filing's interest."""

from __future__ import annotations

import datetime as dt

from reports import selectors, services
from reports.models import ReportObligation
from tests.reports.conftest import at

# --- The reports owed --------------------------------------------------------------------------


def test_every_authorized_day_owes_a_report_due_ten_days_after(tenant, report_clock):
    report_clock(at(12, day=dt.date(2026, 12, 20)))
    tenant.organization.reports_from = dt.date(2026, 11, 1)
    tenant.organization.save()
    added = services.ensure_obligations([tenant.organization], dt.date(2026, 12, 20))
    days = list(ReportObligation.objects.order_by("day").values_list("day", "due_on"))
    assert added == 7  # the Fridays of Nov 6 – Dec 18
    assert days[0] == (dt.date(2026, 11, 6), dt.date(2026, 11, 16))
    assert services.ensure_obligations([tenant.organization], dt.date(2026, 12, 20)) == 0


def test_statuses_late_missing_and_filed(filed_report, tenant, report_clock):
    from occasions import services as occasion_services

    tenant.organization.reports_from = dt.date(2026, 11, 20)
    tenant.organization.save()
    report_clock(at(12, day=dt.date(2026, 12, 10)))
    nov27 = occasion_services.occasion_for_day(
        organization=tenant.organization, day=dt.date(2026, 11, 27), by=tenant.head
    )
    occasion_services.mark_not_played(occasion=nov27, reason="Snow storm", by=tenant.head)
    rows = {r.obligation.day: r.status for r in selectors.obligations([tenant.organization])}
    assert rows == {
        dt.date(2026, 11, 20): selectors.MISSING,  # due Nov 30, nothing recorded
        dt.date(2026, 11, 27): selectors.LATE,  # due Dec 7, recorded not played, not filed
        dt.date(2026, 12, 4): selectors.FILED,
    }


def test_an_overdue_report_of_a_recorded_day_shows_as_late(counted, tenant, report_clock):
    tenant.organization.reports_from = dt.date(2026, 12, 4)
    tenant.organization.save()
    report_clock(at(12, day=dt.date(2026, 12, 10)))
    [row] = selectors.obligations([tenant.organization])
    assert row.status == selectors.DUE
    report_clock(at(12, day=dt.date(2026, 12, 15)))
    rows = {r.obligation.day: r.status for r in selectors.obligations([tenant.organization])}
    assert rows == {dt.date(2026, 12, 4): selectors.LATE, dt.date(2026, 12, 11): selectors.DUE}
    assert [
        r.obligation.day
        for r in selectors.obligations([tenant.organization], statuses=[selectors.LATE])
    ] == [dt.date(2026, 12, 4)]


def test_a_report_filed_after_its_due_date_is_late_and_pays_interest(counted, tenant, report_clock):
    report_clock(at(12, day=dt.date(2027, 1, 3)))  # due Dec 14: 20 days late
    report = services.file_report(occasion=counted, by=tenant.bookkeeper)
    assert report.days_late == 20
    assert report.figures["tax"]["interest"] == "0.15"
    tenant.organization.reports_from = dt.date(2026, 12, 4)
    tenant.organization.save()
    row = selectors.obligations([tenant.organization], end=dt.date(2026, 12, 31))[-1]
    assert row.status == selectors.FILED_LATE
