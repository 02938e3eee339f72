"""The figures over time for the dashboards' charts: attendance, gross receipts (door sales),
prizes (awarded to winners) and net proceeds, by month, as the median per occasion played,
beside the statewide median per closed occasion. Three queries whatever the number of
occasions (four while a night is open): the medians of the subject's closed occasions' kept
figures, taken by the database (``reports.kept_medians``), its open ones' figures computed
(tonight's few), and the statewide medians kept per month (``reports.kept``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from decimal import Decimal

from django.db.models import QuerySet

from inspections.charts import Chart, Series
from occasions.models import Occasion
from reports.kept import KEPT_STATUS, month_start
from reports.kept_medians import medians_of, month_medians
from reports.kept_models import KeptOccasionFigures, KeptStatewideMonth
from reports.occasion_totals import with_figures

#: (figure, chart title, unit). A new figure (the net proceeds) is one more line here, or one
#: more series on a chart (``Chart.with_series``).
MEASURES = (
    ("attendance", "Attendance announced", "players"),
    ("gross_receipts", "Gross receipts (door sales)", "USD"),
    ("prizes", "Prizes awarded", "USD"),
    ("net_proceeds", "Net proceeds (filed reports)", "USD"),
)
DEFAULT_MONTHS = 12


def months_between(start: dt.date, end: dt.date) -> list[dt.date]:
    months, month = [], month_start(start)
    while month <= end:
        months.append(month)
        month = (month + dt.timedelta(days=32)).replace(day=1)
    return months


def period(
    date_from: dt.date | None, date_to: dt.date | None, today: dt.date
) -> tuple[dt.date, dt.date]:
    """The filter's range, or the last twelve months (this one included)."""
    end = date_to or today
    start = date_from or month_start(end).replace(year=end.year - 1) + dt.timedelta(days=32)
    return month_start(start), end


def medians(occasions: QuerySet[Occasion], start: dt.date, end: dt.date) -> Medians:
    """Each measure's median per occasion played in [start, end], by month: the closed
    occasions' as kept at their close and filing, taken by the database
    (``reports.kept_medians``); the open ones' computed now, and their months' medians taken
    here with the kept rows of those months. Two queries, four when a night is open."""
    names = [name for name, _, _ in MEASURES]
    in_range = occasions.filter(date__range=(start, end))
    kept = KeptOccasionFigures.objects.filter(
        occasion__in=in_range.filter(status=KEPT_STATUS).values("pk")
    )
    open_nights = in_range.filter(status=Occasion.Status.OPEN)
    live = [
        row | {"month": month_start(row["date"])}
        # (asked first: most views find no night open, and the figures' read is long to build)
        for row in (
            with_figures(open_nights).values("date", *names) if open_nights.exists() else ()
        )
    ]
    live_months = {row["month"] for row in live}
    found = month_medians(kept.exclude(month__in=live_months), names)
    if live_months:
        rows = [*kept.filter(month__in=live_months).values("month", *names), *live]
        found |= medians_of(rows, names)
    return {key: median for key, (median, _count) in found.items()}


Medians = Mapping[tuple[dt.date, str], Decimal | None]


def statewide_medians(start: dt.date, end: dt.date) -> Medians:
    """The statewide median of each measure per closed occasion, by month, as kept: every
    licensee's occasions, a practice license's (``License.practice``, the demo's) no one's.
    One query."""
    return {
        (row.month, row.measure): row.median
        for row in KeptStatewideMonth.objects.filter(month__range=(month_start(start), end))
    }


def trend_charts(
    *,
    subject: str,
    subject_medians: Medians,
    statewide: Medians,
    start: dt.date,
    end: dt.date,
) -> list[Chart]:
    months = months_between(start, end)
    labels = tuple(f"{m:%b %Y}" for m in months)
    # Under the axis the month alone, with the year at the start and at each January.
    ticks = tuple(
        f"{m:%b} ’{m:%y}" if i == 0 or m.month == 1 else f"{m:%b}" for i, m in enumerate(months)
    )
    return [
        Chart(
            key=name,
            title=title,
            note="median per occasion played, by month",
            unit=unit,
            labels=labels,
            ticks=ticks,
            series=(
                Series(subject, tuple(subject_medians.get((m, name)) for m in months)),
                Series("Statewide median", tuple(statewide.get((m, name)) for m in months)),
            ),
        )
        for name, title, unit in MEASURES
    ]
