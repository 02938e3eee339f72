"""The figures over time for the dashboards' charts: attendance, gross receipts (door sales),
prizes (awarded to winners) and net proceeds, by month, as the median per occasion played,
beside the statewide median per closed occasion. Three queries whatever the number of
occasions: the subject's closed occasions' kept figures and its open ones' computed (tonight's
few), and the statewide medians kept per month (``reports.kept``)."""

from __future__ import annotations

import datetime as dt
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from inspections.charts import Chart, Series
from occasions.models import Occasion
from reports.kept import KEPT_STATUS
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


def month_start(day: dt.date) -> dt.date:
    return day.replace(day=1)


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


def figures(occasions: QuerySet[Occasion], start: dt.date, end: dt.date) -> list[dict[str, Any]]:
    """The played occasions in [start, end], each with its figures: the closed ones' as kept at
    their close and filing, the open ones' computed now. Two queries."""
    names = [name for name, _, _ in MEASURES]
    in_range = occasions.filter(date__range=(start, end))
    kept = KeptOccasionFigures.objects.filter(
        occasion__in=in_range.filter(status=KEPT_STATUS).values("pk")
    ).values("date", *names)
    live = with_figures(in_range.filter(status=Occasion.Status.OPEN)).values("date", *names)
    return [*kept, *live]


Medians = Mapping[tuple[dt.date, str], Decimal | None]


def statewide_medians(start: dt.date, end: dt.date) -> Medians:
    """The statewide median of each measure per closed occasion, by month, as kept: every
    licensee's occasions, a practice license's (``License.practice``, the demo's) no one's.
    One query."""
    return {
        (row.month, row.measure): row.median
        for row in KeptStatewideMonth.objects.filter(month__range=(month_start(start), end))
    }


def _medians(rows: Iterable[dict[str, Any]], months: list[dt.date]) -> dict[str, tuple]:
    """Each measure's median per occasion, month by month: the rows grouped in one pass."""
    by_month: dict[str, dict[dt.date, list[Decimal]]] = {
        name: defaultdict(list) for name, _, _ in MEASURES
    }
    for row in rows:
        month = month_start(row["date"])
        for name, values in by_month.items():
            value = row.get(name)
            if value is not None:
                values[month].append(value if isinstance(value, Decimal) else Decimal(value))
    return {
        name: tuple(statistics.median(values[m]) if values.get(m) else None for m in months)
        for name, values in by_month.items()
    }


def trend_charts(
    *,
    subject: str,
    subject_rows: list[dict[str, Any]],
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
    medians = _medians(subject_rows, months)
    return [
        Chart(
            key=name,
            title=title,
            note="median per occasion played, by month",
            unit=unit,
            labels=labels,
            ticks=ticks,
            series=(
                Series(subject, medians[name]),
                Series("Statewide median", tuple(statewide.get((m, name)) for m in months)),
            ),
        )
        for name, title, unit in MEASURES
    ]
