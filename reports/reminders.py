"""What an organization's head and bookkeeper are reminded of, on the day it is due: the events
of a day (``events_on``) as plain data, sent by ``reminder_services.send_reminders``.

- a financial report (961 CMR 3.05(1)(a)) due in three days, due today, or late (each once);
- the annual report of Lawful Purpose disbursements, in January (due before January 31);
- the written notice owed before play resumes after two nights in a row not played
  (3.05(1)(b)), as soon as the rules would refuse the next opening for want of it;
- the license renewal, in September, for a license ending this year with none after it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from beano import rules
from beano.rules.reporting import OPEN as OPEN_OCCASION
from occasions.models import Occasion
from occasions.selectors import resumption_facts
from organizations.models import License, Organization
from reports import selectors
from reports.models import AnnualReport
from reports.reminder_models import ReminderKind

#: Days before the due date of the "due soon" reminder.
DUE_SOON_DAYS = 3
#: A report late longer than this is not reminded of any more (it is on the dashboard, and an
#: organization joining with a long past owes no flood of mail on the first run).
LATE_HORIZON_DAYS = 30
RENEWAL_MONTH = 9
ANNUAL_MONTH = 1


@dataclass(frozen=True)
class ReminderEvent:
    """One thing to remind an organization of: ``key`` names the event, so it is sent once."""

    organization: Organization
    kind: str
    key: str
    subject: str
    link: str
    context: dict[str, Any] = field(default_factory=dict, compare=False)


def _report_event(row: selectors.ObligationRow, today: dt.date) -> ReminderEvent | None:
    ob = row.obligation
    org = ob.organization
    if today == ob.due_on:
        kind, subject = ReminderKind.REPORT_DUE_TODAY, "due today"
    elif ob.due_on - dt.timedelta(days=DUE_SOON_DAYS) <= today < ob.due_on:
        kind, subject = ReminderKind.REPORT_DUE_SOON, f"due {ob.due_on:%A, %B %-d}"
    elif ob.due_on < today <= ob.due_on + dt.timedelta(days=LATE_HORIZON_DAYS):
        kind, subject = ReminderKind.REPORT_LATE, f"late: it was due {ob.due_on:%B %-d}"
    else:
        return None
    occasion = row.occasion
    if occasion is None:
        link = reverse("reports_home", args=[org.pk])
    elif occasion.status == Occasion.Status.CLOSED:
        link = reverse("report_closeout", args=[org.pk, occasion.pk])
    else:  # not played, or still to be closed: the occasion's page says what is left
        link = reverse("occasion_detail", args=[org.pk, occasion.pk])
    return ReminderEvent(
        organization=org,
        kind=kind,
        key=ob.day.isoformat(),
        subject=f"{org}: the financial report of {ob.day:%B %-d, %Y} is {subject}",
        link=link,
        context={"day": ob.day, "due_on": ob.due_on, "occasion": row.occasion},
    )


def report_events(organizations: list[Organization], today: dt.date) -> Iterator[ReminderEvent]:
    """The financial reports still owed whose reminder day is today (fixed queries)."""
    rows = selectors.obligations(
        organizations,
        start=today - dt.timedelta(days=90),
        statuses=selectors.OPEN_STATUSES,
        limit=100_000,
    )
    for row in rows:
        event = _report_event(row, today)
        if event is not None:
            yield event


def annual_events(organizations: list[Organization], today: dt.date) -> Iterator[ReminderEvent]:
    """In January: the annual report of last year, unless filed, for an organization that held
    a (not practice) license during it."""
    if today.month != ANNUAL_MONTH:
        return
    year = today.year - 1
    licensed = set(
        License.objects.filter(
            organization__in=organizations,
            practice=False,
            valid_from__year__lte=year,
            valid_to__year__gte=year,
        ).values_list("organization_id", flat=True)
    )
    filed = set(
        AnnualReport.objects.filter(organization__in=organizations, year=year).values_list(
            "organization_id", flat=True
        )
    )
    for org in organizations:
        if org.pk in licensed and org.pk not in filed:
            yield ReminderEvent(
                organization=org,
                kind=ReminderKind.ANNUAL_REPORT,
                key=str(year),
                subject=f"{org}: the annual report of {year} is due before January 31",
                link=reverse("annual_report", args=[org.pk, year]),
                context={"year": year, "due_on": dt.date(today.year, 1, 31)},
            )


def resumption_events(organizations: list[Organization], today: dt.date) -> Iterator[ReminderEvent]:
    """Two authorized nights in a row not played (the last today or before) and no notice sent
    since: the rule of 3.05(1)(b) would refuse the next opening."""
    tomorrow = today + dt.timedelta(days=1)
    for org in organizations:
        facts = resumption_facts(org, tomorrow)
        if not facts.previous_two_not_played or facts.last_not_played_on is None:
            continue
        decision = rules.judge(OPEN_OCCASION, facts, on=tomorrow)
        if decision.allowed:
            continue
        yield ReminderEvent(
            organization=org,
            kind=ReminderKind.RESUMPTION_NOTICE,
            key=facts.last_not_played_on.isoformat(),
            subject=f"{org}: notify the Commission in writing before Beano resumes",
            link=reverse("occasion_calendar", args=[org.pk]),
            context={
                "last_not_played_on": facts.last_not_played_on,
                "citations": sorted({v.citation for v in decision.violations}),
            },
        )


def renewal_events(organizations: list[Organization], today: dt.date) -> Iterator[ReminderEvent]:
    """In September: an active license ending by the end of the year with no license of the
    organization starting after it."""
    if today.month != RENEWAL_MONTH:
        return
    licenses = list(
        License.objects.filter(
            organization__in=organizations, practice=False, valid_to__gte=today
        ).order_by("valid_from")
    )
    year_end = dt.date(today.year, 12, 31)
    latest_start = {lic.organization_id: lic.valid_from for lic in licenses}  # ordered
    by_pk = {o.pk: o for o in organizations}
    for lic in licenses:
        if lic.status != License.Status.ACTIVE or lic.valid_to > year_end:
            continue
        if latest_start[lic.organization_id] > lic.valid_to:
            continue  # renewed: a license of the organization starts after this one
        org = by_pk[lic.organization_id]
        yield ReminderEvent(
            organization=org,
            kind=ReminderKind.LICENSE_RENEWAL,
            key=lic.number,
            subject=f"{org}: Beano license {lic.number} ends {lic.valid_to:%B %-d, %Y}",
            link=reverse("organization_home", args=[org.pk]),
            context={"license": lic},
        )


def events_on(organizations: Iterable[Organization], today: dt.date) -> list[ReminderEvent]:
    orgs = list(organizations)
    if not orgs:
        return []
    return [
        *report_events(orgs, today),
        *annual_events(orgs, today),
        *resumption_events(orgs, today),
        *renewal_events(orgs, today),
    ]
