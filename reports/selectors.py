"""Reads of the reports: obligations with their status, an occasion's versions, the close-out
page. Always given the organization, or the inspector's scope."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from occasions.models import Occasion
from organizations.models import Organization
from reports import obligations as owed
from reports.figures import digest
from reports.models import AnnualReport, FinancialReport, ReportObligation

#: Status of an obligation, in the order an inspector cares about them.
MISSING = "missing"  # due date passed, nothing recorded for the day
LATE = "late"  # due date passed, the day recorded but the report not filed
DUE = "due"  # the day has passed, the due date has not
FILED_LATE = "filed_late"
FILED = "filed"
UPCOMING = "upcoming"  # the authorized day is still ahead
#: An occasion on a practice license (``License.practice``): its day owes no report.
PRACTICE = "practice"

STATUS_LABELS = {
    MISSING: "Missing",
    LATE: "Late",
    DUE: "Due",
    FILED_LATE: "Filed late",
    FILED: "Filed",
    UPCOMING: "Upcoming",
}
STATUS_STYLES = {
    MISSING: "danger",
    LATE: "danger",
    DUE: "warning",
    FILED_LATE: "secondary",
    FILED: "success",
    UPCOMING: "light",
}
OPEN_STATUSES = (MISSING, LATE, DUE)
#: The most obligations a list reads (the newest first).
OBLIGATIONS_LISTED = 500
#: An occasion's report as a list of occasions shows it: an obligation's status, or practice.
OCCASION_LABELS = STATUS_LABELS | {PRACTICE: "No report (practice)"}
OCCASION_STYLES = STATUS_STYLES | {PRACTICE: "light"}

REPORT_FIELDS = (
    "id",
    "occasion_id",
    "version",
    "filed_at",
    "days_late",
    "render_status",
    "organization_id",
)


@dataclass(frozen=True)
class ObligationRow:
    obligation: ReportObligation
    occasion: Occasion | None
    report: FinancialReport | None  # the first filing
    versions: int

    @cached_property
    def status(self) -> str:
        return obligation_status(self.obligation, self.occasion, self.report, timezone.localdate())

    @property
    def status_label(self) -> str:
        return STATUS_LABELS[self.status]

    @property
    def status_style(self) -> str:
        return STATUS_STYLES[self.status]


#: An occasion of these statuses recorded its day: its report unfiled past due is late, not
#: missing.
RECORDED = (Occasion.Status.OPEN, Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED)


def obligation_status(
    obligation: ReportObligation,
    occasion: Occasion | None,
    report: FinancialReport | None,
    today: dt.date,
) -> str:
    if report is not None:
        filed_on = timezone.localtime(report.filed_at).date()
        return FILED_LATE if filed_on > obligation.due_on else FILED
    played_out = occasion is not None and occasion.status in (
        Occasion.Status.CLOSED,
        Occasion.Status.NOT_PLAYED,
    )
    # Tonight is upcoming until its occasion is closed (or marked not played): then its report
    # is due like any other, and the bookkeeper sees it tonight.
    if obligation.day > today or (obligation.day == today and not played_out):
        return UPCOMING
    if today <= obligation.due_on:
        return DUE
    recorded = occasion is not None and occasion.status in RECORDED
    return LATE if recorded else MISSING


def _day_filed() -> Exists:
    """Whether an obligation's day has a filed report (any version), for its queryset."""
    return Exists(
        FinancialReport.objects.filter(
            organization_id=OuterRef("organization_id"), occasion__date=OuterRef("day")
        )
    )


def obligations(
    organizations: QuerySet[Organization] | Iterable[Organization],
    *,
    start: dt.date | None = None,
    end: dt.date | None = None,
    statuses: Iterable[str] = (),
    limit: int = OBLIGATIONS_LISTED,
) -> list[ObligationRow]:
    """The report obligations of the organizations with their status, newest first, in a fixed
    number of queries: those recorded, and those owed up to today that the night's
    ``reports.record_obligations`` has not recorded yet (read, never written here). A license
    marked practice after its days were recorded owes none of them."""
    orgs = list(organizations)
    today = timezone.localdate()
    last = min(end, today) if end else today
    rows = ReportObligation.objects.filter(
        organization__in=orgs, license__practice=False
    ).select_related("organization", "license")
    if start:
        rows = rows.filter(day__gte=start)
    rows = rows.filter(day__lte=last)
    wanted = set(statuses)
    # Rows read to find ``limit`` of the statuses wanted: four times as many when filed ones are
    # among those read and dropped.
    reading = limit * 4
    if wanted and not wanted & {FILED, FILED_LATE}:
        # Filed obligations are ruled out in the database when only open ones are asked for:
        # on a statewide year nearly every day is filed, and each would be read to be dropped.
        rows = rows.exclude(_day_filed())
        if wanted >= set(OPEN_STATUSES):
            reading = limit + len(orgs)  # and at most one day each still upcoming (today's)
    obligations_list = list(rows.order_by("-day", "organization__name")[:reading])
    unrecorded = [
        o
        for o in owed.unrecorded_obligations(orgs, today)
        if o.day <= last and (start is None or o.day >= start)
    ]
    if unrecorded:
        reading += len(unrecorded)  # these are not ruled out in the database when filed
        obligations_list = sorted(
            [*obligations_list, *unrecorded],
            key=lambda o: (-o.day.toordinal(), o.organization.name),
        )[:reading]
    keys = {(o.organization_id, o.day) for o in obligations_list}
    days = {d for _, d in keys}
    occasions = (
        {
            (o.organization_id, o.date): o
            for o in Occasion.objects.filter(organization__in=orgs, date__in=days).only(
                "id", "organization_id", "date", "status", "sealed_at"
            )
        }
        if days
        else {}
    )
    reports: dict[int, list[FinancialReport]] = {}
    if occasions:
        for r in (
            FinancialReport.objects.filter(occasion__in=[o.pk for o in occasions.values()])
            .only(*REPORT_FIELDS)
            .order_by("version")
        ):
            reports.setdefault(r.occasion_id, []).append(r)
    out: list[ObligationRow] = []
    for ob in obligations_list:
        occasion = occasions.get((ob.organization_id, ob.day))
        versions = reports.get(occasion.pk, []) if occasion else []
        row = ObligationRow(ob, occasion, versions[0] if versions else None, len(versions))
        if wanted and obligation_status(ob, occasion, row.report, today) not in wanted:
            continue
        out.append(row)
        if len(out) >= limit:
            break
    return out


def status_counts(rows: Iterable[ObligationRow]) -> dict[str, int]:
    counts = dict.fromkeys(STATUS_LABELS, 0)
    for row in rows:
        counts[row.status] += 1
    return counts


def versions(occasion: Occasion) -> list[FinancialReport]:
    return list(
        FinancialReport.objects.filter(occasion=occasion)
        .select_related("filed_by")
        .order_by("-version")
    )


def annual_versions(organization: Organization, year: int) -> list[AnnualReport]:
    return list(
        AnnualReport.objects.filter(organization=organization, year=year)
        .select_related("filed_by")
        .order_by("-version")
    )


def report_for_org(organization: Organization, pk: int) -> FinancialReport:
    return FinancialReport.objects.select_related("occasion", "filed_by").get(
        organization=organization, pk=pk
    )


def figures_preview(occasion: Occasion) -> dict[str, Any]:
    """The figures as they would be filed now (no interest until filing)."""
    from reports.figures import compute_figures

    return compute_figures(occasion)


# --- For the Commission's dashboard and the full record ---------------------------------------


@dataclass
class ReportIssues:
    """An organization's open report issues: reports due, late or missing; filed versions with
    a difference above the threshold; amendments filed."""

    due: int = 0
    late: int = 0
    missing: int = 0
    variances: int = 0
    amendments: int = 0

    @property
    def any(self) -> bool:
        return bool(self.late or self.missing or self.variances)


def issues_by_organization(organizations: Iterable[Organization]) -> dict[int, ReportIssues]:
    """Each organization's open report issues, counted in the database: four queries whatever
    the number of organizations and days (with those owed up to today not recorded yet, as
    ``obligations`` reads them)."""
    orgs = list(organizations)
    today = timezone.localdate()
    out = {o.pk: ReportIssues() for o in orgs}
    if not orgs:
        return out
    held = Occasion.objects.filter(
        organization_id=OuterRef("organization_id"), date=OuterRef("day"), status__in=RECORDED
    )
    past_due = Q(due_on__lt=today)
    counted = (
        ReportObligation.objects.filter(
            organization__in=orgs, day__lt=today, license__practice=False
        )
        .annotate(filed=_day_filed(), held=Exists(held))
        .filter(filed=False)
        .order_by()
        .values("organization_id")
        .annotate(
            due=Count("pk", filter=~past_due),
            past=Count("pk", filter=past_due),
            # (whether the day was held, asked once a row: the others past due are missing)
            late=Count("pk", filter=past_due & Q(held=True)),
        )
        .values_list("organization_id", "due", "past", "late")
    )
    for org_id, due, past, late in counted:
        out[org_id].due, out[org_id].late, out[org_id].missing = due, late, past - late
    _count_unrecorded(out, orgs, today)
    for org_id, amendments in (
        FinancialReport.objects.filter(organization__in=orgs, version__gt=1)
        .order_by()
        .values("organization_id")
        .annotate(n=Count("pk"))
        .values_list("organization_id", "n")
    ):
        out[org_id].amendments = amendments
    # A first filing's differences above the threshold are a list (empty when none): read
    # and judged as the filing judged them, not by a JSON comparison.
    first_filings = FinancialReport.objects.filter(organization__in=orgs, version=1)
    for org_id, above in first_filings.values_list(
        "organization_id", "figures__variance__above_threshold"
    ):
        if above:
            out[org_id].variances += 1
    return out


def _count_unrecorded(
    out: dict[int, ReportIssues], orgs: list[Organization], today: dt.date
) -> None:
    """The days owed up to today that the night's task has not recorded yet (a few): judged by
    ``obligation_status`` as the list judges them, in one more query, none where there are
    none."""
    unrecorded = [o for o in owed.unrecorded_obligations(orgs, today) if o.day < today]
    if not unrecorded:
        return
    occasions = {
        (o.organization_id, o.date): o
        for o in Occasion.objects.filter(
            organization__in=orgs, date__in={o.day for o in unrecorded}
        )
        .annotate(filed=Exists(FinancialReport.objects.filter(occasion=OuterRef("pk"))))
        .only("id", "organization_id", "date", "status")
    }
    for ob in unrecorded:
        occasion = occasions.get((ob.organization_id, ob.day))
        if occasion is not None and occasion.filed:
            continue
        issues = out[ob.organization_id]
        status = obligation_status(ob, occasion, None, today)  # due, late or missing
        setattr(issues, status, getattr(issues, status) + 1)


@dataclass(frozen=True)
class OccasionReport:
    """An occasion's report as a list shows it: its status and, once filed, its figures."""

    status: str
    versions: int
    net_proceeds: str | None
    gross_receipts: str | None
    #: The current version's figures match their SHA-256 (False: shown with a warning).
    intact: bool = True

    @property
    def label(self) -> str:
        return OCCASION_LABELS[self.status]

    @property
    def style(self) -> str:
        return OCCASION_STYLES[self.status]


def reports_of_occasions(occasions: Iterable[Occasion]) -> dict[int, OccasionReport]:
    """The report of each occasion of a page of a list (their licenses selected with them): two
    queries. An occasion on a practice license owes none: unfiled, it is never due nor late."""
    occasions = list(occasions)
    today = timezone.localdate()
    latest: dict[int, tuple] = {}
    first_filed: dict[int, Any] = {}
    for occasion_id, version, filed_at, figures, figures_sha256 in (
        FinancialReport.objects.filter(occasion__in=occasions)
        .order_by("occasion_id", "version")
        .values_list("occasion_id", "version", "filed_at", "figures", "figures_sha256")
    ):
        first_filed.setdefault(occasion_id, filed_at)
        latest[occasion_id] = (
            version,
            figures["net"]["net_proceeds"],
            figures["receipts"]["gross_receipts"],
            digest(figures) == figures_sha256,
        )
    due_on = owed.due_dates()
    out = {}
    for o in occasions:
        due = due_on(o.date)
        if o.pk in latest:
            filed_on = timezone.localtime(first_filed[o.pk]).date()
            version, net, gross, intact = latest[o.pk]
            status = FILED_LATE if filed_on > due else FILED
            out[o.pk] = OccasionReport(status, version, net, gross, intact)
            continue
        if o.license.practice:
            status = PRACTICE
        elif o.date >= today:
            status = UPCOMING
        elif today <= due:
            status = DUE
        elif o.status in (Occasion.Status.OPEN, Occasion.Status.CLOSED, Occasion.Status.NOT_PLAYED):
            status = LATE
        else:
            status = MISSING
        out[o.pk] = OccasionReport(status, 0, None, None)
    return out
