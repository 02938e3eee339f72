"""The reports an organization owes, and the state of each: the one computation every page
reads (the inspector's dashboard, the Commission's list of reports owed, the organization's
Reports tab, the reminders, the exports, the exceptions report and the organization's year).

What is owed: a financial report for every authorized day of a license that is not a practice
license (``License.practice``), played or not (961 CMR 3.05(1)(a)): the report of the night
played, or the report of a day not played; nothing for a practice license's days.

From when (``records_begin``): the later of the license's first day and the day the
organization's records begin here (``Organization.reports_from``, set by the Commission when
the organization starts keeping its reports in the application). Not the license's first day
alone: the reports of the days before were filed with the Commission on paper, which the
application cannot see, and counting each of them missing would make every page say something
false. A day before the start shows as "before the records here", even if its night was brought
in from paper, unless its report was filed here.

Its state (``state``): upcoming, due, late (the day recorded, the report not filed past its due
date), missing (nothing recorded and past due), filed, filed late; and amended, a filed report
with later versions (a filter over the filed ones, which keep whether they were late).

The due date by the figure in force that day; the days owed are recorded ahead by the nightly
task so that a missing one shows, and read as owed before they are recorded."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import Max
from django.utils import timezone

from beano.rules.limits import LimitName
from beano.rules.models import LawLimit
from occasions.models import Occasion
from organizations.models import License, Organization
from reports.models import FinancialReport, ReportObligation

DEFAULT_DUE_DAYS = 10

#: The states of a day owed, in the order an inspector cares about them.
MISSING = "missing"  # due date passed, nothing recorded for the day
LATE = "late"  # due date passed, the day recorded but the report not filed
DUE = "due"  # the day has passed, the due date has not
FILED_LATE = "filed_late"
FILED = "filed"
UPCOMING = "upcoming"  # the authorized day is still ahead
#: A filed report with later versions: a filter over the filed states, which it keeps.
AMENDED = "amended"
#: The days that owe nothing here: a practice license's, and those before the records begin.
PRACTICE = "practice"
BEFORE_RECORDS = "before_records"

STATE_LABELS = {
    MISSING: "Missing",
    LATE: "Late",
    DUE: "Due",
    FILED_LATE: "Filed late",
    FILED: "Filed",
    UPCOMING: "Upcoming",
}
STATE_STYLES = {
    MISSING: "danger",
    LATE: "danger",
    DUE: "warning",
    FILED_LATE: "secondary",
    FILED: "success",
    UPCOMING: "light",
    AMENDED: "secondary",
}
OPEN_STATES = (MISSING, LATE, DUE)
FILED_STATES = (FILED, FILED_LATE)
#: What the lists may be filtered by: each state, and amended.
FILTER_LABELS = STATE_LABELS | {AMENDED: "Amended"}
#: A day that owes nothing here, as a list of occasions shows it.
NOT_OWED_LABELS = {PRACTICE: "No report (practice)", BEFORE_RECORDS: "Before the records here"}
OCCASION_LABELS = STATE_LABELS | NOT_OWED_LABELS
OCCASION_STYLES = STATE_STYLES | {PRACTICE: "light", BEFORE_RECORDS: "light"}
#: The occasion statuses that record the day: a report unfiled past due is late, not missing.
RECORDED = (Occasion.Status.OPEN, Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)
#: An occasion of these statuses is done: tonight's report is due once it is.
PLAYED_OUT = (Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)


def records_begin(organization: Organization, license: License) -> dt.date:
    """The first day of ``license`` whose report is owed here: the later of the license's first
    day and the day the organization's records begin here (``reports_from``)."""
    start = license.valid_from
    if organization.reports_from and organization.reports_from > start:
        start = organization.reports_from
    return start


def state(
    *,
    day: dt.date,
    due_on: dt.date,
    today: dt.date,
    occasion_status: str | None,
    filed_on: dt.date | None,
) -> str:
    """The state of a day owed: filed (late or not) by its first filing's day; otherwise by
    today against the day and its due date, and whether the day was recorded."""
    if filed_on is not None:
        return FILED_LATE if filed_on > due_on else FILED
    # Tonight is upcoming until its occasion is closed (or marked not played): then its report
    # is due like any other, and the bookkeeper sees it tonight.
    if day > today or (day == today and occasion_status not in PLAYED_OUT):
        return UPCOMING
    if today <= due_on:
        return DUE
    return LATE if occasion_status in RECORDED else MISSING


def occasion_state(
    *,
    organization: Organization,
    license: License,
    day: dt.date,
    due_on: dt.date,
    today: dt.date,
    occasion_status: str | None,
    filed_on: dt.date | None,
) -> str:
    """An occasion's day as a list of occasions shows it: its state if owed here, else why it
    owes nothing here (practice, before the records begin). A report filed is filed."""
    if filed_on is None and license.practice:
        return PRACTICE
    if filed_on is None and day < records_begin(organization, license):
        return BEFORE_RECORDS
    return state(
        day=day, due_on=due_on, today=today, occasion_status=occasion_status, filed_on=filed_on
    )


def state_of_occasion(
    occasion: Occasion,
    *,
    due_on: Callable[[dt.date], dt.date],
    today: dt.date,
    filed_on: dt.date | None,
) -> str:
    """``occasion_state`` of an occasion row (its organization and license read with it), its
    due date by ``due_dates()``: the lists of occasions (the reports' statuses, the exports)
    ask it this way."""
    return occasion_state(
        organization=occasion.organization,
        license=occasion.license,
        day=occasion.date,
        due_on=due_on(occasion.date),
        today=today,
        occasion_status=occasion.status,
        filed_on=filed_on,
    )


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
    """Record the obligations ``unrecorded_obligations`` finds, every gap from the start of the
    records included (a start moved earlier, a license added for past days), run each night by
    the beat's ``reports.record_obligations`` and when a license or the start changes; a read
    never records them. Idempotent; returns how many were added."""
    new = unrecorded_obligations(organizations, through, gaps=True)
    ReportObligation.objects.bulk_create(new, ignore_conflicts=True, batch_size=1000)
    return len(new)


def unrecorded_obligations(
    organizations: Iterable[Organization], through: dt.date, *, gaps: bool = False
) -> list[ReportObligation]:
    """The report obligations not recorded yet (unsaved): one for every authorized day of the
    organizations' licenses up to ``through`` after the last one recorded, from the start of
    the records (``records_begin``); with ``gaps``, the writer's, every day from the start not
    recorded. A practice license's days owe none (``License.practice``: the demo's, for trying
    the application). A fixed number of queries whatever the number of organizations."""
    orgs = {o.pk: o for o in organizations}
    if not orgs:
        return []
    licenses = License.objects.filter(
        organization_id__in=orgs, status=License.Status.ACTIVE, practice=False
    )
    latest = (
        {}
        if gaps
        else dict(
            ReportObligation.objects.filter(organization_id__in=orgs)
            .values("organization_id")
            .annotate(last=Max("day"))
            .values_list("organization_id", "last")
        )
    )
    recorded: set[tuple[int, dt.date]] = set()
    if gaps:
        recorded = set(
            ReportObligation.objects.filter(organization_id__in=orgs).values_list(
                "organization_id", "day"
            )
        )
    due_for = due_dates()
    new: list[ReportObligation] = []
    for lic in licenses:
        org = orgs[lic.organization_id]
        start = records_begin(org, lic)
        last = latest.get(lic.organization_id)
        if not gaps and last is not None and last >= start:
            start = last + dt.timedelta(days=1)
        end = min(lic.valid_to, through)
        if start > end:
            continue
        new.extend(
            ReportObligation(organization=org, license=lic, day=d, due_on=due_for(d))
            for d in lic.authorized_dates(start, end)
            if (org.pk, d) not in recorded
        )
    return new


@dataclass(frozen=True)
class DayOwed:
    """An authorized day owed here, with what the records say of it."""

    obligation: ReportObligation
    occasion: Occasion | None
    first_filed_on: dt.date | None
    versions: int
    state: str

    @property
    def day(self) -> dt.date:
        return self.obligation.day

    @property
    def amended(self) -> bool:
        return self.versions > 1


def days_owed(
    organization: Organization, start: dt.date, end: dt.date, today: dt.date | None = None
) -> list[DayOwed]:
    """Every day ``organization`` owes a report for between ``start`` and ``end``, oldest
    first, with its state: the days recorded (a license revoked since keeps them) and those
    its licenses authorize not recorded yet, from the start of its records. The reference the
    lists, counts and pages are held to, and the organization's year; four queries."""
    today = today or timezone.localdate()
    recorded = {
        o.day: o
        for o in ReportObligation.objects.filter(
            organization=organization, license__practice=False, day__gte=start, day__lte=end
        ).select_related("license")
        if o.day >= records_begin(organization, o.license)
    }
    for o in unrecorded_obligations([organization], end, gaps=True):
        if start <= o.day and o.day not in recorded:
            recorded[o.day] = o
    occasions = {
        o.date: o
        for o in Occasion.objects.filter(organization=organization, date__in=list(recorded)).only(
            "id", "organization_id", "date", "status", "sealed_at", "license_id"
        )
    }
    filings: dict[int, list[dt.datetime]] = {}
    for occasion_id, filed_at in (
        FinancialReport.objects.filter(occasion__in=list(occasions.values()))
        .order_by("version")
        .values_list("occasion_id", "filed_at")
    ):
        filings.setdefault(occasion_id, []).append(filed_at)
    out = []
    for day in sorted(recorded):
        ob = recorded[day]
        occasion = occasions.get(day)
        filed = filings.get(occasion.pk, []) if occasion else []
        filed_on = timezone.localtime(filed[0]).date() if filed else None
        out.append(
            DayOwed(
                ob,
                occasion,
                filed_on,
                len(filed),
                state(
                    day=day,
                    due_on=ob.due_on,
                    today=today,
                    occasion_status=occasion.status if occasion else None,
                    filed_on=filed_on,
                ),
            )
        )
    return out
