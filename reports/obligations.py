"""The reports an organization owes: one for every authorized day of its licenses, due by the
figure in force that day (3.05(1)(a)), recorded ahead so a missing one shows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.db.models import Max

from beano.rules.limits import LimitName
from beano.rules.models import LawLimit
from organizations.models import License, Organization
from reports.models import ReportObligation

DEFAULT_DUE_DAYS = 10


def due_dates() -> Callable[[dt.date], dt.date]:
    """The due date of an authorized day's report, by the figure in force that day
    (3.05(1)(a)): the dated rows are read once, for as many days as asked."""
    rows = list(LawLimit.objects.filter(name=LimitName.REPORT_DUE_DAYS).order_by("effective_from"))

    def due(day: dt.date) -> dt.date:
        days = DEFAULT_DUE_DAYS
        for row in rows:
            if row.effective_from <= day and row.value is not None:
                days = int(row.value)
        return day + dt.timedelta(days=days)

    return due


def due_on(day: dt.date) -> dt.date:
    return due_dates()(day)


def ensure_obligations(organizations: Iterable[Organization], through: dt.date) -> int:
    """Record the obligations ``unrecorded_obligations`` finds (run each night by the beat's
    ``reports.record_obligations``; a read never records them). Idempotent; returns how many
    were added."""
    new = unrecorded_obligations(organizations, through)
    ReportObligation.objects.bulk_create(new, ignore_conflicts=True, batch_size=1000)
    return len(new)


def unrecorded_obligations(
    organizations: Iterable[Organization], through: dt.date
) -> list[ReportObligation]:
    """The report obligations not recorded yet (unsaved): one for every authorized day of the
    organizations' licenses up to ``through`` after the last one recorded (from the
    organization's ``reports_from``, if set). A practice license's days owe none
    (``License.practice``: the demo's, for trying the application). A fixed number of queries
    whatever the number of organizations."""
    orgs = {o.pk: o for o in organizations}
    if not orgs:
        return []
    licenses = License.objects.filter(
        organization_id__in=orgs, status=License.Status.ACTIVE, practice=False
    )
    latest = dict(
        ReportObligation.objects.filter(organization_id__in=orgs)
        .values("organization_id")
        .annotate(last=Max("day"))
        .values_list("organization_id", "last")
    )
    due_for = due_dates()
    new: list[ReportObligation] = []
    for lic in licenses:
        org = orgs[lic.organization_id]
        start = lic.valid_from
        if org.reports_from and org.reports_from > start:
            start = org.reports_from
        last = latest.get(lic.organization_id)
        if last is not None and last >= start:
            start = last + dt.timedelta(days=1)
        end = min(lic.valid_to, through)
        if start > end:
            continue
        new.extend(
            ReportObligation(organization=org, license=lic, day=d, due_on=due_for(d))
            for d in lic.authorized_dates(start, end)
        )
    return new
