"""Reads of the reports: obligations with their status, an occasion's versions, the close-out
page. Always given the organization, or the inspector's scope."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from equipment import paper_selectors
from occasions.models import Occasion
from organizations.models import Organization
from reports import obligations as owed
from reports.figures import digest
from reports.models import AnnualReport, FinancialReport, ReportObligation

# The states, their labels and the start of the records are the one computation's
# (``reports.obligations``); named here too for the pages that read them through the selectors.
MISSING, LATE, DUE = owed.MISSING, owed.LATE, owed.DUE
FILED_LATE, FILED, UPCOMING = owed.FILED_LATE, owed.FILED, owed.UPCOMING
AMENDED, PRACTICE, BEFORE_RECORDS = owed.AMENDED, owed.PRACTICE, owed.BEFORE_RECORDS
STATUS_LABELS = owed.STATE_LABELS
STATUS_STYLES = owed.STATE_STYLES
FILTER_LABELS = owed.FILTER_LABELS
OPEN_STATUSES = owed.OPEN_STATES
#: The most obligations a list reads (the newest first).
OBLIGATIONS_LISTED = 500
OCCASION_LABELS = owed.OCCASION_LABELS
OCCASION_STYLES = owed.OCCASION_STYLES

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
    def amended(self) -> bool:
        return self.versions > 1

    @property
    def status_style(self) -> str:
        return STATUS_STYLES[self.status]


RECORDED = owed.RECORDED


def obligation_status(
    obligation: ReportObligation,
    occasion: Occasion | None,
    report: FinancialReport | None,
    today: dt.date,
) -> str:
    """The state of an obligation as ``reports.obligations.state`` judges it."""
    return owed.state(
        day=obligation.day,
        due_on=obligation.due_on,
        today=today,
        occasion_status=occasion.status if occasion else None,
        filed_on=timezone.localtime(report.filed_at).date() if report is not None else None,
    )


def _owed_here() -> Q:
    """An obligation recorded from the start of its organization's records (one recorded before
    the start was moved later owes nothing here), of a license not practice."""
    return Q(license__practice=False) & (
        Q(organization__reports_from__isnull=True) | Q(day__gte=F("organization__reports_from"))
    )


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
    rows = ReportObligation.objects.filter(_owed_here(), organization__in=orgs).select_related(
        "organization", "license"
    )
    if start:
        rows = rows.filter(day__gte=start)
    rows = rows.filter(day__lte=last)
    wanted = set(statuses)
    amended_only = AMENDED in wanted
    if amended_only:
        wanted = set(owed.FILED_STATES)
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
        if amended_only and not row.amended:
            continue
        out.append(row)
        if len(out) >= limit:
            break
    return out


def status_counts(rows: Iterable[ObligationRow]) -> dict[str, int]:
    """How many rows of each state, and how many amended."""
    counts = dict.fromkeys(FILTER_LABELS, 0)
    for row in rows:
        counts[row.status] += 1
        counts[AMENDED] += row.amended
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


def door_counts(occasion: Occasion) -> dict[str, int]:
    """The door's count of each category as the figures would be filed now
    (``equipment.extensions``: the paper by serial is set against them)."""
    return paper_selectors.door_counts(figures_preview(occasion))


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
        ReportObligation.objects.filter(_owed_here(), organization__in=orgs, day__lt=today)
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
    """The report of each occasion of a page of a list (their organizations and licenses
    selected with them), as ``reports.obligations.occasion_state`` judges it: two queries. An
    occasion on a practice license, or before its organization's records begin here, owes none
    here: unfiled, it is never due nor late."""
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
        filed_on = timezone.localtime(first_filed[o.pk]).date() if o.pk in latest else None
        status = owed.state_of_occasion(o, due_on=due_on, today=today, filed_on=filed_on)
        if o.pk in latest:
            version, net, gross, intact = latest[o.pk]
            out[o.pk] = OccasionReport(status, version, net, gross, intact)
        else:
            out[o.pk] = OccasionReport(status, 0, None, None)
    return out
