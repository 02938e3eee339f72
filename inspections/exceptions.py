"""The exceptions report: what the inspector should look at first, across the organizations in
scope. Each source is a small function of the query returning its rows, listed in ``SOURCES``;
a new kind of exception (the paper inventory's differences, say) is one more function and one
more entry, and the page, the filter and the CSV take it without change.

Sources read in a fixed number of queries whatever the number of organizations or occasions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db.models import QuerySet, Sum
from django.urls import reverse
from django.utils import timezone

from banking.bank_selectors import last_ended_month, month_end, months_between
from banking.models import BankReconciliation, Deposit, GamingAccount
from beano.rules.banking import next_business_day
from beano.rules.money import usd
from equipment.models import STOCK_CATEGORY, PaperIssue, StockTake
from occasions.models import Occasion, SaleLine
from organizations.models import Organization
from reports import obligations as owed
from reports import selectors as report_selectors
from reports.models import CountCategory, FinancialReport


@dataclass(frozen=True)
class ExceptionQuery:
    """What every source is asked: the organizations (in scope, filtered), the period, the
    threshold above which a variance is an exception, and today."""

    organizations: QuerySet[Organization]
    date_from: dt.date | None
    date_to: dt.date | None
    threshold: Decimal
    today: dt.date


@dataclass(frozen=True)
class ExceptionRow:
    kind: str
    organization: Organization
    day: dt.date
    subject: str
    detail: str
    amount: Decimal | None
    url: str


Source = Callable[[ExceptionQuery], Iterable[ExceptionRow]]


def _dated(queryset: QuerySet, field: str, q: ExceptionQuery) -> QuerySet:
    if q.date_from:
        queryset = queryset.filter(**{f"{field}__gte": q.date_from})
    if q.date_to:
        queryset = queryset.filter(**{f"{field}__lte": q.date_to})
    return queryset


def _money(value: object) -> Decimal | None:
    try:
        return None if value is None else Decimal(str(value))
    except InvalidOperation:
        return None


def cash_variances(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """The filed reports (their current version) whose cash, or a count's value, differs from
    the records by more than the threshold."""
    reports = _dated(
        FinancialReport.objects.filter(organization__in=q.organizations),
        "occasion__date",
        q,
    ).select_related("occasion", "organization")
    latest: dict[int, FinancialReport] = {}
    for report in reports.order_by("occasion_id", "version"):
        latest[report.occasion_id] = report
    for report in latest.values():
        occasion, figures = report.occasion, report.figures
        url = reverse("report_versions", args=[report.organization_id, occasion.pk])
        differences = [("Cash", _money(figures.get("cash", {}).get("variance")))]
        differences += [
            (c.get("label", "Count"), _money(c.get("value_difference")))
            for c in figures.get("counts", [])
        ]
        for label, amount in differences:
            if amount is not None and abs(amount) > q.threshold:
                explanation = figures.get("variance", {}).get("explanation") or "not explained"
                yield ExceptionRow(
                    "variances",
                    report.organization,
                    occasion.date,
                    f"{label} {'over' if amount > 0 else 'short'} by {usd(abs(amount))}",
                    f"Report version {report.version}; explanation: {explanation}",
                    amount,
                    url,
                )


def late_deposits(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """Deposits made after the business day following the occasion, and closed occasions whose
    deposit is past due and not recorded (from the day each gaming account's book starts)."""
    deposits = _dated(
        Deposit.objects.filter(account__organization__in=q.organizations),
        "occasion__date",
        q,
    ).select_related("occasion", "account__organization")
    for d in deposits:
        if d.deposited_on > d.due_on:
            days = (d.deposited_on - d.due_on).days
            yield ExceptionRow(
                "deposits",
                d.account.organization,
                d.occasion.date,
                f"Deposit {days} day{'s' if days != 1 else ''} late",
                f"Due {d.due_on:%b %-d}, deposited {d.deposited_on:%b %-d}, slip "
                f"{d.slip_reference}; reason: {d.late_reason or 'none given'}",
                d.amount,
                reverse("bank_account", args=[d.account.organization_id]),
            )
    accounts = {
        a.organization_id: a for a in GamingAccount.objects.filter(organization__in=q.organizations)
    }
    undeposited = _dated(
        Occasion.objects.filter(
            organization_id__in=list(accounts),
            status=Occasion.Status.CLOSED,
            deposit__isnull=True,
        ),
        "date",
        q,
    ).select_related("organization")
    for occasion in undeposited:
        due = next_business_day(occasion.date)
        if occasion.date >= accounts[occasion.organization_id].opened_on and due < q.today:
            yield ExceptionRow(
                "deposits",
                occasion.organization,
                occasion.date,
                "No deposit recorded",
                f"Due {due:%b %-d, %Y}",
                None,
                reverse("bank_account", args=[occasion.organization_id]),
            )


def reconciliation_exceptions(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """Months of a gaming account that have ended without a reconciliation, and months
    reconciled with a difference (explained, or they could not have been saved)."""
    accounts = list(
        GamingAccount.objects.filter(organization__in=q.organizations).select_related(
            "organization"
        )
    )
    done: dict[int, dict[dt.date, BankReconciliation]] = {a.pk: {} for a in accounts}
    for r in BankReconciliation.objects.filter(account__in=accounts):
        done[r.account_id][r.month] = r
    last = last_ended_month(q.today)
    for account in accounts:
        url = reverse("bank_account", args=[account.organization_id])
        for month in months_between(account.opened_on, last):
            end = month_end(month)
            if (q.date_from and end < q.date_from) or (q.date_to and month > q.date_to):
                continue
            reconciled = done[account.pk].get(month)
            if reconciled is None:
                yield ExceptionRow(
                    "reconciliations",
                    account.organization,
                    end,
                    f"{month:%B %Y} not reconciled",
                    f"{account}: the month ended {end:%b %-d, %Y}",
                    None,
                    url,
                )
            elif reconciled.difference:
                yield ExceptionRow(
                    "reconciliations",
                    account.organization,
                    end,
                    f"{month:%B %Y} reconciled with a difference",
                    reconciled.explanation,
                    reconciled.difference,
                    url,
                )


def inventory_differences(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """Stock-takes that found a count different from the records (961 CMR 3.04(4)(e)), and paper
    issued to the door of a closed occasion that was never counted back."""
    takes = _dated(
        StockTake.objects.filter(purchase__organization__in=q.organizations), "counted_on", q
    ).select_related("purchase__organization")
    for take in takes:
        if take.difference:
            yield ExceptionRow(
                "inventory",
                take.purchase.organization,
                take.counted_on,
                f"Stock-take {take.difference:+d} against the records",
                f"{take.purchase}: {take.expected} expected, {take.counted} counted; "
                f"reason: {take.reason or 'none given'}",
                None,
                reverse("paper_stock", args=[take.purchase.organization_id]),
            )
    open_issues = _dated(
        PaperIssue.objects.filter(
            occasion__organization__in=q.organizations,
            occasion__status=Occasion.Status.CLOSED,
            returned_at__isnull=True,
        ),
        "occasion__date",
        q,
    ).select_related("occasion__organization", "purchase")
    for issue in open_issues:
        occasion = issue.occasion
        yield ExceptionRow(
            "inventory",
            occasion.organization,
            occasion.date,
            "Paper issued to the door never counted back",
            f"{issue.purchase}: serials {issue.serial_from}–{issue.serial_to}",
            None,
            reverse("occasion_serials", args=[occasion.organization_id, occasion.pk]),
        )


#: The categories of the door's sales that are paper from stock (the others are not cards).
PAPER_CATEGORIES = tuple(dict.fromkeys(STOCK_CATEGORY.values()))


def paper_never_issued(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """Closed occasions whose door sold paper while none was issued to it from stock by serial
    (961 CMR 3.04(4)(d)2, (e)): with no issue and no count back there is nothing to reconcile
    the door's counts with, so a hall that never records its stock would otherwise look clean."""
    sold = (
        _dated(
            SaleLine.objects.filter(
                sale__occasion__organization__in=q.organizations,
                sale__occasion__status=Occasion.Status.CLOSED,
                sale__voided_at__isnull=True,
                category__in=PAPER_CATEGORIES,
            ).exclude(sale__occasion__paper_issues__isnull=False),
            "sale__occasion__date",
            q,
        )
        .values("sale__occasion", "category")
        .annotate(cards=Sum("quantity"))
        .order_by()
    )
    by_occasion: dict[int, dict[str, int]] = {}
    for line in sold:
        if line["cards"]:
            by_occasion.setdefault(line["sale__occasion"], {})[line["category"]] = line["cards"]
    labels = dict(CountCategory.choices)
    occasions = Occasion.objects.filter(pk__in=list(by_occasion)).select_related("organization")
    for occasion in occasions:
        cards = by_occasion[occasion.pk]
        counts = ", ".join(f"{labels.get(c, c)} {n}" for c, n in sorted(cards.items()))
        yield ExceptionRow(
            "paper_unissued",
            occasion.organization,
            occasion.date,
            "Paper sold at the door but none issued from stock by serial",
            f"{sum(cards.values())} cards sold ({counts}); no paper issued to the door or "
            "counted back, so nothing to reconcile the door's counts with",
            None,
            reverse("occasion_serials", args=[occasion.organization_id, occasion.pk]),
        )


#: The most reports owed the exceptions report reads (the newest first).
REPORTS_READ = 5000


def reports_owed(q: ExceptionQuery) -> Iterable[ExceptionRow]:
    """Reports missing, late or filed late (961 CMR 3.05(1)(a)), as every page says them: the
    one computation of what is owed (``reports.obligations``, through the list's selector)."""
    rows = report_selectors.obligations(
        q.organizations,
        start=q.date_from,
        end=q.date_to,
        statuses=(owed.MISSING, owed.LATE, owed.FILED_LATE),
        limit=REPORTS_READ,
    )
    listed = reverse("commission_reports")
    for row in rows:
        ob = row.obligation
        if row.report is not None:
            filed_on = timezone.localtime(row.report.filed_at).date()
            subject = f"Report filed {(filed_on - ob.due_on).days} days late"
            detail = f"Due {ob.due_on:%b %-d, %Y}, filed {filed_on:%b %-d, %Y}"
            url = reverse("report_versions", args=[ob.organization_id, row.occasion.pk])
        else:
            subject = f"Report {owed.STATE_LABELS[row.status].lower()}"
            recorded = (
                f"the day recorded ({row.occasion.get_status_display().lower()}), no report filed"
                if row.occasion
                else "nothing recorded for the day"
            )
            detail = f"Due {ob.due_on:%b %-d, %Y}; {recorded}"
            url = f"{listed}?organization={ob.organization_id}&status={row.status}"
        yield ExceptionRow("reports", ob.organization, ob.day, subject, detail, None, url)


#: The sources, in the order of the filter's choices: key → (label, function).
SOURCES: dict[str, tuple[str, Source]] = {
    "reports": ("Reports missing, late or filed late", reports_owed),
    "variances": ("Variances over the threshold", cash_variances),
    "deposits": ("Late or missing deposits", late_deposits),
    "reconciliations": ("Bank reconciliations", reconciliation_exceptions),
    "inventory": ("Paper inventory differences", inventory_differences),
    "paper_unissued": ("Paper sold but not issued by serial", paper_never_issued),
}


def exceptions(q: ExceptionQuery, kinds: Iterable[str] | None = None) -> list[ExceptionRow]:
    """The rows of every source asked for (all by default), newest first."""
    chosen = list(kinds) if kinds else list(SOURCES)
    rows = [row for kind in chosen for row in SOURCES[kind][1](q)]
    return sorted(rows, key=lambda r: (r.day, r.organization.name, r.kind), reverse=True)
